/**
 * Repetitions that look for rare races, moved out of the tests (each test
 * does the same thing once and still fails on the bug it guards):
 *
 * - the overview notebook executed 10 times, each with every output;
 * - `deno task sweep` stopped by Ctrl-C to its process group 10 times,
 *   each a clean stop.
 *
 * Run alone: `deno run -A tests/bench/repeat_bench.ts`.
 *
 * @module
 */
import { executeOverview } from "../notebooks/_overview_runs.ts";
import { ctrlCGroupRuns } from "../e2e/_ctrl_c.ts";
import type { BenchRow } from "./sweep_bench.ts";

const quick = Deno.args.includes("--quick");
const RUNS = quick ? 3 : 10;

/** The overview notebook executed `RUNS` times: how many had every output. */
export async function benchRepeatedNotebook(): Promise<BenchRow[]> {
  const { failures, late } = await executeOverview(RUNS);
  for (const f of failures) console.error(`[bench] notebook ${f}`);
  return [{
    name:
      `00-overview executed ${RUNS} times: executions with every output (${late} late outputs caught by the grace period)`,
    value: RUNS - failures.length,
    unit: `of ${RUNS}`,
    target: `${RUNS} of ${RUNS}`,
    pass: failures.length === 0,
  }];
}

/** Ctrl-C to the sweep's process group `RUNS` times: how many clean stops. */
export async function benchRepeatedCtrlC(): Promise<BenchRow[]> {
  const outcomes = await ctrlCGroupRuns(RUNS);
  const clean = outcomes.filter((o) => o === "clean").length;
  for (const o of outcomes) if (o !== "clean") console.error(`[bench] ${o}`);
  return [{
    name:
      `Ctrl-C to deno task sweep's process group ${RUNS} times: clean stops`,
    value: clean,
    unit: `of ${RUNS}`,
    target: `${RUNS} of ${RUNS}`,
    pass: clean === RUNS,
  }];
}

if (import.meta.main) {
  for (const f of [benchRepeatedNotebook, benchRepeatedCtrlC]) {
    for (const row of await f()) console.log(JSON.stringify(row));
  }
}
