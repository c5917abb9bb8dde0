/**
 * Exact matrices over BigInt rationals (mathjs fractions): building them
 * from integers or rational strings, writing them back, and the
 * operations mathjs already does exactly on fractions (trace, transpose,
 * products, integer powers, determinant).
 *
 * @module
 */
import {
  det,
  type Fraction,
  fraction,
  multiply,
  pow,
  trace as mathTrace,
  transpose as mathTranspose,
} from "mathjs";
import { formatRational, parseRational } from "./rational.ts";

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
  requireSquare(m, "take the trace");
  return mathTrace(m) as unknown as Fraction;
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
  return mathTranspose(m) as Matrix;
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
  return multiply(a, b) as Matrix;
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
  return pow(m, k) as unknown as Matrix;
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
  requireSquare(m, "take the determinant");
  return fraction(det(m) as unknown as Fraction);
}
