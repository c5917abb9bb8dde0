/**
 * Operand builders for the linear-algebra generator: random integer
 * matrices in a range, matrices of a target rank, symmetric matrices
 * (A + Aᵀ) and matrices with integer eigenvalues by construction.
 *
 * @module
 */
import { formatMatrix, inverse, matMul, toMatrix } from "../../math/matrix.ts";
import { rank } from "../../math/rank.ts";
import type { Rng } from "../../math/rng.ts";

export function randomMatrix(
  rng: Rng,
  rows: number,
  cols: number,
  lo: number,
  hi: number,
): string[][] {
  return Array.from(
    { length: rows },
    () => Array.from({ length: cols }, () => String(rng.int(lo, hi))),
  );
}

/** An n×n matrix of rank r: r independent rows, the rest small combinations of them, shuffled. */
export function matrixOfRank(rng: Rng, n: number, r: number): string[][] {
  for (let attempt = 0; attempt < 1000; attempt++) {
    const base = randomMatrix(rng, r, n, -5, 5).map((row) => row.map(Number));
    if (rank(toMatrix(base)) !== r) continue;
    const rows = [...base];
    while (rows.length < n) {
      const coeffs = base.map(() => rng.int(-1, 1));
      if (coeffs.every((c) => c === 0)) continue;
      const row = Array.from(
        { length: n },
        (_, j) => base.reduce((s, b, k) => s + coeffs[k]! * b[j]!, 0),
      );
      if (row.some((v) => Math.abs(v) > 9)) continue;
      rows.push(row);
    }
    for (let i = rows.length - 1; i > 0; i--) {
      const j = rng.int(0, i);
      [rows[i], rows[j]] = [rows[j]!, rows[i]!];
    }
    const m = rows.map((row) => row.map(String));
    if (rank(toMatrix(m)) === r) return m;
  }
  throw new RangeError(`Cannot build a ${n}×${n} matrix of rank ${r}`);
}

/** A + Aᵀ for A with entries in [lo, hi]: symmetric, so all eigenvalues are real. */
export function symmetricMatrix(
  rng: Rng,
  n: number,
  lo: number,
  hi: number,
): string[][] {
  const a = randomMatrix(rng, n, n, lo, hi).map((r) => r.map(Number));
  return a.map((row, i) => row.map((v, j) => String(v + a[j]![i]!)));
}

/**
 * P·D·P⁻¹ with D a diagonal of integers in [-5, 5] and P = L·U unimodular
 * (unit triangular factors with entries in {-1, 0, 1}), so the eigenvalues
 * are exactly D's and every entry is an integer.
 */
export function integerEigenMatrix(rng: Rng, n: number): string[][] {
  const unit = (lower: boolean) =>
    Array.from(
      { length: n },
      (_, i) =>
        Array.from(
          { length: n },
          (_, j) =>
            i === j
              ? 1
              : (lower ? i > j : i < j)
              ? (rng.next() < 0.4 ? rng.int(-1, 1) : 0)
              : 0,
        ),
    );
  const p = matMul(toMatrix(unit(true)), toMatrix(unit(false)));
  const d = toMatrix(
    Array.from(
      { length: n },
      (_, i) =>
        Array.from({ length: n }, (_, j) => (i === j ? rng.int(-5, 5) : 0)),
    ),
  );
  const pInv = inverse(p);
  return formatMatrix(matMul(matMul(p, d), pInv));
}
