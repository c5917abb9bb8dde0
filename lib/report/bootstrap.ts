import { mulberry32 } from "../math/rng.ts";

/** Options for {@linkcode pairedBootstrap}. */
export interface PairedBootstrapOptions {
  /** Resamples drawn. @default {2000} */
  resamples?: number;
  /** PRNG seed: the same seed gives the same interval. @default {0} */
  seed?: number;
  /** Confidence level of the percentile interval. @default {0.95} */
  level?: number;
}

/** A paired difference in means with its bootstrap percentile interval. */
export interface PairedBootstrapResult {
  /** mean(a) − mean(b) on the observed pairs. */
  diff: number;
  /** Lower bound of the percentile interval of `diff`. */
  lo: number;
  /** Upper bound of the percentile interval of `diff`. */
  hi: number;
  /** Share of resamples where the difference had the opposite sign of `diff` (or was 0), doubled: a rough two-sided p. */
  p: number;
}

/**
 * A seeded paired bootstrap of mean(a) − mean(b): resamples question
 * indices with replacement, keeping each question's pair together.
 *
 * @param a Scores of the first system, one per question.
 * @param b Scores of the second system on the same questions, same order.
 * @param options Resamples, seed and level.
 * @returns The observed difference and its percentile interval.
 * @throws {RangeError} When a and b differ in length or are empty.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { pairedBootstrap } from "./mod.ts";
 *
 * const a = [1, 1, 1, 1, 0, 1, 1, 1];
 * const b = [0, 1, 0, 1, 0, 0, 1, 0];
 * const r = pairedBootstrap(a, b, { seed: 1 });
 * assert.equal(r.diff, 0.5);
 * assert.ok(r.lo > 0 && r.hi <= 1);
 * assert.deepEqual(pairedBootstrap(a, b, { seed: 1 }), r);
 * ```
 */
export function pairedBootstrap(
  a: readonly number[],
  b: readonly number[],
  options: PairedBootstrapOptions = {},
): PairedBootstrapResult {
  const { resamples = 2000, seed = 0, level = 0.95 } = options;
  if (a.length !== b.length || a.length === 0) {
    throw new RangeError(
      `Cannot bootstrap a paired difference: need two equal non-empty lists, got ${a.length} and ${b.length}`,
    );
  }
  const n = a.length;
  const d = a.map((x, i) => x - (b[i] as number));
  const diff = d.reduce((s, x) => s + x, 0) / n;
  const rand = mulberry32(seed);
  const stats = new Float64Array(resamples);
  let opposite = 0;
  for (let r = 0; r < resamples; r++) {
    let s = 0;
    for (let i = 0; i < n; i++) s += d[Math.floor(rand() * n)] as number;
    const m = s / n;
    stats[r] = m;
    if (diff >= 0 ? m <= 0 : m >= 0) opposite++;
  }
  stats.sort();
  const alpha = (1 - level) / 2;
  const at = (q: number) =>
    stats[
      Math.min(resamples - 1, Math.max(0, Math.floor(q * resamples)))
    ] as number;
  return {
    diff,
    lo: at(alpha),
    hi: at(1 - alpha),
    p: Math.min(1, (2 * opposite) / resamples),
  };
}
