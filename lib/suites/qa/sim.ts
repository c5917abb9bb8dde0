/**
 * What the simulated model can answer of a user's questions: the ones a
 * model would work out as arithmetic (the arithmetic suite's reading of a
 * prompt) and multiple-choice questions (the C-Eval suite's reading, which
 * solves the options it can and guesses the rest). Anything else gets the
 * sim's non-answer, and the sweep says so.
 *
 * @module
 */
import { arithmeticSkill } from "../arithmetic/sim/skill.ts";
import { multipleChoiceSkill } from "../ceval/sim/skill.ts";
import type { RegisteredSkill } from "../../providers/sim/mod.ts";

/**
 * The sim's skill for qa prompts: multiple choice first (a question with
 * an option block), then arithmetic.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { qaSkill } from "./sim.ts";
 * assert.equal(qaSkill.name, "qa");
 * ```
 */
export const qaSkill: RegisteredSkill = {
  name: "qa",
  answer: (input) =>
    multipleChoiceSkill.answer(input) ?? arithmeticSkill.answer(input),
};
