/**
 * Exact matrices over BigInt rationals (fraction.js): building them from
 * integers or rational strings, writing them back, trace, transpose,
 * products, integer powers, determinant and inverse.
 *
 * The operations are written by hand over fraction.js rather than taken
 * from mathjs: importing mathjs builds its whole function set (about
 * 0.3 s and 60 MB) before a sweep can start, and these few loops over
 * exact fractions give the same values.
 *
 * @module
 */
import {
  formatRational,
  type Fraction,
  fraction,
  parseRational,
} from "./rational.ts";

export type { Fraction };

/** A matrix of exact rationals, row-major; a column vector is n×1. */
export type Matrix = Fraction[][];

/** Entries a matrix can be built from. */
export type Entry = number | bigint | string | Fraction;

function toFraction(value: Entry): Fraction {
  if (typeof value === "number") {
    if (!Number.isSafeInteger(value)) {
      throw new RangeError(
        `Cannot build matrix: ${value} is not a safe integer (pass a string for rationals)`,
      );
    }
    return fraction(BigInt(value));
  }
  if (typeof value === "bigint" || typeof value === "string") {
    return parseRational(value);
  }
  return value;
}

/**
 * Builds an exact matrix from rows of integers, BigInts, rational strings
 * or fractions.
 *
 * @param rows The rows; all of the same non-zero length.
 * @returns The matrix.
 * @throws {TypeError} when the rows are empty or ragged.
 * @throws {SyntaxError} when a string is not a rational.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { formatMatrix, toMatrix } from "./mod.ts";
 * assert.deepEqual(formatMatrix(toMatrix([[1, "2/4"], [3n, -4]])), [["1", "1/2"], ["3", "-4"]]);
 * ```
 */
export function toMatrix(rows: readonly (readonly Entry[])[]): Matrix {
  const width = rows[0]?.length ?? 0;
  if (rows.length === 0 || width === 0) {
    throw new TypeError("Cannot build matrix: it has no entries");
  }
  if (rows.some((r) => r.length !== width)) {
    throw new TypeError("Cannot build matrix: rows have different lengths");
  }
  return rows.map((r) => r.map(toFraction));
}

/**
 * Writes a matrix as rows of rational strings (`"3"`, `"-1/2"`), the shape
 * of an `Answer` of kind `matrix`.
 *
 * @param m The matrix.
 * @returns Rows of strings.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { formatMatrix, toMatrix } from "./mod.ts";
 * assert.deepEqual(formatMatrix(toMatrix([[0, -7]])), [["0", "-7"]]);
 * ```
 */
export function formatMatrix(m: Matrix): string[][] {
  return m.map((r) => r.map(formatRational));
}

/** Rows × columns of a matrix. */
export function shapeOf(m: Matrix): [number, number] {
  return [m.length, m[0]?.length ?? 0];
}

/** The r×c product of an r×k and a k×c matrix (sizes already checked). */
function product(a: Matrix, b: Matrix): Matrix {
  const k = b.length, c = b[0]?.length ?? 0;
  return a.map((row) =>
    Array.from({ length: c }, (_, j) => {
      let sum = row[0]!.mul(b[0]![j]!);
      for (let t = 1; t < k; t++) sum = sum.add(row[t]!.mul(b[t]![j]!));
      return sum;
    })
  );
}

function requireSquare(m: Matrix, action: string): number {
  const [r, c] = shapeOf(m);
  if (r !== c) {
    throw new RangeError(
      `Cannot ${action}: the matrix is ${r}×${c}, not square`,
    );
  }
  return r;
}

/**
 * The trace (sum of the diagonal) of a square matrix.
 *
 * @param m A square matrix.
 * @returns The exact trace.
 * @throws {RangeError} when the matrix is not square.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { toMatrix, trace } from "./mod.ts";
 * assert.equal(trace(toMatrix([[1, 2], [3, -4]])).toString(), "-3");
 * ```
 */
export function trace(m: Matrix): Fraction {
  const n = requireSquare(m, "take the trace");
  let sum = m[0]![0]!;
  for (let i = 1; i < n; i++) sum = sum.add(m[i]![i]!);
  return sum;
}

/**
 * The transpose of a matrix.
 *
 * @param m Any matrix.
 * @returns Its transpose (columns become rows).
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { formatMatrix, toMatrix, transpose } from "./mod.ts";
 * assert.deepEqual(formatMatrix(transpose(toMatrix([[1, 2, 3]]))), [["1"], ["2"], ["3"]]);
 * ```
 */
export function transpose(m: Matrix): Matrix {
  const [r, c] = shapeOf(m);
  return Array.from(
    { length: c },
    (_, j) => Array.from({ length: r }, (_, i) => m[i]![j]!),
  );
}

/**
 * The product of two matrices.
 *
 * @param a An r×k matrix.
 * @param b A k×c matrix.
 * @returns The r×c product.
 * @throws {RangeError} when the inner sizes differ.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { formatMatrix, matMul, toMatrix } from "./mod.ts";
 * const p = matMul(toMatrix([[1, 2], [3, 4]]), toMatrix([[0, 1], [1, 0]]));
 * assert.deepEqual(formatMatrix(p), [["2", "1"], ["4", "3"]]);
 * ```
 */
export function matMul(a: Matrix, b: Matrix): Matrix {
  const [, k] = shapeOf(a);
  const [k2] = shapeOf(b);
  if (k !== k2) {
    throw new RangeError(
      `Cannot multiply matrices: ${shapeOf(a).join("×")} by ${
        shapeOf(b).join("×")
      }`,
    );
  }
  return product(a, b);
}

/**
 * The product of a matrix and a vector.
 *
 * @param a An r×k matrix.
 * @param x A vector of k entries.
 * @returns The r entries of `a·x`.
 * @throws {RangeError} when the sizes differ.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { matVec, toMatrix } from "./mod.ts";
 * const [x] = toMatrix([[1, 1]]);
 * assert.deepEqual(matVec(toMatrix([[1, 2], [3, 4]]), x!).map(String), ["3", "7"]);
 * ```
 */
export function matVec(a: Matrix, x: readonly Fraction[]): Fraction[] {
  const column = x.map((v) => [v]);
  return matMul(a, column).map((r) => r[0]!);
}

/**
 * A square matrix to a non-negative integer power (`A⁰ = I`).
 *
 * @param m A square matrix.
 * @param k The exponent, 0 or more.
 * @returns `m^k`.
 * @throws {RangeError} when the matrix is not square or `k` is negative or not an integer.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { formatMatrix, matPow, toMatrix } from "./mod.ts";
 * assert.deepEqual(formatMatrix(matPow(toMatrix([[1, 1], [0, 1]]), 5)), [["1", "5"], ["0", "1"]]);
 * ```
 */
export function matPow(m: Matrix, k: number): Matrix {
  const n = requireSquare(m, "raise to a power");
  if (!Number.isInteger(k) || k < 0) {
    throw new RangeError(
      `Cannot raise to a power: exponent ${k} is not a non-negative integer`,
    );
  }
  if (k === 0) {
    return Array.from(
      { length: n },
      (_, i) =>
        Array.from({ length: n }, (_, j) => fraction(i === j ? 1n : 0n)),
    );
  }
  // Square and multiply: ⌈log₂ k⌉ squarings.
  let result: Matrix | null = null;
  let base = m;
  for (let e = k; e > 0; e = Math.floor(e / 2)) {
    if (e % 2 === 1) result = result === null ? base : product(result, base);
    if (e > 1) base = product(base, base);
  }
  return result === m ? m.map((r) => r.slice()) : result!;
}

/**
 * The determinant of a square matrix, exactly.
 *
 * @param m A square matrix.
 * @returns The determinant.
 * @throws {RangeError} when the matrix is not square.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { determinant, toMatrix } from "./mod.ts";
 * assert.equal(determinant(toMatrix([[-3, 5, 1], [-2, -3, 9], [1, 1, -6]])).toString(), "-41");
 * ```
 */
export function determinant(m: Matrix): Fraction {
  const n = requireSquare(m, "take the determinant");
  // Gaussian elimination on a copy, exact: swap in the first non-zero pivot.
  const a = m.map((r) => r.slice());
  let det = fraction(1n);
  for (let col = 0; col < n; col++) {
    const pivot = a.findIndex((r, i) => i >= col && r[col]!.n !== 0n);
    if (pivot < 0) return fraction(0n);
    if (pivot !== col) {
      [a[col], a[pivot]] = [a[pivot]!, a[col]!];
      det = det.neg();
    }
    const p = a[col]![col]!;
    det = det.mul(p);
    for (let i = col + 1; i < n; i++) {
      const f = a[i]![col]!.div(p);
      if (f.n === 0n) continue;
      const row = a[i]!;
      for (let j = col; j < n; j++) row[j] = row[j]!.sub(f.mul(a[col]![j]!));
    }
  }
  return det;
}

/**
 * The inverse of a square matrix, exactly (Gauss–Jordan over fractions).
 *
 * @param m A square, invertible matrix.
 * @returns `m⁻¹`.
 * @throws {RangeError} when the matrix is not square or is singular.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { formatMatrix, inverse, toMatrix } from "./mod.ts";
 * assert.deepEqual(formatMatrix(inverse(toMatrix([[2, 1], [1, 1]]))), [["1", "-1"], ["-1", "2"]]);
 * ```
 */
export function inverse(m: Matrix): Matrix {
  const n = requireSquare(m, "invert");
  const a = m.map((r, i) => [
    ...r,
    ...Array.from({ length: n }, (_, j) => fraction(i === j ? 1n : 0n)),
  ]);
  for (let col = 0; col < n; col++) {
    const pivot = a.findIndex((r, i) => i >= col && r[col]!.n !== 0n);
    if (pivot < 0) {
      throw new RangeError("Cannot invert: the matrix is singular");
    }
    [a[col], a[pivot]] = [a[pivot]!, a[col]!];
    const p = a[col]![col]!;
    const top = a[col] = a[col]!.map((v) => v.div(p));
    for (let i = 0; i < n; i++) {
      const f = a[i]![col]!;
      if (i === col || f.n === 0n) continue;
      a[i] = a[i]!.map((v, j) => v.sub(f.mul(top[j]!)));
    }
  }
  return a.map((r) => r.slice(n));
}
