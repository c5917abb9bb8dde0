/**
 * What the full grid (the same number of questions at every size) costs
 * for a crossing interval of a given width, found by simulation: the
 * yardstick the adaptive design's request count is set against.
 *
 * @module
 */
import { mulberry32 } from "../math/rng.ts";
import { CrossingDesign, type CrossingOptions } from "./crossing.ts";

/** Options for {@linkcode gridRequests}. */
export interface GridRequestsOptions extends CrossingOptions {
  /** The true (or fitted) chance of a correct answer at a size. */
  curve: (size: number) => number;
  /** Questions per size to try, smallest first. @default 5, 10, 15, 20, 30, 40, 60, 80 */
  ladder?: readonly number[];
  /** Seeded grids simulated per rung. @default 20 */
  runs?: number;
  /** The first grid's seed (mulberry32); the others follow. @default 1001 */
  seed?: number;
}

/**
 * The requests the full grid needs (k questions at each size) for the
 * crossing's 95% interval to be no wider than `width`: the smallest k on
 * the ladder for which at least half of `runs` seeded grids, drawn from
 * `curve`, reach the width with the design's posterior; k times the
 * number of sizes. Null when no rung does.
 *
 * Drawn from `curve`, so only as right as the curve: from a fitted curve
 * (`fitCrossing(...).predicted`) it is an estimate.
 *
 * @param options The curve, the design's sizes, target, width and grid,
 *   the ladder, runs and seed.
 * @returns Requests, or null when the largest rung is not enough.
 * @throws {RangeError} for options {@linkcode CrossingDesign} refuses.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { gridRequests } from "./grid.ts";
 * const curve = (x: number) => 0.98 / (1 + Math.exp(1.5 * (x - 4.5)));
 * const sizes = [1, 2, 3, 4, 5, 6, 7, 8];
 * const wide = gridRequests({ curve, sizes, width: 2 })!;
 * const narrow = gridRequests({ curve, sizes, width: 1 })!;
 * assert.ok(wide > 0 && wide % 8 === 0);
 * assert.ok(narrow > wide, `${narrow} vs ${wide}`);
 * ```
 */
export function gridRequests(options: GridRequestsOptions): number | null {
  const {
    curve,
    ladder = [5, 10, 15, 20, 30, 40, 60, 80],
    runs = 20,
    seed = 1001,
    ...design
  } = options;
  const prior = new CrossingDesign(design);
  const sizes = [...new Set(design.sizes)].sort((a, b) => a - b);
  const chances = sizes.map(curve);
  const need = Math.ceil(runs / 2);
  for (const k of ladder) {
    let done = 0;
    for (let r = 0; r < runs && done < need; r++) {
      // Stop early once the rest cannot make half.
      if (done + (runs - r) < need) break;
      const draw = mulberry32(seed + r);
      const d = prior.copy();
      sizes.forEach((x, i) => {
        let correct = 0;
        for (let q = 0; q < k; q++) if (draw() < chances[i]!) correct++;
        d.updateMany(x, { correct, wrong: k - correct });
      });
      if (d.estimate().done) done++;
    }
    if (done >= need) return k * sizes.length;
  }
  return null;
}
