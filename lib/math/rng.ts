/**
 * The project's seeded randomness and string hash, in one place: FNV-1a
 * ({@linkcode fnv1a32}), the murmur3 finaliser ({@linkcode mix32}),
 * mulberry32 ({@linkcode mulberry32}), draws from its uniform stream
 * ({@linkcode intBetween}, {@linkcode pick}, {@linkcode pickWeighted}) and
 * the keyed generator the question generators use ({@linkcode createRng}).
 *
 * Written by hand on purpose: the question ids and texts must stay the same
 * across versions for the same seed, so the algorithm (FNV-1a to hash the
 * key, then mulberry32) is pinned here rather than left to a library whose
 * sequence could change on upgrade; and the sim calls these ~100k times in
 * a benchmark, so each costs nanoseconds (no npm package pinned in
 * deno.json offers a seedable PRNG: mathjs' `pickRandom` and friends use a
 * global, unseeded source).
 *
 * @module
 */

/**
 * A seeded stream of uniform floats in [0, 1), as {@linkcode mulberry32}
 * returns it (the sim calls it `Rng`).
 */
export type Uniform = () => number;

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
export function mulberry32(seed: number): Uniform {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/**
 * FNV-1a (32-bit) over a string's UTF-16 code units: the project's one
 * string hash (seeds of keyed generators, of the sim's replies and of
 * request choices).
 *
 * @param text The string to hash.
 * @param basis The offset basis. @default 0x811c9dc5 (FNV's own)
 * @returns An unsigned 32-bit integer.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { fnv1a32 } from "./rng.ts";
 * assert.equal(fnv1a32(""), 0x811c9dc5);
 * assert.equal(fnv1a32("a"), 0xe40c292c);
 * assert.equal(fnv1a32("foobar"), 0xbf9cf968);
 * ```
 */
export function fnv1a32(text: string, basis = 0x811c9dc5): number {
  let h = basis >>> 0;
  for (let i = 0; i < text.length; i++) {
    h ^= text.charCodeAt(i);
    h = Math.imul(h, 0x01000193) >>> 0;
  }
  return h >>> 0;
}

/**
 * Mixes two 32-bit values into one: `a` xor `b` times the golden ratio,
 * through murmur3's finaliser.
 *
 * @param a A 32-bit value (e.g. a hash).
 * @param b Another (e.g. a seed).
 * @returns An unsigned 32-bit integer.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { mix32 } from "./rng.ts";
 * assert.equal(mix32(1, 2), mix32(1, 2));
 * assert.notEqual(mix32(1, 2), mix32(2, 1));
 * assert.equal(mix32(0, 0), 0);
 * ```
 */
export function mix32(a: number, b: number): number {
  let h = (a ^ Math.imul(b >>> 0, 0x9e3779b1)) >>> 0;
  h ^= h >>> 16;
  h = Math.imul(h, 0x85ebca6b) >>> 0;
  h ^= h >>> 13;
  h = Math.imul(h, 0xc2b2ae35) >>> 0;
  h ^= h >>> 16;
  return h >>> 0;
}

/**
 * An integer in [lo, hi], both inclusive, from one draw of `rng`.
 *
 * @param rng The uniform stream.
 * @param lo The smallest value.
 * @param hi The largest value.
 * @returns The integer.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { intBetween } from "./rng.ts";
 * assert.equal(intBetween(() => 0, 3, 9), 3);
 * assert.equal(intBetween(() => 0.999, 3, 9), 9);
 * ```
 */
export function intBetween(rng: Uniform, lo: number, hi: number): number {
  return lo + Math.floor(rng() * (hi - lo + 1));
}

/**
 * One element of a non-empty list, from one draw of `rng`.
 *
 * @param rng The uniform stream.
 * @param items The list.
 * @returns The element.
 * @throws {RangeError} When the list is empty.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { pick } from "./rng.ts";
 * assert.equal(pick(() => 0.5, ["a", "b", "c"]), "b");
 * assert.throws(() => pick(() => 0.5, []), RangeError);
 * ```
 */
export function pick<T>(rng: Uniform, items: readonly T[]): T {
  if (items.length === 0) {
    throw new RangeError("Cannot pick: the list is empty");
  }
  return items[intBetween(rng, 0, items.length - 1)] as T;
}

/**
 * A key picked by weight, from one draw of `rng`; weights ≤ 0 are never
 * picked.
 *
 * @param rng The uniform stream.
 * @param weights Each key's weight.
 * @returns The key.
 * @throws {RangeError} When no weight is positive.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { pickWeighted } from "./rng.ts";
 * assert.equal(pickWeighted(() => 0.1, { a: 1, b: 3 }), "a");
 * assert.equal(pickWeighted(() => 0.3, { a: 1, b: 3 }), "b");
 * assert.equal(pickWeighted(() => 0.1, { a: 0, b: 3 }), "b");
 * ```
 */
export function pickWeighted<K extends string>(
  rng: Uniform,
  weights: Partial<Record<K, number>>,
): K {
  let total = 0;
  for (const key in weights) total += Math.max(0, weights[key] ?? 0);
  let u = rng() * total;
  let last: K | undefined;
  for (const key in weights) {
    const w = Math.max(0, weights[key] ?? 0);
    if (w <= 0) continue;
    last = key;
    if (u < w) return key;
    u -= w;
  }
  if (last === undefined) {
    throw new RangeError("Cannot pick: no positive weight");
  }
  return last;
}

/**
 * Creates a generator seeded from a string key, e.g.
 * `"arithmetic/add/d4/s42/3"`: mulberry32 seeded with the key's
 * {@linkcode fnv1a32}. The same key always gives the same stream.
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
  const next = mulberry32(fnv1a32(key));
  const int = (lo: number, hi: number): number => intBetween(next, lo, hi);
  return {
    next,
    int,
    pick: <T>(items: readonly T[]): T => pick(next, items),
    digits(length: number, leadingNonZero = true): string {
      let out = "";
      for (let i = 0; i < length; i++) {
        out += String(i === 0 && leadingNonZero ? int(1, 9) : int(0, 9));
      }
      return out;
    },
  };
}
