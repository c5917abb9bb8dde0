/**
 * Per-run state (issue 44): two code sweeps in one process, at once, with
 * different params and different banks that share a problem id, each
 * judge against their own problem, on their own sandbox, and the one that
 * ends first closes only its own. Before runs existed, the scorer looked
 * problems up in one process-wide map (the later load won) and the first
 * sweep to end closed every sweep's sandbox.
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import { cp } from "node:fs/promises";
import { parseConfig, runSweep } from "../../../lib/mod.ts";
import type { ResultRow } from "../../../lib/types.ts";

const BANK = new URL("../../../data/code/problems/", import.meta.url).pathname;
const PROBLEM = "balanced_brackets";

/**
 * A bank of one problem with its first `tests` functional tests and first
 * three edge tests (the least a bank problem may have is 5 and 3).
 */
async function bankWith(dir: string, tests: number): Promise<string> {
  const folder = join(dir, `bank${tests}`);
  await cp(join(BANK, PROBLEM), join(folder, PROBLEM), { recursive: true });
  const file = join(folder, PROBLEM, "problem.json");
  const problem = JSON.parse(await Deno.readTextFile(file));
  const of = (kind: string) =>
    problem.tests.filter((t: { kind: string }) => t.kind === kind);
  problem.tests = [
    ...of("functional").slice(0, tests),
    ...of("edge").slice(0, 3),
  ];
  await Deno.writeTextFile(file, JSON.stringify(problem));
  return folder;
}

function sweepOf(dir: string, name: string, params: Record<string, unknown>) {
  return parseConfig({
    name,
    outputDir: dir,
    cache: false,
    samples: name === "a" ? 4 : 1,
    models: [{ name: "sim-strong", provider: "sim" }],
    suites: [{
      name: "code",
      params: {
        problems: [PROBLEM],
        languages: ["javascript"],
        quality: false,
        complexity: false,
        ...params,
      },
    }],
  }, name);
}

async function rows(runDir: string): Promise<ResultRow[]> {
  return (await Deno.readTextFile(join(runDir, "results.jsonl"))).trim()
    .split("\n").map((l) => JSON.parse(l));
}

Deno.test("two code sweeps in one process share no state: each judges its own bank's problem on its own sandbox", async () => {
  const dir = await Deno.makeTempDir();
  try {
    const [a, b] = await Promise.all([
      runSweep(
        sweepOf(dir, "a", {
          dataset: await bankWith(dir, 8),
          timeoutMs: 9000,
          concurrency: 1,
        }),
        { progress: "none" },
      ),
      runSweep(
        sweepOf(dir, "b", {
          dataset: await bankWith(dir, 5),
          timeoutMs: 8000,
          concurrency: 2,
        }),
        { progress: "none" },
      ),
    ]);
    const [ra, rb] = [await rows(a.runDir), await rows(b.runDir)];
    assert.deepEqual([ra.length, rb.length], [4, 1]);
    for (const [runRows, tests] of [[ra, 11], [rb, 8]] as const) {
      for (const row of runRows) {
        // Never an error (a closed sandbox, a problem judged by the other
        // bank's tests): every row is judged on its own bank's tests.
        assert.notEqual(row.status, "error", row.explanation ?? "");
        const key = JSON.parse(String(row.expected)) as unknown[];
        assert.equal(key.length, tests);
        if (row.status === "correct") {
          assert.match(
            row.explanation ?? "",
            new RegExp(`all ${tests} tests pass`),
          );
        }
      }
    }
    assert.ok(
      [...ra, ...rb].some((r) => r.status === "correct"),
      "sim-strong passes an easy problem",
    );
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});
