/**
 * The crossing fitted from counts of any run (a full grid or an adaptive
 * one): the design's posterior is a product of per-outcome likelihoods, so
 * it does not depend on the order in which outcomes came, and counts per
 * size are all it needs.
 *
 * @module
 */
import {
  CrossingDesign,
  type CrossingEstimate,
  type CrossingOptions,
} from "./crossing.ts";

/** Answers at one size. */
export interface SizeCounts {
  /** The size (e.g. a digit count). */
  x: number;
  /** Correct answers at this size. */
  correct: number;
  /** Answers at this size. */
  n: number;
}

/** Options for {@linkcode fitCrossing}: the design's, without the sizes. */
export type FitCrossingOptions = Omit<CrossingOptions, "sizes">;

/**
 * Where the observed accuracies sit against the target: `inside` when
 * some size is at or above it and some below (the crossing lies among
 * the sizes asked), `above` when every size is at or above it (the
 * crossing lies beyond the largest size asked), `below` when every size
 * is below it (before the smallest).
 */
export type CrossingPosition = "inside" | "above" | "below";

/** The fitted crossing, with the curve it implies. */
export interface CrossingFit extends CrossingEstimate {
  /** Where the observed accuracies sit against the target. */
  position: CrossingPosition;
  /**
   * The posterior mean accuracy at one of the sizes fitted (an estimate,
   * not data: the ordering borrows from the neighbouring sizes).
   */
  predicted: (size: number) => number;
}

/**
 * The crossing of the target and its 95% credible interval from counts
 * per size, with the same posterior as {@linkcode CrossingDesign} (sizes
 * are the distinct x; a crossing below the smallest counts as one size
 * below it, above the largest as one above).
 *
 * @param points Counts per size, in any order; a size may repeat (its
 *   counts add up); sizes with n = 0 are left out.
 * @param options Target, width and the accuracy grid's resolution.
 * @returns The estimate, where the data sit against the target, and the
 *   fitted curve.
 * @throws {RangeError} when no size has answers, a count is impossible, or
 *   an option is out of range (see {@linkcode CrossingDesign}).
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { fitCrossing } from "./fit.ts";
 * const fit = fitCrossing([
 *   { x: 2, correct: 39, n: 40 },
 *   { x: 4, correct: 30, n: 40 },
 *   { x: 6, correct: 8, n: 40 },
 *   { x: 8, correct: 0, n: 40 },
 * ]);
 * assert.equal(fit.position, "inside");
 * assert.ok(fit.low > 4 && fit.high < 6, JSON.stringify(fit));
 * assert.equal(fit.trials, 160);
 * assert.ok(fit.predicted(2) > 0.9 && fit.predicted(8) < 0.1);
 * ```
 */
export function fitCrossing(
  points: readonly SizeCounts[],
  options: FitCrossingOptions = {},
): CrossingFit {
  const counts = new Map<number, { correct: number; n: number }>();
  for (const p of points) {
    if (!(p.n >= 0 && p.correct >= 0 && p.correct <= p.n)) {
      throw new RangeError(
        `Cannot fit a crossing: size ${p.x} has ${p.correct} correct of ${p.n}; give 0 ≤ correct ≤ n`,
      );
    }
    if (p.n === 0) continue;
    const c = counts.get(p.x) ?? { correct: 0, n: 0 };
    counts.set(p.x, { correct: c.correct + p.correct, n: c.n + p.n });
  }
  if (counts.size === 0) {
    throw new RangeError(
      "Cannot fit a crossing: no size has answers; give counts with n > 0",
    );
  }
  const design = new CrossingDesign({ ...options, sizes: [...counts.keys()] });
  for (const [x, c] of counts) {
    design.updateMany(x, { correct: c.correct, wrong: c.n - c.correct });
  }
  const target = options.target ?? 0.5;
  const above = [...counts.values()].map((c) => c.correct / c.n >= target);
  const position: CrossingPosition = above.every(Boolean)
    ? "above"
    : above.some(Boolean)
    ? "inside"
    : "below";
  return {
    ...design.estimate(),
    position,
    predicted: (size) => design.predicted(size),
  };
}
