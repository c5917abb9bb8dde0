/**
 * Adaptive sweeps against the full grid (issue 45, item 3): 50 seeded
 * adaptive sweeps of the sim's multiplication per profile (1–12 digits,
 * at most 40 questions per size, width 1; `tests/adaptive/_sweeps.ts`),
 * how often the 95% interval holds the true crossing and the mean
 * requests per design; against the requests the full grid needs for the
 * same width under the same posterior: k questions at each of the 12
 * sizes, the smallest k (in steps of 5) for which at least half of 100
 * seeded grids drawn from the true curve reach it (`gridRequests`).
 * Target: coverage at least 0.9, at most 25% of the grid's requests.
 *
 * Run alone: `deno run -A tests/bench/adaptive_bench.ts`.
 *
 * @module
 */
import { gridRequests } from "../../lib/adaptive/grid.ts";
import { simCurve, SIZES } from "../adaptive/_curves.ts";
import { PROFILES, sweptDesigns } from "../adaptive/_sweeps.ts";
import type { BenchRow } from "./sweep_bench.ts";

const LADDER = Array.from({ length: 40 }, (_, i) => 5 * (i + 1));

/** Coverage and requests of adaptive sweeps against the grid, per profile. */
export async function benchAdaptiveCrossing(): Promise<BenchRow[]> {
  const designs = await sweptDesigns(50);
  const rows: BenchRow[] = [];
  for (const name of PROFILES) {
    const own = designs.filter((d) => d.model === name);
    const covered = own.filter((d) => d.covered).length;
    const mean = own.reduce((n, d) => n + d.rows, 0) / own.length;
    const byWidth = own.filter((d) => d.stopped === "width").length;
    const grid = gridRequests({
      curve: simCurve(name),
      sizes: SIZES,
      width: 1,
      ladder: LADDER,
      runs: 100,
    }) ?? NaN;
    console.log(
      `adaptive sweeps, ${name}: true crossing ${
        own[0]!.truth.toFixed(2)
      } digits; held in ${covered}/50 runs; ${
        mean.toFixed(1)
      } requests per design on average (${byWidth} of 50 stopped at the width, the rest when no question left could narrow it); the full grid needs ${grid} for the same width (ratio ${
        (mean / grid).toFixed(2)
      })`,
    );
    rows.push({
      name: `adaptive sweep coverage, ${name}`,
      value: covered / 50,
      unit: "share",
      target: ">= 0.9",
      pass: covered / 50 >= 0.9,
    }, {
      name: `adaptive sweep requests, ${name}`,
      value: mean,
      unit: "requests",
      ratio: mean / grid,
      target: "<= 0.25 of the grid",
      pass: mean / grid <= 0.25,
    });
  }
  return rows;
}

if (import.meta.main) console.table(await benchAdaptiveCrossing());
