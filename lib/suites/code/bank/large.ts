/**
 * The seeded large input of a problem.
 *
 * @module
 */
import { mulberry32 } from "../../../math/rng.ts";
import type { CodeProblem } from "./types.ts";

/**
 * The argument list of size `n` from the problem's `large.js`, seeded with
 * the project's RNG (mulberry32), so the same (problem, n, seed) always
 * gives the same input.
 *
 * @param problem The problem (its id and generator).
 * @param size `n`, the input size, a non-negative integer (usually one of
 *   `large.sizes`), and `seed`, any 32-bit integer.
 * @returns The argument list to call the entry function with.
 * @throws {RangeError} When `n` is not a non-negative integer.
 * @throws {TypeError} When the generator does not return an array.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { largeInput } from "./large.ts";
 * const problem = {
 *   id: "demo",
 *   generateLarge: (n: number, rng: () => number) => [
 *     Array.from({ length: n }, () => Math.floor(rng() * 10)),
 *   ],
 * };
 * assert.deepEqual(largeInput(problem, { n: 5, seed: 1 }), largeInput(problem, { n: 5, seed: 1 }));
 * assert.equal((largeInput(problem, { n: 8, seed: 1 })[0] as number[]).length, 8);
 * ```
 */
export function largeInput(
  problem: Pick<CodeProblem, "id" | "generateLarge">,
  { n, seed }: { n: number; seed: number },
): unknown[] {
  if (!Number.isInteger(n) || n < 0) {
    throw new RangeError(
      `Cannot generate a large input for ${problem.id}: n must be a non-negative integer, got ${n}; pass one of the problem's large.sizes`,
    );
  }
  const args = problem.generateLarge(n, mulberry32(seed));
  if (!Array.isArray(args)) {
    throw new TypeError(
      `Cannot generate a large input for ${problem.id}: large.js returned ${typeof args}, not an argument list; return [arg1, arg2, ...]`,
    );
  }
  return args;
}
