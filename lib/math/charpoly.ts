/**
 * The characteristic polynomial of a square matrix, exactly.
 *
 * Written by hand (Faddeev–LeVerrier over fractions): mathjs has no
 * characteristic polynomial, and its `eigs` works in floating point.
 *
 * @module
 */
import { type Fraction, fraction } from "./rational.ts";
import { matMul, type Matrix } from "./matrix.ts";

/**
 * The characteristic polynomial `det(λI − A)`, monic, coefficients lowest
 * degree first (`[c0, c1, …, 1]`).
 *
 * @param m A square matrix.
 * @returns n + 1 exact coefficients.
 * @throws {RangeError} when the matrix is not square.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { characteristicPolynomial, toMatrix } from "./mod.ts";
 * // λ² − 5λ − 2 for [[1, 2], [3, 4]]
 * assert.deepEqual(characteristicPolynomial(toMatrix([[1, 2], [3, 4]])).map(String), ["-2", "-5", "1"]);
 * ```
 */
export function characteristicPolynomial(m: Matrix): Fraction[] {
  const n = m.length;
  if (m.some((r) => r.length !== n)) {
    throw new RangeError(
      "Cannot compute the characteristic polynomial: the matrix is not square",
    );
  }
  const zero = fraction(0n);
  // c[n] = 1; M_0 = 0; M_k = A·M_{k-1} + c_{n-k+1} I; c_{n-k} = -tr(A·M_k)/k
  const coeffs: Fraction[] = Array.from({ length: n + 1 }, () => zero);
  coeffs[n] = fraction(1n);
  let mk: Matrix = m.map((r) => r.map(() => zero));
  for (let k = 1; k <= n; k++) {
    const am = matMul(m, mk);
    mk = am.map((r, i) =>
      r.map((v, j) => (i === j ? v.add(coeffs[n - k + 1]!) : v))
    );
    const amk = matMul(m, mk);
    let tr = zero;
    for (let i = 0; i < n; i++) tr = tr.add(amk[i]![i]!);
    coeffs[n - k] = tr.neg().div(fraction(BigInt(k)));
  }
  return coeffs;
}
