import assert from "node:assert/strict";
import { wrapRuns } from "../_score.ts";
import { runSweep } from "../../lib/mod.ts";
import { readManifest } from "../../lib/store/mod.ts";
import {
  addSuite,
  answer,
  delayed,
  ok,
  readRows,
  stubProviders,
  testConfig,
} from "./_fixtures.ts";

async function withTemp(fn: (dir: string) => Promise<void>): Promise<void> {
  const dir = await Deno.makeTempDir({ prefix: "sweep_test_" });
  try {
    await fn(dir);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
}

Deno.test("runSweep() writes every key exactly once with correct verdicts", () =>
  withTemp(async (dir) => {
    const { factory, log } = stubProviders((_m, p) =>
      Promise.resolve(ok(answer(p)))
    );
    const config = testConfig(dir, {
      samples: 3,
      suites: [{ name: "add", templates: ["direct", "cot"] }],
    });
    const result = await runSweep(config, {
      suites: [addSuite(10)],
      createProvider: factory,
      progress: "none",
    });
    assert.equal(result.total, 2 * 10 * 2 * 3);
    assert.equal(result.done, result.total);
    assert.equal(log.calls, result.total);
    const rows = await readRows(result.runDir);
    assert.equal(rows.length, result.total);
    assert.equal(new Set(rows.map((r) => r.key)).size, result.total);
    assert.ok(rows.every((r) => r.status === "correct" && r.correct === true));
    const manifest = await readManifest(result.runDir);
    assert.equal(manifest.total, result.total);
    assert.equal(manifest.counts.rows, result.total);
    assert.equal(manifest.interrupted, false);
    assert.ok(manifest.endedAt !== null);
    assert.deepEqual(manifest.questions, { add: 10 });
  }));

Deno.test("runSweep() turns failed completions into error rows and goes on", () =>
  withTemp(async (dir) => {
    const { factory } = stubProviders((_m, p, sample) =>
      Promise.resolve(
        sample === 1
          ? {
            ...ok(""),
            error: { kind: "server" as const, message: "HTTP 500" },
          }
          : ok(answer(p)),
      )
    );
    const result = await runSweep(testConfig(dir, { samples: 2 }), {
      suites: [addSuite(5)],
      createProvider: factory,
      progress: "none",
    });
    const rows = await readRows(result.runDir);
    assert.equal(rows.length, 20);
    const errors = rows.filter((r) => r.status === "error");
    assert.equal(errors.length, 10);
    assert.equal(result.errors, 10);
    assert.ok(
      errors.every((r) =>
        r.error_kind === "server" && r.error_message === "HTTP 500"
      ),
    );
  }));

Deno.test("runSweep() serves an identical re-run from the cache without requests", () =>
  withTemp(async (dir) => {
    const first = stubProviders((_m, p) => Promise.resolve(ok(answer(p))));
    const config = testConfig(dir, { samples: 2 });
    const a = await runSweep(config, {
      suites: [addSuite(6)],
      createProvider: first.factory,
      progress: "none",
    });
    const second = stubProviders((_m, p) => Promise.resolve(ok(answer(p))));
    const b = await runSweep(config, {
      suites: [addSuite(6)],
      createProvider: second.factory,
      progress: "none",
    });
    assert.equal(first.log.calls, 24);
    assert.equal(second.log.calls, 0);
    assert.equal(b.cached, 24);
    const rows = await readRows(b.runDir);
    assert.ok(rows.every((r) => r.cached === true && r.attempts === 0));
    const before = (await readRows(a.runDir)).map((r) => [r.key, r.response])
      .sort();
    assert.deepEqual(rows.map((r) => [r.key, r.response]).sort(), before);
  }));

Deno.test("runSweep() does not cache failed completions", () =>
  withTemp(async (dir) => {
    let fail = true;
    const { factory, log } = stubProviders((_m, p) =>
      Promise.resolve(
        fail
          ? { ...ok(""), error: { kind: "timeout" as const, message: "t" } }
          : ok(answer(p)),
      )
    );
    const config = testConfig(dir);
    await runSweep(config, {
      suites: [addSuite(3)],
      createProvider: factory,
      progress: "none",
    });
    fail = false;
    const b = await runSweep(config, {
      suites: [addSuite(3)],
      createProvider: factory,
      progress: "none",
    });
    assert.equal(log.calls, 12);
    assert.equal(b.errors, 0);
  }));

Deno.test("runSweep() keeps per-model and global concurrency limits", () =>
  withTemp(async (dir) => {
    const { factory, log } = stubProviders((_m, p) =>
      delayed(5, ok(answer(p)))
    );
    const config = testConfig(dir, {
      concurrency: 5,
      models: [
        { name: "m1", provider: "sim", concurrency: 3 },
        { name: "m2", provider: "sim", concurrency: 4 },
      ],
    });
    await runSweep(config, {
      suites: [addSuite(40)],
      createProvider: factory,
      progress: "none",
      cache: false,
    });
    assert.ok((log.maxInFlight.get("m1") ?? 0) <= 3);
    assert.ok((log.maxInFlight.get("m2") ?? 0) <= 4);
    assert.ok(log.maxGlobal <= 5);
    assert.ok(log.maxGlobal >= 2, "lanes ran side by side");
  }));

Deno.test("runSweep() lets a fast model finish while a slow one is still working", () =>
  withTemp(async (dir) => {
    const finishOrder: string[] = [];
    const { factory } = stubProviders(async (m, p, _s, signal) => {
      const c = await delayed(m === "slow" ? 150 : 1, ok(answer(p)), signal);
      finishOrder.push(m);
      return c;
    });
    const config = testConfig(dir, {
      concurrency: 4,
      models: [
        { name: "slow", provider: "sim", concurrency: 2 },
        { name: "fast", provider: "sim", concurrency: 2 },
      ],
    });
    await runSweep(config, {
      suites: [addSuite(20)],
      createProvider: factory,
      progress: "none",
      cache: false,
    });
    const lastFast = finishOrder.lastIndexOf("fast");
    const slowBefore = finishOrder.slice(0, lastFast).filter((m) =>
      m === "slow"
    ).length;
    assert.ok(
      slowBefore < 20,
      `fast finished after ${slowBefore} of 20 slow rows`,
    );
  }));

Deno.test("runSweep() stops on abort, keeps finished rows, and resume completes without duplicates", () =>
  withTemp(async (dir) => {
    const controller = new AbortController();
    let n = 0;
    const { factory } = stubProviders((_m, p, _s, signal) => {
      if (++n === 15) controller.abort();
      return delayed(2, ok(answer(p)), signal);
    });
    const config = testConfig(dir, { samples: 2 });
    const a = await runSweep(config, {
      suites: [addSuite(20)],
      createProvider: factory,
      progress: "none",
      signal: controller.signal,
      cache: false,
    });
    assert.equal(a.interrupted, true);
    assert.ok(a.done < a.total);
    const partial = await readRows(a.runDir);
    assert.equal(partial.length, a.done);
    assert.ok(
      partial.every((r) => r.status === "correct"),
      "aborted calls are not written",
    );
    assert.equal((await readManifest(a.runDir)).interrupted, true);

    // Tear the last line as a crash would.
    await Deno.writeTextFile(`${a.runDir}/results.jsonl`, '{"key":"m1|add-', {
      append: true,
    });
    const again = stubProviders((_m, p) => Promise.resolve(ok(answer(p))));
    const b = await runSweep(config, {
      resume: a.runDir,
      suites: [addSuite(20)],
      createProvider: again.factory,
      progress: "none",
      cache: false,
    });
    assert.equal(b.skipped, a.done);
    assert.equal(b.done, a.total - a.done);
    assert.equal(again.log.calls, a.total - a.done);
    const rows = await readRows(a.runDir);
    assert.equal(rows.length, a.total);
    assert.equal(new Set(rows.map((r) => r.key)).size, a.total);
    const manifest = await readManifest(a.runDir);
    assert.equal(manifest.sessions.length, 2);
    assert.equal(manifest.interrupted, false);
    assert.equal(manifest.counts.rows, a.total);
  }));

Deno.test("runSweep() runs the suite's tools and asks again", () =>
  withTemp(async (dir) => {
    const { factory, log } = stubProviders((_m, p) => {
      const last = p.messages.at(-1);
      if (last?.role === "tool") return Promise.resolve(ok(last.content));
      const [, a, b] = /(\d+)\+(\d+)/.exec(last?.content ?? "") ?? [];
      return Promise.resolve({
        ...ok(""),
        finishReason: "tool_calls",
        toolCalls: [{
          id: "c1",
          type: "function" as const,
          function: {
            name: "calc",
            arguments: JSON.stringify({ a: Number(a), b: Number(b) }),
          },
        }],
      });
    });
    const config = testConfig(dir, {
      models: [{ name: "m1", provider: "sim" }],
    });
    const result = await runSweep(config, {
      suites: [addSuite(4, { tools: true })],
      createProvider: factory,
      progress: "none",
    });
    const rows = await readRows(result.runDir);
    assert.equal(log.calls, 8);
    assert.ok(rows.every((r) => r.correct === true && r.attempts === 2));
  }));

Deno.test("runSweep() never writes an API key value into the run folder", () =>
  withTemp(async (dir) => {
    const secret = "sk-test-THIS-IS-SECRET-123";
    const { factory } = stubProviders(() =>
      Promise.resolve({
        ...ok(""),
        error: {
          kind: "auth" as const,
          message: `Incorrect API key provided: ${secret}`,
        },
      })
    );
    const config = testConfig(dir, {
      models: [{
        name: "m1",
        provider: "openai",
        baseURL: "http://127.0.0.1:9/v1",
        apiKeyEnv: "TEST_KEY",
      }],
    });
    const result = await runSweep(config, {
      suites: [addSuite(3)],
      createProvider: factory,
      progress: "none",
      env: (name) => (name === "TEST_KEY" ? secret : undefined),
    });
    for await (const entry of Deno.readDir(result.runDir)) {
      const text = await Deno.readTextFile(`${result.runDir}/${entry.name}`);
      assert.ok(!text.includes(secret), `${entry.name} holds the key`);
    }
    const rows = await readRows(result.runDir);
    assert.ok(
      rows.every((r) => String(r.error_message).includes("[redacted]")),
    );
    assert.equal(
      (await readManifest(result.runDir)).models[0]?.apiKeyEnv,
      "TEST_KEY",
    );
  }));

Deno.test("runSweep() reports progress to a callback, ending at the total", () =>
  withTemp(async (dir) => {
    const { factory } = stubProviders((_m, p) =>
      Promise.resolve(ok(answer(p)))
    );
    const seen: number[] = [];
    const result = await runSweep(testConfig(dir), {
      suites: [addSuite(5)],
      createProvider: factory,
      progress: (p) => seen.push(p.done + p.skipped),
    });
    assert.equal(seen.at(-1), result.total);
  }));

Deno.test("runSweep() refuses a --run-dir that already holds a run", () =>
  withTemp(async (dir) => {
    const { factory } = stubProviders((_m, p) =>
      Promise.resolve(ok(answer(p)))
    );
    const config = testConfig(dir);
    const opts = {
      suites: [addSuite(2)],
      createProvider: factory,
      progress: "none" as const,
      runDir: `${dir}/run`,
    };
    await runSweep(config, opts);
    await assert.rejects(
      runSweep(config, opts),
      /Cannot start a sweep in .*already holds a run/,
    );
  }));

Deno.test("runSweep() records a suite that throws while judging as an error row and goes on", () =>
  withTemp(async (dir) => {
    const { factory } = stubProviders((_m, p) =>
      Promise.resolve(ok(answer(p)))
    );
    const suite = wrapRuns(addSuite(4), (run) => ({
      score: (judged, context) => {
        if (judged.question.id === "add-2") throw new Error("boom");
        return run.score(judged, context);
      },
    }));
    const result = await runSweep(testConfig(dir), {
      suites: [suite],
      createProvider: factory,
      progress: "none",
    });
    const rows = await readRows(result.runDir);
    assert.equal(rows.length, 8);
    const bad = rows.filter((r) => r.status === "error");
    assert.equal(bad.length, 2);
    assert.ok(
      bad.every((r) =>
        r.error_kind === "unknown" && String(r.error_message).includes("boom")
      ),
    );
  }));

Deno.test("runSweep() --resume keeps a complete last row without its newline and sets a torn one aside, every key once", () =>
  withTemp(async (dir) => {
    const config = testConfig(dir);
    const first = stubProviders((_m, p) => Promise.resolve(ok(answer(p))));
    const a = await runSweep(config, {
      suites: [addSuite(5)],
      createProvider: first.factory,
      progress: "none",
      cache: false,
    });
    assert.equal(a.total, 10);
    const resume = (createProvider: typeof first.factory) =>
      runSweep(config, {
        resume: a.runDir,
        suites: [addSuite(5)],
        createProvider,
        progress: "none",
        cache: false,
      });
    const path = `${a.runDir}/results.jsonl`;
    const text = await Deno.readTextFile(path);
    // The case of the issue: a stop between the last row and its newline.
    await Deno.writeTextFile(path, text.slice(0, -1));
    const again = stubProviders((_m, p) => Promise.resolve(ok(answer(p))));
    const b = await resume(again.factory);
    assert.equal(again.log.calls, 0, "the complete last row is not redone");
    assert.equal(b.skipped, 10);
    assert.equal(await Deno.readTextFile(path), text, "its newline is added");
    assert.equal((await readManifest(a.runDir)).counts.rows, 10);

    // A stop in the middle of the last row: set aside, its key redone.
    const lines = text.trimEnd().split("\n");
    const lastKey = JSON.parse(lines.at(-1)!).key;
    await Deno.writeTextFile(
      path,
      lines.slice(0, -1).join("\n") + "\n" + lines.at(-1)!.slice(0, 30),
    );
    const third = stubProviders((_m, p) => Promise.resolve(ok(answer(p))));
    const c = await resume(third.factory);
    assert.equal(third.log.calls, 1);
    assert.equal(c.done, 1);
    const rows = await readRows(a.runDir);
    assert.equal(rows.length, 10);
    assert.equal(new Set(rows.map((r) => r.key)).size, 10);
    assert.ok(rows.some((r) => r.key === lastKey));
    assert.equal((await readManifest(a.runDir)).counts.rows, 10);
    const aside = [...Deno.readDirSync(a.runDir)].filter((e) =>
      /^results\.bad-.*\.jsonl$/.test(e.name)
    );
    assert.equal(aside.length, 1, "the torn line is kept beside the run");
    assert.equal(
      await Deno.readTextFile(`${a.runDir}/${aside[0]!.name}`),
      lines.at(-1)!.slice(0, 30) + "\n",
    );
  }));

/** A sweep of 10 questions × 2 models with --limit 4, stopped after 3 calls. */
async function interruptedAtLimit4(dir: string) {
  const controller = new AbortController();
  let n = 0;
  const { factory } = stubProviders((_m, p, _s, signal) => {
    if (++n === 3) controller.abort();
    return delayed(1, ok(answer(p)), signal);
  });
  const config = testConfig(dir);
  const a = await runSweep(config, {
    suites: [addSuite(10)],
    createProvider: factory,
    progress: "none",
    limit: 4,
    signal: controller.signal,
  });
  return { config, factory, a };
}

Deno.test("runSweep() keeps --limit on resume", () =>
  withTemp(async (dir) => {
    const { config, factory, a } = await interruptedAtLimit4(dir);
    assert.equal(a.total, 8);
    assert.equal(a.interrupted, true);
    const b = await runSweep(config, {
      resume: a.runDir,
      suites: [addSuite(10)],
      createProvider: factory,
      progress: "none",
    });
    assert.equal(b.total, 8);
    assert.equal((await readRows(a.runDir)).length, 8);
  }));

Deno.test("runSweep() refuses a resume that would change the plan (--limit, config) and changes nothing", () =>
  withTemp(async (dir) => {
    const { config, factory, a } = await interruptedAtLimit4(dir);
    const files = async () => [
      await Deno.readTextFile(`${a.runDir}/results.jsonl`),
      await Deno.readTextFile(`${a.runDir}/manifest.json`),
    ];
    const before = await files();
    for (
      const [options, said] of [
        [{ limit: 5 }, /with --limit 5: the run was planned with --limit 4/],
        [{ config: { ...config, seed: config.seed + 1 } }, /differs in seed/],
        [{ config: { ...config, samples: 2 } }, /differs in samples/],
      ] as const
    ) {
      await assert.rejects(
        runSweep("config" in options ? options.config : config, {
          resume: a.runDir,
          suites: [addSuite(10)],
          createProvider: factory,
          progress: "none",
          ...("limit" in options ? { limit: options.limit } : {}),
        }),
        (e: Error) =>
          e.name === "SweepInputError" && said.test(e.message) &&
          e.message.includes("deno task sweep --resume"),
      );
      assert.deepEqual(await files(), before);
    }
    // Where the requests go may differ: the run's own plan goes on.
    const b = await runSweep({ ...config, concurrency: 1 }, {
      resume: a.runDir,
      suites: [addSuite(10)],
      createProvider: factory,
      progress: "none",
      limit: 4,
    });
    assert.equal(b.total, 8);
  }));

Deno.test("runSweep() records a provider that throws as an error row and goes on", () =>
  withTemp(async (dir) => {
    const { factory } = stubProviders((_m, p, sample) =>
      sample === 0
        ? Promise.reject(new Error("socket gone"))
        : Promise.resolve(ok(answer(p)))
    );
    const result = await runSweep(testConfig(dir, { samples: 2 }), {
      suites: [addSuite(3)],
      createProvider: factory,
      progress: "none",
    });
    const rows = await readRows(result.runDir);
    assert.equal(rows.length, 12);
    const bad = rows.filter((r) => r.status === "error");
    assert.equal(bad.length, 6);
    assert.ok(
      bad.every((r) =>
        r.error_kind === "unknown" &&
        String(r.error_message).includes("socket gone")
      ),
    );
  }));
