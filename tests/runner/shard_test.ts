import assert from "node:assert/strict";
import { fileURLToPath as fromFileUrl } from "node:url";
import { loadConfig, runSweep, SUITES } from "../../lib/mod.ts";
import {
  loadEntries,
  parseShard,
  shardOf,
  shardOfKey,
  SweepInputError,
} from "../../lib/runner/mod.ts";
import { readManifest } from "../../lib/store/mod.ts";
import {
  addSuite,
  answer,
  ok,
  readRows,
  stubProviders,
  testConfig,
} from "./_fixtures.ts";

const DEMO = fromFileUrl(
  new URL("../../data/configs/demo.json", import.meta.url),
);

async function withTemp(fn: (dir: string) => Promise<void>): Promise<void> {
  const dir = await Deno.makeTempDir({ prefix: "shard_test_" });
  try {
    await fn(dir);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
}

/** Largest |rows of a shard − fair share| / fair share over n shards. */
function maxDeviation(counts: number[]): number {
  const total = counts.reduce((a, b) => a + b, 0);
  const fair = total / counts.length;
  return Math.max(...counts.map((c) => Math.abs(c - fair) / fair));
}

Deno.test("parseShard() takes 1-based i/n and refuses anything else", () => {
  assert.deepEqual(parseShard("1/1"), { index: 1, count: 1 });
  assert.deepEqual(parseShard(" 3 / 8 "), { index: 3, count: 8 });
  for (const bad of ["0/4", "5/4", "1/0", "a/b", "1", "-1/2", "1.5/2", ""]) {
    assert.throws(
      () => parseShard(bad),
      (e: unknown) =>
        e instanceof RangeError && /Cannot use --shard/.test(e.message),
      bad,
    );
  }
});

Deno.test("shardOfKey() keeps the samples of one (model, question, template) together", () => {
  for (let s = 0; s < 10; s++) {
    assert.equal(
      shardOfKey(`m|arithmetic/add/d3/s7/${s}|cot|${s}`, 7),
      shardOf({
        model: "m",
        question: `arithmetic/add/d3/s7/${s}`,
        template: "cot",
      }, 7),
    );
  }
  const i = shardOfKey("m|q|t|0", 5);
  for (let sample = 1; sample < 20; sample++) {
    assert.equal(shardOfKey(`m|q|t|${sample}`, 5), i);
  }
  assert.throws(() => shardOfKey("no-bars", 2), TypeError);
});

Deno.test("shardOf() splits the demo plan within a few percent", async () => {
  const { config, baseDir } = await loadConfig(DEMO);
  const loaded = await loadEntries(config, { suites: SUITES, baseDir });
  await loaded.close();
  const { entries } = loaded;
  const measured: string[] = [];
  for (const n of [2, 3, 4]) {
    const counts = new Array<number>(n).fill(0);
    for (const model of config.models) {
      for (const entry of entries) {
        for (const question of entry.questions) {
          for (const [template] of entry.templates) {
            const i = shardOf({
              model: model.name,
              question: question.id,
              template,
            }, n);
            counts[i - 1]! += config.samples;
          }
        }
      }
    }
    const deviation = maxDeviation(counts);
    measured.push(
      `${n} shards of ${counts.reduce((a, b) => a + b)} rows: ${
        counts.join("/")
      }, max deviation ${(deviation * 100).toFixed(1)}%`,
    );
    assert.ok(deviation < 0.05, measured.at(-1));
  }
  console.log(measured.join("\n"));
});

Deno.test("shardOf() spreads a 100k-row plan within 2% over 8 shards", () => {
  const counts = new Array<number>(8).fill(0);
  for (const model of ["gpt-4o", "qwen2.5-7b", "deepseek-v3", "sim-weak"]) {
    for (let q = 0; q < 5000; q++) {
      for (const template of ["direct", "cot"]) {
        counts[
          shardOf({
            model,
            question: `arithmetic/mul/d${q % 9}/s1/${q}`,
            template,
          }, 8) - 1
        ]! += 2.5;
      }
    }
  }
  const deviation = maxDeviation(counts);
  console.log(
    `8 shards of 100000 rows: max deviation ${(deviation * 100).toFixed(2)}%`,
  );
  assert.ok(deviation < 0.02, counts.join("/"));
});

Deno.test("runSweep() with shards writes disjoint parts whose union is the whole sweep", () =>
  withTemp(async (dir) => {
    const { factory } = stubProviders((_m, p) =>
      Promise.resolve(ok(answer(p)))
    );
    const config = testConfig(dir, {
      samples: 3,
      suites: [{ name: "add", templates: ["direct", "cot"] }],
    });
    const suites = [addSuite(40)];
    const whole = await runSweep(config, {
      suites,
      createProvider: factory,
      progress: "none",
      runDir: `${dir}/whole`,
    });
    const wholeKeys = (await readRows(whole.runDir)).map((r) => r.key).sort();
    const seen: unknown[] = [];
    let totals = 0;
    for (let index = 1; index <= 3; index++) {
      const part = await runSweep(config, {
        suites,
        createProvider: factory,
        progress: "none",
        runDir: `${dir}/shard${index}`,
        shard: { index, count: 3 },
      });
      const rows = await readRows(part.runDir);
      assert.equal(part.total, rows.length);
      assert.equal(part.done, rows.length);
      assert.ok(part.total > 0 && part.total < whole.total);
      assert.ok(
        rows.every((r) => shardOfKey(r.key as string, 3) === index),
      );
      const manifest = await readManifest(part.runDir);
      assert.deepEqual(manifest.shard, { index, count: 3 });
      assert.equal(manifest.total, part.total);
      totals += part.total;
      seen.push(...rows.map((r) => r.key));
    }
    assert.equal(totals, whole.total);
    assert.deepEqual(seen.sort(), wholeKeys);
  }));

Deno.test("runSweep() resume keeps the run's shard and refuses another", () =>
  withTemp(async (dir) => {
    const { factory, log } = stubProviders((_m, p) =>
      Promise.resolve(ok(answer(p)))
    );
    const config = testConfig(dir, { samples: 2 });
    const suites = [addSuite(30)];
    const controller = new AbortController();
    let calls = 0;
    const first = await runSweep(config, {
      suites,
      progress: "none",
      shard: { index: 2, count: 2 },
      signal: controller.signal,
      createProvider: (m, s, o) => {
        const inner = factory(m, s, o);
        return {
          name: inner.name,
          complete: (prompt, options) => {
            if (++calls === 10) controller.abort();
            return inner.complete(prompt, options);
          },
        };
      },
    });
    assert.equal(first.interrupted, true);
    const resumed = await runSweep(config, {
      suites,
      progress: "none",
      resume: first.runDir,
      createProvider: factory,
    });
    assert.equal(resumed.total, first.total);
    assert.equal(resumed.done + resumed.skipped, first.total);
    const rows = await readRows(first.runDir);
    assert.equal(rows.length, first.total);
    assert.ok(rows.every((r) => shardOfKey(r.key as string, 2) === 2));
    assert.ok(log.calls >= first.total);
    await assert.rejects(
      runSweep(config, {
        suites,
        progress: "none",
        resume: first.runDir,
        shard: { index: 1, count: 2 },
        createProvider: factory,
      }),
      (e: unknown) =>
        e instanceof SweepInputError && /holds shard 2\/2/.test(e.message),
    );
  }));

Deno.test("deno task sweep --shard refuses a bad i/n with exit 2", async () => {
  const cli = fromFileUrl(new URL("../../lib/cli/sweep.ts", import.meta.url));
  for (const bad of ["4/3"]) {
    const out = await new Deno.Command(Deno.execPath(), {
      args: ["run", "-A", cli, DEMO, "--shard", bad],
      stdout: "piped",
      stderr: "piped",
    }).output();
    const err = new TextDecoder().decode(out.stderr);
    assert.equal(out.code, 2, err);
    assert.match(err, /Cannot use --shard/);
  }
});
