/**
 * Seeded randomness for the simulated model.
 *
 * Written by hand rather than taken from a library: the sim needs a
 * 32-bit string hash and a tiny seedable generator that cost nanoseconds
 * per call (simChat runs ~100k times in a benchmark), and no npm package
 * pinned in deno.json offers a seedable PRNG (mathjs' `pickRandom` and
 * friends use a global, unseeded source).
 *
 * @module
 */
import { mulberry32 as shared } from "../../math/rng.ts";

/** A generator of uniform floats in [0, 1). */
export type Rng = () => number;

/** FNV-1a 32-bit hash of a string's UTF-16 code units. */
export function hash32(text: string, basis = 0x811c9dc5): number {
  let h = basis >>> 0;
  for (let i = 0; i < text.length; i++) {
    h ^= text.charCodeAt(i);
    h = Math.imul(h, 0x01000193) >>> 0;
  }
  return h >>> 0;
}

/** Mixes two 32-bit values into one (murmur3 finaliser). */
export function mix32(a: number, b: number): number {
  let h = (a ^ Math.imul(b >>> 0, 0x9e3779b1)) >>> 0;
  h ^= h >>> 16;
  h = Math.imul(h, 0x85ebca6b) >>> 0;
  h ^= h >>> 13;
  h = Math.imul(h, 0xc2b2ae35) >>> 0;
  h ^= h >>> 16;
  return h >>> 0;
}

/** mulberry32 (the project's one implementation, in lib/generators/rng.ts). */
export function mulberry32(seed: number): Rng {
  return shared(seed);
}

/** Picks one element of a non-empty list. */
export function pick<T>(rng: Rng, items: readonly T[]): T {
  const item = items[Math.floor(rng() * items.length)];
  if (item === undefined) throw new RangeError("Cannot pick: empty list");
  return item;
}

/** Picks a key by weight; weights ≤ 0 are never picked. */
export function pickWeighted<K extends string>(
  rng: Rng,
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

/** An integer in [lo, hi] inclusive. */
export function intBetween(rng: Rng, lo: number, hi: number): number {
  return lo + Math.floor(rng() * (hi - lo + 1));
}
