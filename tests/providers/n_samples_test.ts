/**
 * Samples through the API's `n`: a model with `n: true` asks for the k
 * samples of a (question, template) in one request; the rows are the rows
 * of k separate calls, over HTTP with the real `openai` client and in
 * process; an endpoint that ignores `n` still gets every row; the cache
 * entries are per sample.
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import { parseConfig, runSweep, startSimServer } from "../../lib/mod.ts";
import { SIM_SKILLS } from "../../lib/suites/mod.ts";
import { requestSeed } from "../../lib/runner/mod.ts";
import { choiceSeed, simChoices } from "../../lib/providers/sim/mod.ts";
import { createSimBackend, toCompletions } from "../../lib/providers/mod.ts";

interface Row {
  key: string;
  status: string;
  extracted: string | null;
  response: string;
  error_kind: string | null;
  prompt_tokens: number;
}

async function rows(dir: string): Promise<Row[]> {
  return (await Deno.readTextFile(join(dir, "results.jsonl"))).split("\n")
    .filter((l) => l !== "").map((l) => JSON.parse(l) as Row);
}

const essence = (r: Row) =>
  JSON.stringify([r.key, r.status, r.extracted, r.response]);

function config(
  outputDir: string,
  model: Record<string, unknown>,
  extra: Record<string, unknown> = {},
) {
  return parseConfig({
    name: "n",
    outputDir,
    cache: false,
    seed: 5,
    samples: 4,
    temperature: 0.8,
    models: [{ name: "m", ...model }],
    suites: [{
      name: "arithmetic",
      params: { families: ["add", "mul"], digits: [4, 7], count: 3 },
      templates: ["direct", "cot", "calculator"],
    }],
    ...extra,
  }, "inline");
}

/** (question, template) pairs of the config above, and those without tools. */
const PAIRS = 2 * 2 * 3 * 3;
const TOOL_PAIRS = 2 * 2 * 3;

Deno.test("choiceSeed() is the runner's requestSeed(), so choice i is sample i", () => {
  for (const seed of [0, 1, 5, 2026, 2 ** 31 + 7, 9_007_199_254_740_991]) {
    for (let i = 0; i < 200; i++) {
      assert.equal(choiceSeed(seed, i), requestSeed(seed, i));
    }
  }
});

Deno.test("simChoices() answers choice i as a single request with the sample's seed", () => {
  const backend = createSimBackend(SIM_SKILLS);
  const request = {
    model: "sim-weak",
    messages: [{
      role: "user" as const,
      content: "What is 48213 * 9071? Answer with the number only.",
    }],
    temperature: 1,
    seed: 9,
  };
  const many = backend.simChat({ ...request, n: 5 }).response as {
    choices: { index: number; message: unknown }[];
    usage: { prompt_tokens: number };
  };
  assert.equal(many.choices.length, 5);
  for (let i = 0; i < 5; i++) {
    const one = simChoices({ ...request, seed: requestSeed(9, i) }, SIM_SKILLS)
      .response as typeof many;
    assert.equal(many.choices[i]!.index, i);
    assert.deepEqual(many.choices[i]!.message, one.choices[0]!.message);
    assert.equal(many.usage.prompt_tokens, one.usage.prompt_tokens);
  }
  assert.throws(() => backend.simChat({ ...request, n: 0 }), TypeError);
});

Deno.test("toCompletions() splits usage so the parts add up to the call's", () => {
  const parts = toCompletions({
    choices: [
      { index: 0, finish_reason: "stop", message: { content: "1234567" } },
      { index: 1, finish_reason: "stop", message: { content: "1" } },
      { index: 2, finish_reason: "stop", message: { content: "12" } },
    ],
    usage: { prompt_tokens: 100, completion_tokens: 10 },
  }, { latencyMs: 1, attempts: 1 });
  assert.deepEqual(parts.map((p) => p.usage.promptTokens), [34, 33, 33]);
  assert.equal(
    parts.reduce((n, p) => n + p.usage.completionTokens, 0),
    10,
  );
  assert.ok(
    parts[0]!.usage.completionTokens > parts[1]!.usage.completionTokens,
  );
  const broken = toCompletions({ nope: 1 }, { latencyMs: 1, attempts: 1 });
  assert.equal(broken.length, 1);
  assert.equal(broken[0]!.error?.kind, "bad_response");
});

Deno.test("a sweep with n: true gives the rows of separate calls in fewer requests", async (t) => {
  const out = await Deno.makeTempDir({ prefix: "n_samples_" });
  const server = await startSimServer();
  try {
    const http = {
      provider: "openai",
      model: "sim-average",
      baseURL: server.baseURL,
    };
    let before = server.stats().requests;
    const plain = await runSweep(config(out, http), {
      progress: "none",
      runDir: join(out, "plain"),
    });
    const plainRequests = server.stats().requests - before;
    const want = (await rows(plain.runDir)).map(essence).sort();
    assert.equal(want.length, PAIRS * 4);

    await t.step("over HTTP with the openai client", async () => {
      before = server.stats().requests;
      const grouped = await runSweep(config(out, { ...http, n: true }), {
        progress: "none",
        runDir: join(out, "grouped"),
      });
      const requests = server.stats().requests - before;
      const got = await rows(grouped.runDir);
      assert.deepEqual(got.map(essence).sort(), want);
      assert.ok(got.every((r) => r.error_kind === null));
      // One request per (question, template) without tools; the calculator
      // template's tool loop still asks per sample.
      const toolRequests = plainRequests - (PAIRS - TOOL_PAIRS) * 4;
      assert.equal(requests, PAIRS - TOOL_PAIRS + toolRequests);
      console.log(
        `samples=4: ${plainRequests} requests without n, ${requests} with n`,
      );
    });

    await t.step("in process", async () => {
      const sim = { provider: "sim", model: "sim-average" };
      const a = await runSweep(config(out, sim), {
        progress: "none",
        runDir: join(out, "sim-plain"),
      });
      const b = await runSweep(config(out, { ...sim, n: true }), {
        progress: "none",
        runDir: join(out, "sim-grouped"),
      });
      const keysOnly = (rs: Row[]) => rs.map(essence).sort();
      assert.deepEqual(
        keysOnly(await rows(b.runDir)),
        keysOnly(await rows(a.runDir)),
      );
      // Same rows as over HTTP too (model name and profile are the same).
      assert.deepEqual(keysOnly(await rows(a.runDir)), want);
    });

    await t.step("the cache holds per-sample answers either way", async () => {
      const cacheDir = join(out, "cache");
      const grouped = await runSweep(
        config(out, { ...http, n: true }, { cache: true }),
        { progress: "none", runDir: join(out, "c1"), cacheDir },
      );
      assert.equal(grouped.cached, 0);
      before = server.stats().requests;
      const again = await runSweep(config(out, http, { cache: true }), {
        progress: "none",
        runDir: join(out, "c2"),
        cacheDir,
      });
      assert.equal(server.stats().requests - before, 0);
      assert.equal(again.cached, again.total);
      assert.deepEqual((await rows(again.runDir)).map(essence).sort(), want);
    });
  } finally {
    await server.close();
    await Deno.remove(out, { recursive: true });
  }
});

Deno.test("an endpoint that ignores n still yields every row", async () => {
  const out = await Deno.makeTempDir({ prefix: "n_ignored_" });
  const backend = createSimBackend(SIM_SKILLS);
  let requests = 0;
  let withN = 0;
  const server = Deno.serve(
    { hostname: "127.0.0.1", port: 0, onListen: () => {} },
    async (request) => {
      const path = new URL(request.url).pathname;
      if (path.endsWith("/models")) {
        return Response.json({ object: "list", data: backend.simModelList() });
      }
      requests++;
      const { n, ...body } = await request.json();
      if (n !== undefined) withN++;
      return Response.json(backend.simChat(body).response); // one choice
    },
  );
  try {
    const baseURL = `http://127.0.0.1:${server.addr.port}/v1`;
    const result = await runSweep(
      config(
        out,
        { provider: "openai", model: "sim-strong", baseURL, n: true },
        {
          suites: [{
            name: "arithmetic",
            params: { families: ["add"], digits: [3], count: 5 },
            templates: ["direct"],
          }],
        },
      ),
      { progress: "none", runDir: join(out, "run") },
    );
    const got = await rows(result.runDir);
    assert.equal(got.length, 5 * 4);
    assert.equal(new Set(got.map((r) => r.key)).size, 5 * 4);
    assert.ok(
      got.every((r) => r.error_kind === null && r.status === "correct"),
    );
    assert.equal(withN, 5); // one n request per question...
    assert.equal(requests, 5 + 5 * 3); // ...then the 3 missing samples each
  } finally {
    await server.shutdown();
    await Deno.remove(out, { recursive: true });
  }
});
