/**
 * The sim's skill registry. The first skill whose `match` accepts a
 * request answers it; when none does, the sim gives a polite non-answer.
 * More specific skills go first: multiple choice and linear algebra
 * questions contain numbers the arithmetic skill would otherwise read.
 *
 * @module
 */
import { arithmeticSkill } from "./arithmetic.ts";
import { linalgSkill } from "./linalg.ts";
import { multipleChoiceSkill } from "./multiple_choice.ts";
import type { RegisteredSkill, SkillAnswer, SkillInput } from "./types.ts";

export * from "./types.ts";
export { passChance, passes } from "./chance.ts";
export { arithmeticSkill } from "./arithmetic.ts";
export { multipleChoiceSkill } from "./multiple_choice.ts";
export { linalgSkill } from "./linalg.ts";

/** The skills, in the order they are tried. */
export const SIM_SKILLS: readonly RegisteredSkill[] = [
  // linalgSkill, multipleChoiceSkill: added by their authors, before arithmetic.
  multipleChoiceSkill,
  linalgSkill,
  arithmeticSkill,
];

/**
 * Answers with the first matching skill.
 *
 * @param input The request as skills see it.
 * @param skills The registry to use.
 * @returns The skill's name and answer, or null when no skill matches.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { defineSkill, findSkillAnswer } from "../mod.ts";
 *
 * const yes = defineSkill({
 *   name: "yes",
 *   match: () => true,
 *   solve: () => ({ answer: "yes", numeric: false, steps: [], difficulty: 0 }),
 * });
 * // deno-lint-ignore no-explicit-any
 * const found = findSkillAnswer({} as any, [yes]);
 * assert.equal(found?.skill, "yes");
 * ```
 */
export function findSkillAnswer(
  input: SkillInput,
  skills: readonly RegisteredSkill[] = SIM_SKILLS,
): { skill: string; answer: SkillAnswer } | null {
  for (const skill of skills) {
    const answer = skill.answer(input);
    if (answer) return { skill: skill.name, answer };
  }
  return null;
}
