/**
 * The one place that turns a problem's size into "did the profile get it
 * right this time?", for every skill.
 *
 * @module
 */
import { averagePassRate } from "../calibration.ts";
import type { SkillInput } from "./types.ts";

/**
 * The chance that a profile gets one step of effective size `size` right
 * at a temperature: `averagePassRate(size − skillShift) × (1 − slipRate)`,
 * raised to `1 + 0.3·min(T, 2)` (hotter sampling slips more).
 *
 * @param input The skill input (profile and temperature are read).
 * @param size Effective size on the calibration scale (an n×n-digit product is n).
 * @returns A probability in [0, 1].
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { getSimProfile, passChance, type SkillInput } from "../mod.ts";
 *
 * const input = { profile: getSimProfile("sim-average"), temperature: 0 } as SkillInput;
 * assert.equal(passChance(input, 4), 0.66);
 * const strong = { ...input, profile: getSimProfile("sim-strong") };
 * assert.ok(passChance(strong, 4) > 0.9);
 * ```
 */
export function passChance(
  input: Pick<SkillInput, "profile" | "temperature">,
  size: number,
): number {
  const { profile, temperature } = input;
  const pass = averagePassRate(size - profile.skillShift) *
    (1 - profile.slipRate);
  return Math.pow(pass, 1 + 0.3 * Math.min(Math.max(temperature, 0), 2));
}

/**
 * Draws whether one step of effective size `size` comes out right. Skills
 * draw once per step, in a fixed order, so replies stay deterministic.
 *
 * @param input The skill input (its seeded `rng` is used).
 * @param size Effective size on the calibration scale.
 * @returns True when the step is right.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { getSimProfile, passes, type SkillInput } from "../mod.ts";
 *
 * const input = {
 *   profile: getSimProfile("sim-average"),
 *   temperature: 0,
 *   rng: () => 0.5,
 * } as SkillInput;
 * assert.equal(passes(input, 2), true); // 0.5 < 0.96
 * assert.equal(passes(input, 6), false); // 0.5 ≥ 0.24
 * ```
 */
export function passes(
  input: Pick<SkillInput, "profile" | "temperature" | "rng">,
  size: number,
): boolean {
  return input.rng() < passChance(input, size);
}
