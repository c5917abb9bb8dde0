/**
 * The adaptive crossing design against the full grid, on the sim's
 * calibrated multiplication curve per profile (`passChance` at
 * temperature 0) with sizes 1–12 digits: over 50 seeded runs, how often
 * the 95% interval covers the true crossing (log-odds interpolation
 * between whole digit counts) and the mean requests it took to reach a
 * width of 1; against the requests the full grid needs (k questions at
 * each of the 12 sizes, the smallest k of 5, 10, 15, 20, 30, 40, 60, 80
 * for which at least half of 20 seeded grids reach the same width with
 * the same posterior: `gridRequests`). Target (issue 45): at most 25% of
 * the grid's.
 *
 * Run alone: `deno run -A tests/bench/adaptive_bench.ts`.
 *
 * @module
 */
import { CrossingDesign } from "../../lib/adaptive/crossing.ts";
import { gridRequests } from "../../lib/adaptive/grid.ts";
import { simCurve, SIZES, trueCrossing, uniform } from "../adaptive/_curves.ts";
import type { BenchRow } from "./sweep_bench.ts";

/** Coverage and requests of the adaptive design against the grid, per profile. */
export function benchAdaptiveCrossing(): BenchRow[] {
  const rows: BenchRow[] = [];
  for (const name of ["sim-strong", "sim-average", "sim-weak"]) {
    const curve = simCurve(name);
    const truth = trueCrossing(curve);
    let covered = 0, requests = 0;
    for (let seed = 1; seed <= 50; seed++) {
      const draw = uniform(seed);
      const d = new CrossingDesign({ sizes: SIZES });
      while (!d.estimate().done && d.estimate().trials < 1000) {
        const x = d.next();
        d.update(x, draw() < curve(x));
      }
      const e = d.estimate();
      if (e.low <= truth && truth <= e.high) covered++;
      requests += e.trials;
    }
    const grid = gridRequests({ curve, sizes: SIZES }) ?? NaN;
    const mean = requests / 50;
    console.log(
      `adaptive crossing, ${name}: true crossing ${truth.toFixed(2)} digits; ` +
        `covered in ${covered}/50 runs; ${
          mean.toFixed(1)
        } requests on average, ` +
        `the grid ${grid} for the same width`,
    );
    rows.push({
      name: `adaptive crossing coverage, ${name}`,
      value: covered / 50,
      unit: "share",
      target: ">= 0.9",
      pass: covered / 50 >= 0.9,
    }, {
      name: `adaptive crossing requests, ${name}`,
      value: mean,
      unit: "requests",
      ratio: mean / grid,
      target: "<= 0.25 of the grid",
      pass: mean / grid <= 0.25,
    });
  }
  return rows;
}

if (import.meta.main) console.table(benchAdaptiveCrossing());
