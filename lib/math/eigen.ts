/**
 * Eigenvalues of a square matrix: the real roots of its characteristic
 * polynomial, exact where rational.
 *
 * @module
 */
import { characteristicPolynomial } from "./charpoly.ts";
import type { Matrix } from "./matrix.ts";
import { type RealRoot, realRoots, type RealRootsOptions } from "./roots.ts";

/** Real eigenvalues and how many are not real. */
export interface Eigenvalues {
  /** Distinct real eigenvalues, ascending, with algebraic multiplicities. */
  real: RealRoot[];
  /** Count (with multiplicity) of non-real eigenvalues. */
  complexCount: number;
}

/**
 * The eigenvalues of a square matrix.
 *
 * @param m A square matrix.
 * @param options Significant digits of irrational eigenvalues (default 15).
 * @returns Real eigenvalues with multiplicities, and the number of non-real ones.
 * @throws {RangeError} when the matrix is not square.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { eigenvalues, toMatrix } from "./mod.ts";
 * const e = eigenvalues(toMatrix([[2, 0], [0, 2]]));
 * assert.equal(e.real[0]!.text, "2");
 * assert.equal(e.real[0]!.multiplicity, 2);
 * assert.equal(eigenvalues(toMatrix([[0, -1], [1, 0]])).complexCount, 2);
 * ```
 */
export function eigenvalues(
  m: Matrix,
  options: RealRootsOptions = {},
): Eigenvalues {
  const real = realRoots(characteristicPolynomial(m), options);
  const counted = real.reduce((n, r) => n + r.multiplicity, 0);
  return { real, complexCount: m.length - counted };
}

/**
 * The eigenvalues as an answer-key multiset: each value repeated by its
 * multiplicity, ascending; exact rationals (`"3"`, `"-1/2"`) or decimals
 * with `digits` significant digits.
 *
 * @param m A square matrix.
 * @param options Significant digits (default 15).
 * @returns The list.
 * @throws {RangeError} when the matrix has non-real eigenvalues.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { eigenvalueList, toMatrix } from "./mod.ts";
 * assert.deepEqual(eigenvalueList(toMatrix([[3, 1], [0, 3]])), ["3", "3"]);
 * ```
 */
export function eigenvalueList(
  m: Matrix,
  options: RealRootsOptions = {},
): string[] {
  const e = eigenvalues(m, options);
  if (e.complexCount > 0) {
    throw new RangeError(
      `Cannot list eigenvalues: ${e.complexCount} of them are not real`,
    );
  }
  return e.real.flatMap((r) =>
    Array.from({ length: r.multiplicity }, () => r.text)
  );
}
