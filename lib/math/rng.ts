/**
 * A small seeded random number generator for question generators.
 *
 * Written by hand on purpose: the question ids and texts must stay the same
 * across versions for the same seed, so the algorithm (FNV-1a to hash the
 * key, then mulberry32) is pinned here rather than left to a library whose
 * sequence could change on upgrade.
 *
 * @module
 */

/** A deterministic stream of random choices. */
export interface Rng {
  /** A float in [0, 1). */
  next(): number;
  /** An integer in [lo, hi], both inclusive. */
  int(lo: number, hi: number): number;
  /** One element of a non-empty array. */
  pick<T>(items: readonly T[]): T;
  /** A decimal digit string of exactly `length` digits (no leading zero when `leadingNonZero`). */
  digits(length: number, leadingNonZero?: boolean): string;
}

/**
 * mulberry32: a small, fast, well-distributed 32-bit generator; the one
 * seeded uniform stream every part of the project uses (generators, the
 * sim, the bootstrap, test fixtures), so its sequence is pinned in one place.
 *
 * @param seed Any 32-bit integer.
 * @returns A function giving floats in [0, 1).
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { mulberry32 } from "./rng.ts";
 * const a = mulberry32(7), b = mulberry32(7);
 * assert.equal(a(), b());
 * assert.ok(a() < 1);
 * ```
 */
export function mulberry32(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** FNV-1a over UTF-16 code units: a 32-bit hash of the key. */
function hashKey(key: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < key.length; i++) {
    h ^= key.charCodeAt(i);
    h = Math.imul(h, 0x01000193) >>> 0;
  }
  return h >>> 0;
}

/**
 * Creates a generator seeded from a string key, e.g.
 * `"arithmetic/add/d4/s42/3"`. The same key always gives the same stream.
 *
 * @param key Any string; usually the question id without its language.
 * @returns The generator.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { createRng } from "./rng.ts";
 * const a = createRng("k"), b = createRng("k");
 * assert.equal(a.digits(12), b.digits(12));
 * assert.match(createRng("x").digits(5), /^[1-9]\d{4}$/);
 * ```
 */
export function createRng(key: string): Rng {
  const next = mulberry32(hashKey(key));
  const int = (lo: number, hi: number): number =>
    lo + Math.floor(next() * (hi - lo + 1));
  return {
    next,
    int,
    pick<T>(items: readonly T[]): T {
      if (items.length === 0) {
        throw new RangeError("Cannot pick: the list is empty");
      }
      return items[int(0, items.length - 1)] as T;
    },
    digits(length: number, leadingNonZero = true): string {
      let out = "";
      for (let i = 0; i < length; i++) {
        out += String(i === 0 && leadingNonZero ? int(1, 9) : int(0, 9));
      }
      return out;
    },
  };
}
