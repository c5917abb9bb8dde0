/**
 * Rank statistics over a handful of items (models under several scores):
 * competition ranks and Kendall's tau-b between two rankings.
 *
 * @module
 */

/**
 * Competition ranks, 1 = highest score; ties share the best rank; null
 * scores rank last.
 *
 * @param scores Scores, one per item (e.g. per model).
 * @returns Ranks in the same order.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { ranks } from "./rank.ts";
 * assert.deepEqual(ranks([0.5, 0.9, 0.5, null]), [2, 1, 2, 4]);
 * ```
 */
export function ranks(scores: readonly (number | null)[]): number[] {
  const v = scores.map((s) => s ?? -Infinity);
  return v.map((s) => 1 + v.filter((o) => o > s).length);
}

/**
 * Kendall's tau-b between two rankings (ties handled); 1 = same order,
 * −1 = reversed. Written here because it is a dozen lines over a handful
 * of items; no statistics dependency is pulled in for it.
 *
 * @param a First ranking (or scores).
 * @param b Second ranking, same length.
 * @returns Tau-b in [−1, 1]; 1 when fewer than two items or either side is all tied.
 * @throws {RangeError} When the lengths differ.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { kendallTauB } from "./rank.ts";
 * assert.equal(kendallTauB([1, 2, 3], [1, 2, 3]), 1);
 * assert.equal(kendallTauB([1, 2, 3], [3, 2, 1]), -1);
 * assert.ok(Math.abs(kendallTauB([1, 2, 3], [1, 3, 2]) - 1 / 3) < 1e-12);
 * ```
 */
export function kendallTauB(
  a: readonly number[],
  b: readonly number[],
): number {
  if (a.length !== b.length) {
    throw new RangeError(
      `Cannot compute Kendall tau: rankings differ in length (${a.length} vs ${b.length}); rank the same items`,
    );
  }
  let concordant = 0;
  let discordant = 0;
  let tiesA = 0;
  let tiesB = 0;
  for (let i = 0; i < a.length; i++) {
    for (let j = i + 1; j < a.length; j++) {
      const da = Math.sign(a[i]! - a[j]!);
      const db = Math.sign(b[i]! - b[j]!);
      if (da === 0 && db === 0) continue;
      if (da === 0) tiesA++;
      else if (db === 0) tiesB++;
      else if (da === db) concordant++;
      else discordant++;
    }
  }
  const denom = Math.sqrt(
    (concordant + discordant + tiesA) * (concordant + discordant + tiesB),
  );
  return denom === 0 ? 1 : (concordant - discordant) / denom;
}
