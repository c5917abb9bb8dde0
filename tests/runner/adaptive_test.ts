/**
 * Adaptive sweeps end to end on the in-process sim with the real
 * arithmetic suite: the designs stop at the width or at their questions,
 * the rows are ordinary rows of the grid's questions, the manifest holds
 * each design's state, an interrupted sweep resumed ends with the same
 * rows as one never interrupted, and what cannot be adaptive is refused.
 */
import assert from "node:assert/strict";
import { runSweep, startSimServer } from "../../lib/mod.ts";
import { loadSuites } from "../../lib/suites/registry.ts";
import { arithmeticSuite } from "../../lib/suites/arithmetic/suite.ts";
import { loadProviderFactory } from "../../lib/providers/load.ts";
import { readManifest } from "../../lib/store/mod.ts";
import {
  type SweepConfig,
  SweepConfigSchema,
} from "../../lib/config/schema.ts";
import { parseConfig } from "../../lib/config/load.ts";
import { plannedRows } from "../../lib/report/completeness.ts";
import type { ProviderFactory } from "../../lib/runner/mod.ts";
import { readRows } from "./_fixtures.ts";
import { exportRequests } from "../../lib/batch/mod.ts";
import {
  adaptiveDesigns,
  loadRuns,
  reportSections,
} from "../../lib/report/mod.ts";

const suites = await loadSuites();
const simFactory = await loadProviderFactory(["sim"]);

async function withTemp(fn: (dir: string) => Promise<void>): Promise<void> {
  const dir = await Deno.makeTempDir({ prefix: "adaptive_test_" });
  try {
    await fn(dir);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
}

const PARAMS = {
  families: ["mul", "add"],
  digits: [1, 2, 3, 4, 5, 6, 7, 8, 9, 10],
  count: 50,
};

function config(dir: string, over: Record<string, unknown> = {}): SweepConfig {
  return SweepConfigSchema.parse({
    name: "adaptive",
    seed: 7,
    models: [
      { name: "sim-average", provider: "sim" },
      { name: "sim-weak", provider: "sim" },
    ],
    suites: [{
      name: "arithmetic",
      params: PARAMS,
      adaptive: { dim: "digits", width: 1 },
    }],
    outputDir: dir,
    cache: false,
    ...over,
  });
}

/** The sim, calling `onCall` before each request. */
function counting(onCall: () => void): ProviderFactory {
  return (model, sweep, options) => {
    const made = simFactory(model, sweep, options);
    return {
      ...made,
      name: made.name,
      complete: (prompt, signal) => {
        onCall();
        return made.complete(prompt, signal);
      },
    };
  };
}

Deno.test("an adaptive sweep stops each design at its width or its questions, asks only the grid's questions, and records each design in the manifest", () =>
  withTemp(async (dir) => {
    const result = await runSweep(config(dir), {
      suites,
      progress: "none",
    });
    const manifest = await readManifest(result.runDir);
    const rows = await readRows(result.runDir);
    const states = manifest.adaptive ?? [];
    // 2 models × 2 families × 1 template.
    assert.equal(states.length, 4);
    const grid = new Set(
      (await arithmeticSuite.questions({
        seed: 7,
        params: PARAMS,
        baseDir: ".",
      })).map((q) => q.id),
    );
    assert.ok(rows.every((r) => grid.has(r.question_id as string)));
    for (const s of states) {
      assert.notEqual(s.stopped, null, JSON.stringify(s));
      if (s.stopped === "width") assert.ok(s.high - s.low <= 1 + 1e-9);
      const own = rows.filter((r) =>
        r.model === s.model && (r.dims as { family: string }).family === s.group
      );
      assert.equal(own.length, s.rows);
      assert.equal(s.questions, 500);
      assert.ok(s.rows < 500, `${s.model} ${s.group} asked all ${s.rows}`);
      assert.equal(
        Object.values(s.asked).reduce((a, b) => a + b, 0),
        s.rows,
      );
      assert.ok(Object.values(s.asked).every((n) => n <= 50));
    }
    // sim-weak breaks on multiplication before sim-average does.
    const mul = (m: string) =>
      states.find((s) => s.model === m && s.group === "mul")!;
    assert.ok(
      mul("sim-weak").high < mul("sim-average").low,
      JSON.stringify(states, null, 1),
    );
    // The report rebuilds each design from the manifest: the same interval.
    const lines = adaptiveDesigns(
      await loadRuns([result.runDir], { warn: false }),
    );
    assert.equal(lines.length, 4);
    for (const s of states) {
      const line = lines.find((l) =>
        l.model === s.model && l.group === s.group
      )!;
      if (s.beyond === null) {
        assert.equal(
          line.breaks_at,
          `${s.mean.toFixed(1)} [${s.low.toFixed(1)}, ${s.high.toFixed(1)}]`,
        );
      } else assert.match(line.breaks_at, new RegExp(`^${s.beyond} all sizes`));
      assert.equal(line.rows, s.rows);
      assert.ok(line.grid === null || line.grid > 0);
    }
    // The leaderboard says accuracy on adaptively chosen rows ranks nothing.
    const loaded = await loadRuns([result.runDir], { warn: false });
    const [board] = await reportSections(loaded, { suites });
    assert.match(
      board!.parts.join(""),
      /rows of arithmetic were chosen per model where it breaks/,
    );
    // The plan shrinks to the rows asked, and the run is complete.
    assert.equal(manifest.total, rows.length);
    assert.equal(result.total, rows.length);
    const plan = plannedRows(
      manifest,
      new Map([["arithmetic", new Set(["direct"])]]),
    );
    assert.equal(plan.total, rows.length);
    assert.equal(
      plan.cells.reduce((n, c) => n + c.rows, 0),
      rows.length,
    );
  }));

Deno.test("an interrupted adaptive sweep, resumed, ends with the rows of one never interrupted", () =>
  withTemp(async (dir) => {
    const whole = await runSweep(config(`${dir}/a`), {
      suites,
      progress: "none",
    });
    const controller = new AbortController();
    let calls = 0;
    const first = await runSweep(config(`${dir}/b`), {
      suites,
      progress: "none",
      signal: controller.signal,
      createProvider: counting(() => {
        if (++calls === 120) controller.abort();
      }),
    });
    assert.equal(first.interrupted, true);
    const partial = await readManifest(first.runDir);
    assert.ok(
      (partial.adaptive ?? []).some((s) => s.stopped === null),
      "a design was cut short",
    );
    const resumed = await runSweep(config(`${dir}/b`), {
      suites,
      progress: "none",
      resume: first.runDir,
    });
    assert.equal(resumed.skipped, first.done);
    const key = (r: Record<string, unknown>) => `${r.key} ${r.status}`;
    const a = (await readRows(whole.runDir)).map(key).sort();
    const b = (await readRows(first.runDir)).map(key).sort();
    assert.deepEqual(b, a);
    const strip = (m: Awaited<ReturnType<typeof readManifest>>) =>
      JSON.stringify(m.adaptive);
    assert.equal(
      strip(await readManifest(first.runDir)),
      strip(await readManifest(whole.runDir)),
    );
  }));

Deno.test("an adaptive design whose questions run out stops there, within count per size", () =>
  withTemp(async (dir) => {
    const result = await runSweep(
      config(dir, {
        models: [{ name: "sim-weak", provider: "sim" }],
        suites: [{
          name: "arithmetic",
          params: { families: ["add"], digits: [1, 2, 3, 4, 5, 6], count: 2 },
          adaptive: { dim: "digits", width: 0.2 },
        }],
      }),
      { suites, progress: "none" },
    );
    const [state] = (await readManifest(result.runDir)).adaptive!;
    assert.equal(state!.stopped, "questions");
    assert.equal(state!.rows, 12);
    assert.deepEqual(Object.values(state!.asked), [2, 2, 2, 2, 2, 2]);
  }));

Deno.test("what cannot be adaptive is refused with the field and what to do", async () => {
  const check = (over: Record<string, unknown>) => {
    try {
      parseConfig(
        {
          models: [{ name: "sim-weak", provider: "sim" }],
          suites: [{ name: "arithmetic", adaptive: { dim: "digits" } }],
          ...over,
        },
        "c.json",
        { suites },
      );
      return "";
    } catch (error) {
      return (error as Error).message;
    }
  };
  assert.match(
    check({ suites: [{ name: "ceval", adaptive: { dim: "digits" } }] }),
    /suites\[0\]\.adaptive\.dim: suite "ceval" cannot adapt along "digits"; it has no ordered size/,
  );
  assert.match(
    check({ suites: [{ name: "linalg", adaptive: { dim: "digits" } }] }),
    /cannot adapt along "digits"; it can along: size/,
  );
  assert.match(
    check({ samples: 3 }),
    /suites\[0\]\.adaptive: .*set "samples": 1/,
  );
  assert.equal(check({}), "");
  await withTemp(async (dir) => {
    await assert.rejects(
      runSweep(config(dir), {
        suites,
        progress: "none",
        shard: { index: 1, count: 2 },
      }),
      /Cannot run an adaptive entry as shard 1\/2: .*run the sweep whole/,
    );
    await assert.rejects(
      runSweep(
        config(dir, {
          suites: [{
            name: "arithmetic",
            params: { families: ["mul"], mulDigits: [[3, 4], [2, 5]] },
            adaptive: { dim: "digits" },
          }],
        }),
        { suites, progress: "none" },
      ),
      /Cannot run suite "arithmetic" \(suites\[0\]\) adaptively along "digits": none of its 40 questions has a size along it/,
    );
    await assert.rejects(
      exportRequests(config(dir), `${dir}/requests.jsonl`, { suites }),
      /Cannot batch suites\[0\] \(suite "arithmetic"\): it is adaptive, .*run it online with deno task sweep/,
    );
    assert.equal([...Deno.readDirSync(dir)].length, 0, "nothing written");
  });
});

Deno.test("an adaptive sweep over real HTTP (the openai client against the sim server) makes the same designs as the in-process sim", () =>
  withTemp(async (dir) => {
    const server = await startSimServer({});
    try {
      const over = {
        models: [{
          name: "sim-average",
          provider: "openai",
          model: "sim-average",
          baseURL: server.baseURL,
        }],
      };
      const http = await runSweep(config(`${dir}/http`, over), {
        suites,
        progress: "none",
      });
      const local = await runSweep(
        config(`${dir}/local`, {
          models: [{ name: "sim-average", provider: "sim" }],
        }),
        { suites, progress: "none" },
      );
      const states = async (runDir: string) =>
        JSON.stringify((await readManifest(runDir)).adaptive);
      assert.equal(await states(http.runDir), await states(local.runDir));
      assert.ok(http.done > 0 && http.errors === 0);
    } finally {
      await server.close();
    }
  }));

Deno.test("linear algebra adapts along matrix size, one design per task", () =>
  withTemp(async (dir) => {
    const result = await runSweep(
      config(dir, {
        models: [{ name: "sim-average", provider: "sim" }],
        suites: [{
          name: "linalg",
          params: {
            source: "generated",
            tasks: ["determinant", "trace"],
            sizes: [2, 3, 4, 5, 6, 7],
            formats: ["list"],
            count: 30,
          },
          adaptive: { dim: "size", width: 1.5 },
        }],
      }),
      { suites, progress: "none" },
    );
    const states = (await readManifest(result.runDir)).adaptive ?? [];
    assert.deepEqual(states.map((s) => s.group).sort(), [
      "determinant",
      "trace",
    ]);
    for (const s of states) {
      assert.notEqual(s.stopped, null);
      assert.deepEqual(s.sizes, [2, 3, 4, 5, 6, 7]);
      assert.ok(s.rows < 180, `${s.group} asked all ${s.rows}`);
    }
    // Trace is read off the diagonal, the determinant computed: the
    // determinant breaks first.
    const at = (task: string) => states.find((s) => s.group === task)!;
    assert.ok(at("determinant").high < at("trace").low, JSON.stringify(states));
  }));
