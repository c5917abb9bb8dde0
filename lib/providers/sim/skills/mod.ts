/**
 * How the sim uses skills. The first skill whose `match` accepts a request
 * answers it; when none does, the sim gives a polite non-answer. Skills
 * belong to suites (each suite folder has its `sim/`); the suite registry
 * orders them, more specific ones first: multiple choice and linear
 * algebra questions contain numbers the arithmetic skill would otherwise
 * read.
 *
 * @module
 */
import type { RegisteredSkill, SkillAnswer, SkillInput } from "./types.ts";

export * from "./types.ts";
export { passChance, passes } from "./chance.ts";

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
  skills: readonly RegisteredSkill[],
): { skill: string; answer: SkillAnswer } | null {
  for (const skill of skills) {
    const answer = skill.answer(input);
    if (answer) return { skill: skill.name, answer };
  }
  return null;
}
