/**
 * What a sweep of a given size can tell: the 95% interval half-width of a
 * model's accuracy over n scored rows (Wilson, as the report draws it),
 * and the power of the paired exact McNemar test the report uses to say
 * whether two models differ.
 *
 * The power is computed exactly for that test, not from the normal
 * approximation (Connor 1987), which misstates the exact test's power at
 * the few hundred questions a sweep usually has: over n paired questions
 * the discordant count D is Binomial(n, ψ) (ψ the discordant share), and
 * given D = d the test rejects when the smaller of the two discordant
 * counts is at most the largest k with 2·P(Binomial(d, ½) ≤ k) ≤ α —
 * the rule of `mcnemarExact` in `lib/report/mcnemar.ts`. A model ahead by
 * δ has each discordant question go its way with probability
 * π = (ψ + δ) / 2ψ. Power = Σ_d P(D = d) · P(reject | d, π).
 *
 * Binomial tails are summed by hand in log space from one `lgamma` term
 * (mathjs) because no npm package computes them without overflow at
 * tens of thousands of trials; the sums stop once terms no longer count.
 *
 * @module
 */
import { lgamma } from "mathjs";

/** The normal quantile of a two-sided 95% interval. */
export const Z95 = 1.959963984540054;

/**
 * Half the width of the Wilson 95% interval of an accuracy `p` over `n`
 * scored rows: the precision a sweep of that size gives.
 *
 * @param n Scored rows.
 * @param p The accuracy assumed (0–1).
 * @param options `z`, the normal quantile. @default {Z95}
 * @returns The half-width (0–1); NaN when n is 0.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { wilsonHalfWidth } from "./power.ts";
 * // 100 rows at 50%: about ±9.6 points; 400 rows: about ±4.9.
 * assert.equal(wilsonHalfWidth(100, 0.5).toFixed(4), "0.0962");
 * assert.equal(wilsonHalfWidth(400, 0.5).toFixed(4), "0.0488");
 * ```
 */
export function wilsonHalfWidth(
  n: number,
  p: number,
  { z = Z95 }: { z?: number } = {},
): number {
  if (!(n > 0)) return NaN;
  const z2 = z * z;
  return z / (1 + z2 / n) * Math.sqrt(p * (1 - p) / n + z2 / (4 * n * n));
}

/** log P(Binomial(n, p) = k), for 0 < p < 1. */
function logPmf(n: number, k: number, p: number): number {
  return lgamma(n + 1) - lgamma(k + 1) - lgamma(n - k + 1) +
    k * Math.log(p) + (n - k) * Math.log1p(-p);
}

/**
 * P(Binomial(n, p) ≤ k), summed downward from k while the terms count.
 * Below the mode the terms fall as i falls; above it the upper tail is
 * summed instead (P(X ≤ k) = 1 − P(Binomial(n, 1 − p) ≤ n − k − 1)).
 */
function lowerTail(n: number, k: number, p: number): number {
  if (k < 0) return 0;
  if (k >= n) return 1;
  if (p <= 0) return 1;
  if (p >= 1) return 0;
  if (k > n * p) return 1 - lowerTail(n, n - k - 1, 1 - p);
  let term = Math.exp(logPmf(n, k, p));
  let sum = term;
  const ratio = (1 - p) / p;
  for (let i = k; i > 0; i--) {
    term *= i / (n - i + 1) * ratio;
    sum += term;
    if (term < sum * 1e-17) break;
  }
  return Math.min(1, sum);
}

/** The exact test's rejection bound for d discordant pairs, by α. */
const BOUNDS = new Map<number, Map<number, number>>();

/**
 * The largest k with 2·P(Binomial(d, ½) ≤ k) ≤ α: the exact McNemar test
 * rejects when the smaller discordant count is at most this (−1: never).
 */
function rejectBound(d: number, alpha: number): number {
  let byD = BOUNDS.get(alpha);
  if (byD === undefined) BOUNDS.set(alpha, byD = new Map());
  const seen = byD.get(d);
  if (seen !== undefined) return seen;
  let k = Math.max(-1, Math.floor(d / 2 - Z95 * Math.sqrt(d) / 2) - 1);
  while (k + 1 < d / 2 && 2 * lowerTail(d, k + 1, 0.5) <= alpha) k++;
  while (k >= 0 && 2 * lowerTail(d, k, 0.5) > alpha) k--;
  byD.set(d, k);
  return k;
}

/** The test, the effect and the design the power is computed for. */
export interface PowerOptions {
  /** Share of questions the two models answer differently (ψ, 0–1). */
  discordant: number;
  /** The accuracy difference to detect (δ, 0–1, at most ψ). */
  difference: number;
  /** Two-sided significance level. @default {0.05} */
  alpha?: number;
}

/**
 * The power of the exact McNemar test (two-sided, as the report runs it)
 * to find a difference δ between two models over n paired questions
 * whose discordant share is ψ.
 *
 * @param n Paired questions.
 * @param options ψ, δ and α.
 * @returns The probability the test rejects (0–1); 0 when δ > ψ or n = 0.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { mcnemarPower } from "./power.ts";
 * const at = (n: number) => mcnemarPower(n, { discordant: 0.3, difference: 0.1 });
 * assert.ok(at(100) < at(200) && at(200) < at(400));
 * assert.ok(at(300) > 0.75 && at(300) < 0.9);
 * assert.equal(mcnemarPower(0, { discordant: 0.3, difference: 0.1 }), 0);
 * ```
 */
export function mcnemarPower(n: number, options: PowerOptions): number {
  const { discordant: psi, difference: delta, alpha = 0.05 } = options;
  if (!(n > 0) || !(delta > 0) || delta > psi || psi > 1) return 0;
  const pi = Math.min(1, (psi + delta) / (2 * psi));
  const mean = n * psi;
  const sd = Math.sqrt(n * psi * (1 - psi));
  const lo = psi >= 1 ? n : Math.max(0, Math.floor(mean - 9 * sd - 1));
  const hi = psi >= 1 ? n : Math.min(n, Math.ceil(mean + 9 * sd + 1));
  let power = 0;
  for (let d = lo; d <= hi; d++) {
    const weight = psi >= 1 ? 1 : Math.exp(logPmf(n, d, psi));
    if (weight === 0) continue;
    const k = rejectBound(d, alpha);
    if (k < 0) continue;
    // The smaller count is at most k: the leader's count ≥ d − k, or the
    // other's (then the test rejects the wrong way, still a rejection).
    const reject = (1 - lowerTail(d, d - k - 1, pi)) + lowerTail(d, k, pi);
    power += weight * reject;
  }
  return Math.min(1, power);
}

/**
 * The fewest paired questions with which the exact McNemar test finds a
 * difference δ at the given power. The exact test's power rises with n
 * with small ripples; this is the smallest n a bisection finds with the
 * power reached, which {@linkcode mcnemarPower} confirms.
 *
 * @param options ψ, δ, α and the power wanted (@default {0.8}).
 * @returns The questions needed, or null when δ > ψ (no such pair of
 *   models) or more than ten million would be needed.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { mcnemarPower, mcnemarQuestions } from "./power.ts";
 * const design = { discordant: 0.3, difference: 0.05 };
 * const n = mcnemarQuestions(design)!;
 * assert.ok(mcnemarPower(n, design) >= 0.8);
 * assert.ok(n > 900 && n < 1000); // Connor's approximation: 938
 * assert.equal(mcnemarQuestions({ discordant: 0.02, difference: 0.05 }), null);
 * ```
 */
export function mcnemarQuestions(
  options: PowerOptions & { power?: number },
): number | null {
  const { power = 0.8 } = options;
  if (!(options.difference > 0) || options.difference > options.discordant) {
    return null;
  }
  const enough = (n: number) => mcnemarPower(n, options) >= power;
  let hi = 8;
  while (!enough(hi)) {
    hi *= 2;
    if (hi > 10_000_000) return null;
  }
  let lo = hi / 2;
  while (hi - lo > 1) {
    const mid = Math.floor((lo + hi) / 2);
    if (enough(mid)) hi = mid;
    else lo = mid;
  }
  return hi;
}

/**
 * The smallest difference δ the exact McNemar test finds at the given
 * power over n paired questions (to half a point of accuracy, 0.005).
 *
 * @param n Paired questions.
 * @param options ψ, α and the power wanted (@default {0.8}).
 * @returns δ (0–1), or null when even δ = ψ is not found.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { detectableDifference } from "./power.ts";
 * const d = detectableDifference(400, { discordant: 0.3 })!;
 * assert.ok(d > 0.05 && d < 0.1);
 * ```
 */
export function detectableDifference(
  n: number,
  options: Omit<PowerOptions, "difference"> & { power?: number },
): number | null {
  const { power = 0.8, discordant } = options;
  const found = (delta: number) =>
    mcnemarPower(n, { ...options, difference: delta }) >= power;
  if (!found(discordant)) return null;
  let lo = 0, hi = discordant;
  while (hi - lo > 0.0025) {
    const mid = (lo + hi) / 2;
    if (found(mid)) hi = mid;
    else lo = mid;
  }
  return hi;
}
