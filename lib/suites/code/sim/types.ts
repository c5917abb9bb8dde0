/**
 * What the sim's code-writing skill reads from a prompt and what it
 * answers: the task, the outcomes it may choose and the answer naming one.
 *
 * @module
 */
import type { SkillAnswer } from "../../../providers/sim/skills/types.ts";
import type { RecalledHumanEval, RecalledProblem } from "./_bank.ts";
import type { CodeLanguage } from "../params.ts";

/** What the sim may write for a code prompt. */
export type CodeOutcome =
  | "reference"
  | "naive"
  | "mutant"
  | "slow"
  | "syntax_error"
  | "prose"
  | "other_language"
  | "generic";

/** A code-writing request read from a prompt. */
export interface CodeTask {
  /** The asked language (from the signature shown: `def` or `function`). */
  language: CodeLanguage;
  /** The function name in the shown signature. */
  entry: string;
  /** The signature line as shown in the prompt. */
  signatureLine: string;
  /** The bank problem of that name, when the sim recognises it. */
  problem: RecalledProblem | null;
  /** The HumanEval problem of that name and prompt, when it recognises one. */
  humanEval: RecalledHumanEval | null;
  /** The prompt asks for the approach before the code (the `plan` template). */
  plan: boolean;
  /** The prompt is in Chinese. */
  chinese: boolean;
}

/** A skill answer that also says which outcome the sim chose. */
export interface CodeAnswer extends SkillAnswer {
  /** What the sim chose to write (the reference, a mutant, prose, ...). */
  outcome: CodeOutcome;
}
