/**
 * The exact (binomial) McNemar test for paired binary outcomes. Only the
 * discordant pairs matter: b questions model A got right and B wrong, c the
 * reverse. Under H0 each discordant pair is a fair coin, so the two-sided
 * p-value is min(1, 2·P(X ≤ min(b, c))) for X ~ Binomial(b + c, ½).
 *
 * Computed with BigInt binomial coefficients so the tail sum is exact before
 * the one final division (floating point sums of tiny terms lose accuracy).
 *
 * @param b Pairs where A was right and B wrong.
 * @param c Pairs where A was wrong and B right.
 * @returns The two-sided p-value (1 when there are no discordant pairs).
 * @throws {RangeError} When b or c is negative or not an integer.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { mcnemarExact } from "./mod.ts";
 *
 * // 0 vs 6 discordant pairs: 2 * (1/2)^6 = 0.03125
 * assert.equal(mcnemarExact(0, 6), 0.03125);
 * assert.equal(mcnemarExact(3, 3), 1);
 * ```
 */
export function mcnemarExact(b: number, c: number): number {
  if (!Number.isInteger(b) || !Number.isInteger(c) || b < 0 || c < 0) {
    throw new RangeError(
      `Cannot run McNemar's test: counts must be non-negative integers, got b=${b}, c=${c}`,
    );
  }
  const n = b + c;
  if (n === 0) return 1;
  const m = Math.min(b, c);
  let term = 1n; // C(n, 0)
  let tail = 0n;
  for (let i = 0; i <= m; i++) {
    tail += term;
    term = term * BigInt(n - i) / BigInt(i + 1);
  }
  const total = 1n << BigInt(n);
  // p = 2 * tail / 2^n, as a float only at the end.
  const p = ratioToNumber(2n * tail, total);
  return Math.min(1, p);
}

/** Divides two BigInts into a float without overflowing Number for huge n. */
function ratioToNumber(num: bigint, den: bigint): number {
  const shift = BigInt(Math.max(0, den.toString(2).length - 1000));
  return Number(num >> shift) / Number(den >> shift);
}
