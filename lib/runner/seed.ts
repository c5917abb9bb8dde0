/**
 * Request seeds derived from the sweep seed and the sample index.
 *
 * @module
 */

/** How the request seed is derived, recorded in the manifest. */
export const REQUEST_SEED_RULE =
  "fnv1a32(`${sweepSeed}:${sample}`) >>> 1 (a non-negative 31-bit int)";

/**
 * The `seed` sent with a request: FNV-1a of `"<sweep seed>:<sample>"`,
 * shifted to a non-negative 31-bit integer (what every endpoint accepts).
 * Same sweep seed and sample → same request seed; samples differ.
 *
 * @param sweepSeed The config's `seed`.
 * @param sample The sample index.
 * @returns An integer in [0, 2^31).
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { requestSeed } from "./seed.ts";
 * assert.equal(requestSeed(7, 0), requestSeed(7, 0));
 * assert.notEqual(requestSeed(7, 0), requestSeed(7, 1));
 * assert.ok(requestSeed(7, 1) >= 0 && requestSeed(7, 1) < 2 ** 31);
 * ```
 */
export function requestSeed(sweepSeed: number, sample: number): number {
  const text = `${sweepSeed}:${sample}`;
  let h = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) {
    h ^= text.charCodeAt(i);
    h = Math.imul(h, 0x01000193);
  }
  return (h >>> 0) >>> 1;
}
