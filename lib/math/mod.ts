/**
 * Exact linear algebra over BigInt rationals (fraction.js): trace,
 * transpose, products, powers, rank, nullity, determinant, characteristic
 * polynomial and eigenvalues (exact where rational, otherwise to 15
 * significant digits from exact isolating intervals).
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { determinant, eigenvalueList, rank, toMatrix } from "./mod.ts";
 * const a = toMatrix([[2, 1], [1, 2]]);
 * assert.equal(determinant(a).toString(), "3");
 * assert.equal(rank(a), 2);
 * assert.deepEqual(eigenvalueList(a), ["1", "3"]);
 * ```
 *
 * @module
 */
export * from "./rational.ts";
export * from "./rng.ts";
export * from "./matrix.ts";
export * from "./rank.ts";
export * from "./charpoly.ts";
export * from "./roots.ts";
export * from "./eigen.ts";
export * from "./expr.ts";
