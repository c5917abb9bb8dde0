/**
 * Known accuracy curves for testing the adaptive design, and seeded draws:
 * the sim's calibrated multiplication curve per profile (`passChance` at
 * temperature 0: an n×n-digit product has effective size n), and its true
 * crossing, interpolated linearly in log-odds between the two digit counts
 * around it (questions come in whole digits, so that is all the curve
 * shows between them).
 *
 * @module
 */
import { passChance } from "../../lib/providers/sim/skills/chance.ts";
import { getSimProfile } from "../../lib/providers/sim/profiles.ts";
import { mulberry32 } from "../../lib/math/rng.ts";

/** The sizes the tests ask: 1 to 12 digits. */
export const SIZES: number[] = Array.from({ length: 12 }, (_, i) => i + 1);

const logit = (p: number) => Math.log(p / (1 - p));

/** Seeded uniform draws: the project's mulberry32. */
export const uniform: typeof mulberry32 = mulberry32;

/** A sim profile's chance of a correct n×n-digit product. */
export function simCurve(name: string): (x: number) => number {
  const profile = getSimProfile(name);
  return (x) => passChance({ profile, temperature: 0 }, x);
}

/** Where the curve falls through `target` between two whole sizes. */
export function trueCrossing(
  curve: (x: number) => number,
  target = 0.5,
): number {
  for (const x of SIZES) {
    const [p, q] = [curve(x), curve(x + 1)];
    if (p >= target && q < target) {
      const a = logit(p) - logit(target), b = logit(q) - logit(target);
      return x + a / (a - b);
    }
  }
  throw new Error("the curve does not cross the target within the sizes");
}
