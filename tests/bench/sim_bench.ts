/**
 * Benchmark: cost of one simChat call on short arithmetic prompts, against
 * the 50 µs budget, and as a ratio to JSON-serialising its own reply (what
 * the HTTP server does next), both measured in this run. The fastest of 5
 * rounds is kept, so load from other processes skews it less.
 *
 *     deno run -A tests/bench/sim_bench.ts [calls]
 *
 * `deno task bench` calls {@linkcode benchSimChat}.
 *
 * @module
 */
import type { SimRequest } from "../../lib/providers/sim/mod.ts";
import { simChat } from "../_score.ts";
import type { BenchRow } from "./sweep_bench.ts";

const ROUNDS = 5;
const BUDGET_US = 50;
const PROMPTS = [
  "What is 4821 + 9377?",
  "Calculate 123456 times 789012. Reply without commas.",
  "Compute (12 + 7) × 3 − 4.",
  "计算 123 × 456 等于多少？只输出数字。",
];

function fastest(calls: number, run: (i: number) => unknown): number {
  const per = Math.ceil(calls / ROUNDS);
  let best = Infinity;
  for (let round = 0; round < ROUNDS; round++) {
    const t0 = performance.now();
    for (let i = 0; i < per; i++) run(round * per + i);
    best = Math.min(best, (performance.now() - t0) * 1000 / per);
  }
  return best;
}

/**
 * Measures simChat's cost per call (µs) over `calls` calls.
 *
 * @param calls Calls in total, split over 5 rounds.
 * @returns Rows for the bench table: µs/call against the 50 µs budget, and
 * the ratio to JSON.stringify of the reply.
 */
export function benchSimChat(calls = 100_000): Promise<BenchRow[]> {
  const requests: SimRequest[] = PROMPTS.map((content) => ({
    model: "sim-average",
    messages: [{ role: "user", content }],
    temperature: 0,
  }));
  const replies = requests.map((r) => simChat(r).response);
  const call = (i: number) => simChat({ ...requests[i % 4]!, seed: i });
  fastest(Math.min(calls, 10_000), call); // warm-up
  const sim = fastest(calls, call);
  const json = fastest(calls, (i) => JSON.stringify(replies[i % 4]));
  return Promise.resolve([
    {
      name: "simChat µs/call (short arithmetic)",
      value: sim,
      unit: "µs",
      ratio: sim / BUDGET_US,
      target: "<= 1 of the 50 µs budget",
      pass: sim <= BUDGET_US,
    },
    {
      name: "simChat vs JSON.stringify(reply)",
      value: sim / json,
      unit: "×",
    },
  ]);
}

if (import.meta.main) {
  const rows = await benchSimChat(Number(Deno.args[0] ?? 100_000));
  for (const r of rows) {
    console.log(
      `${r.name}: ${r.value.toFixed(2)} ${r.unit}${
        r.ratio === undefined ? "" : `; ratio ${r.ratio.toFixed(3)}`
      }${r.target ? ` (target ${r.target})` : ""}`,
    );
  }
}
