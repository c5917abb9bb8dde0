/**
 * The skill interface: how the sim recognises and solves a kind of
 * question. A skill `match`es a request (returning a task, or null when it
 * does not apply) and `solve`s the task into a {@linkcode SkillAnswer};
 * the sim renders that answer in the format the prompt asked for.
 *
 * @module
 */
import type { Instructions } from "../instructions.ts";
import type { Uniform } from "../rng.ts";
import type { SimProfile, SimRequest } from "../types.ts";

export type { Instructions, Uniform };

/** Everything a skill may read. Skills answer only from the prompt. */
export interface SkillInput {
  /** The request as received. */
  request: SimRequest;
  /** The profile of the requested model. */
  profile: SimProfile;
  /** The last user message's text. */
  question: string;
  /** All system messages' text, joined by newlines ("" if none). */
  system: string;
  /** Format instructions parsed from the prompt (answer marker, style...). */
  instructions: Instructions;
  /** The request's temperature (0 when absent). */
  temperature: number;
  /** Seeded by the request and its seed. */
  rng: Uniform;
}

/** A skill's answer, before formatting. */
export interface SkillAnswer {
  /** The answer written plainly ("14198", "B", "[[1, 2], [3, 4]]"), or null when unsure. */
  answer: string | null;
  /** The answer is a number that may be written with thousands separators. */
  numeric: boolean;
  /** The problem restated briefly ("4821 + 9377"), for prose. */
  restatement?: string;
  /**
   * Working lines, in order (shown for CoT prompts and in reasoning).
   * Lines indented by two spaces are detail (e.g. long multiplication
   * rows): kept in reasoning, left out of a visible CoT answer.
   */
  steps: string[];
  /** Set to refuse instead of answering. */
  refusal?: string;
  /** An expression a `calculator` tool could evaluate, if any. */
  toolExpression?: string;
  /** Effective difficulty (about digits of an n×n product). */
  difficulty: number;
  /**
   * Set when the answer is a block that stands on its own (a listing, a
   * table, a letter): the reply shows it as written, between an optional
   * lead-in line and an optional one-line note in the profile's voice,
   * instead of inside an answer sentence ("The answer is …"). Format
   * instructions for a final answer line (markers, \boxed{}, JSON) do not
   * apply to it.
   */
  block?: {
    /** Lead-in lines a writer may put before the block; one is picked, or none. */
    leads: readonly string[];
    /** One-line notes that may follow it; one is picked, or none. */
    notes: readonly string[];
  };
}

/** A skill: `match` then `solve`. */
export interface SimSkill<T> {
  /** The skill's name, unique among the registered skills. */
  name: string;
  /** The task this request poses, or null when the skill does not apply. */
  match(input: SkillInput): T | null;
  /**
   * Solves the task, with the profile's mistakes; or declines it (null),
   * and the sim tries the next skill, as if `match` had not applied.
   */
  solve(task: T, input: SkillInput): SkillAnswer | null;
}

/** A skill with its task type hidden, as the registry holds it. */
export interface RegisteredSkill {
  /** The skill's name, unique in the registry. */
  name: string;
  /** Matches and solves in one go; null when the skill does not apply. */
  answer(input: SkillInput): SkillAnswer | null;
}

/**
 * Wraps a typed skill for the registry.
 *
 * @param skill The skill.
 * @returns The skill with its task type hidden.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { defineSkill } from "../mod.ts";
 *
 * const echo = defineSkill({
 *   name: "echo",
 *   match: (input) => input.question.startsWith("echo ") ? input.question.slice(5) : null,
 *   // Declines what it cannot say back: the sim tries its next skill.
 *   solve: (task) => task === "" ? null : ({ answer: task, numeric: false, steps: [], difficulty: 0 }),
 * });
 * assert.equal(echo.name, "echo");
 * // deno-lint-ignore no-explicit-any
 * const asked = (question: string) => echo.answer({ question } as any);
 * assert.equal(asked("echo hi")?.answer, "hi");
 * assert.equal(asked("echo "), null);
 * ```
 */
export function defineSkill<T>(skill: SimSkill<T>): RegisteredSkill {
  return {
    name: skill.name,
    answer(input) {
      const task = skill.match(input);
      return task === null ? null : skill.solve(task, input);
    },
  };
}
