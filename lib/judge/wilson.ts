/**
 * The Wilson score interval of a proportion: the interval every accuracy
 * in the project carries (the suites' declared accuracy metric, the
 * report's Polars summary, the sweep's closing table). It lives with the
 * verdict aggregates because a suite's declared metrics compute it and a
 * suite, as a sweep loads it, brings no report code.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { wilsonInterval } from "./wilson.ts";
 * assert.equal(wilsonInterval(10, 10).hi, 1);
 * ```
 *
 * @module
 */
/** z for a two-sided 95% interval: the 0.975 quantile of the standard normal. */
export const Z95 = 1.959963984540054;

/** A proportion with its Wilson score interval. */
export interface WilsonInterval {
  /** Observed proportion k/n (NaN when n is 0). */
  p: number;
  /** Lower bound, in [0, 1] (NaN when n is 0). */
  lo: number;
  /** Upper bound, in [0, 1] (NaN when n is 0). */
  hi: number;
}

/** Options of {@linkcode wilsonInterval}. */
export interface WilsonOptions {
  /**
   * Normal quantile of the interval.
   * @default {1.959963984540054} (a 95% interval)
   */
  z?: number;
}

/**
 * The Wilson score interval for k successes in n trials. Unlike the normal
 * approximation (p ± z·√(p(1−p)/n)), it does not collapse to a zero-width
 * interval at 0% and 100%: with 0 of 10 correct the upper bound is about 28%.
 *
 * lo, hi = (p + z²/2n ∓ z·√(p(1−p)/n + z²/4n²)) / (1 + z²/n)
 *
 * @param k Successes (0 ≤ k ≤ n).
 * @param n Trials.
 * @param options `z`, the normal quantile; the default gives a 95% interval.
 * @returns The proportion and its interval bounds, clipped to [0, 1].
 * @throws {RangeError} When k or n is negative or k > n.
 *
 * @example At 0% the interval still has width
 * ```ts
 * import assert from "node:assert/strict";
 * import { wilsonInterval } from "./wilson.ts";
 *
 * const { p, lo, hi } = wilsonInterval(0, 10);
 * assert.equal(p, 0);
 * assert.equal(lo, 0);
 * assert.ok(hi > 0.27 && hi < 0.28);
 * ```
 */
export function wilsonInterval(
  k: number,
  n: number,
  { z = Z95 }: WilsonOptions = {},
): WilsonInterval {
  if (n < 0 || k < 0 || k > n) {
    throw new RangeError(
      `Cannot compute a Wilson interval: need 0 <= k <= n, got k=${k}, n=${n}`,
    );
  }
  if (n === 0) return { p: NaN, lo: NaN, hi: NaN };
  const p = k / n;
  const z2 = z * z;
  const denom = 1 + z2 / n;
  const center = (p + z2 / (2 * n)) / denom;
  const half = (z * Math.sqrt(p * (1 - p) / n + z2 / (4 * n * n))) / denom;
  return {
    p,
    lo: k === 0 ? 0 : Math.max(0, center - half),
    hi: k === n ? 1 : Math.min(1, center + half),
  };
}
