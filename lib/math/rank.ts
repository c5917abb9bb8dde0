/**
 * Rank and nullity by exact Gaussian elimination.
 *
 * Written by hand: mathjs has no `rank`, and its `lup`/`qr` pivot on
 * magnitude for floats; exact elimination over fractions is a dozen lines.
 *
 * @module
 */
import type { Matrix } from "./matrix.ts";

/**
 * The rank of a matrix (the number of linearly independent rows), exactly.
 *
 * @param m Any matrix.
 * @returns Its rank.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { rank, toMatrix } from "./mod.ts";
 * assert.equal(rank(toMatrix([[1, 2], [2, 4]])), 1);
 * assert.equal(rank(toMatrix([[1, 2], [3, 4]])), 2);
 * ```
 */
export function rank(m: Matrix): number {
  const rows = m.map((r) => [...r]);
  const width = rows[0]?.length ?? 0;
  let r = 0;
  for (let c = 0; c < width && r < rows.length; c++) {
    const p = rows.findIndex((row, i) => i >= r && row[c]!.n !== 0n);
    if (p < 0) continue;
    [rows[r], rows[p]] = [rows[p]!, rows[r]!];
    const pivot = rows[r]!;
    for (let i = r + 1; i < rows.length; i++) {
      const row = rows[i]!;
      if (row[c]!.n === 0n) continue;
      const f = row[c]!.div(pivot[c]!);
      for (let j = c; j < width; j++) row[j] = row[j]!.sub(f.mul(pivot[j]!));
    }
    r++;
  }
  return r;
}

/**
 * The nullity of a matrix: columns minus rank (rank–nullity theorem).
 *
 * @param m Any matrix.
 * @returns The dimension of its null space.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { nullity, toMatrix } from "./mod.ts";
 * assert.equal(nullity(toMatrix([[1, 2, 3], [2, 4, 6], [1, 0, 0]])), 1);
 * ```
 */
export function nullity(m: Matrix): number {
  return (m[0]?.length ?? 0) - rank(m);
}
