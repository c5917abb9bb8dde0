/**
 * The numeric judge any suite with exact rational keys can score with:
 * the shared status ladder (truncated, refused, no answer), then the
 * reply against the key in exact arithmetic ({@linkcode compareNumeric}).
 * Suites with their own forensics (arithmetic's error classes) build on
 * the same two parts.
 *
 * @module
 */
import type { Judged, Verdict } from "../types.ts";
import { compareNumeric, type NumericTolerance } from "./numeric.ts";
import {
  errorVerdict,
  formatValidFor,
  ladderVerdict,
  statusBeforeComparing,
} from "./status.ts";

/** How {@linkcode judgeNumber} compares and what counts as in format. */
export interface JudgeNumberOptions {
  /** Tolerances. @default exact for integer keys, relative 1e-9 otherwise */
  tolerance?: NumericTolerance;
  /** Whether the reply is in the format the prompt asked for. @default always */
  inFormat?: (text: string) => boolean;
}

/**
 * Scores an extracted number against a question's rational key, exactly.
 *
 * @param judged The question (its `answer` must be `{ kind: "rational" }`),
 *   the completion and what the suite's `extract` read (a rational string).
 * @param options Tolerance and the format check.
 * @returns The verdict; an error verdict for a key that is not rational.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { judgeNumber } from "./number_judge.ts";
 * const q = { id: "q", suite: "s", text: "3/4 as a decimal?", answer: { kind: "rational" as const, value: "3/4" }, dims: {} };
 * const c = { text: "0.75", reasoning: null, finishReason: "stop", usage: { promptTokens: 1, completionTokens: 1 }, latencyMs: 1, attempts: 1 };
 * const judged = (value: string | null) => ({ question: q, completion: c, extraction: { value, rule: value === null ? "none" : "bare", span: null, candidates: 1 } });
 * assert.equal(judgeNumber(judged("0.75")).status, "correct");
 * assert.equal(judgeNumber(judged("0.7")).status, "wrong");
 * assert.equal(judgeNumber(judged(null)).status, "parse_error");
 * ```
 */
export function judgeNumber(
  judged: Judged<unknown>,
  options: JudgeNumberOptions = {},
): Verdict {
  const { question, completion, extraction } = judged;
  const inFormat = () => options.inFormat?.(completion.text) ?? true;
  const ladder = statusBeforeComparing(completion, extraction);
  if (ladder !== null) {
    return ladderVerdict({ status: ladder, extraction, inFormat });
  }
  const key = question.answer.value;
  if (question.answer.kind !== "rational" || typeof key !== "string") {
    return errorVerdict(
      `Cannot judge: answer kind "${question.answer.kind}" is not rational`,
    );
  }
  let equal: boolean, relError: number;
  try {
    ({ equal, relError } = compareNumeric(key, extraction.value ?? "", {
      ...(options.tolerance === undefined
        ? {}
        : { tolerance: options.tolerance }),
    }));
  } catch (error) {
    return errorVerdict(`Cannot judge: ${(error as Error).message}`);
  }
  const status = equal ? "correct" : "wrong";
  return {
    status,
    score: equal ? 1 : 0,
    formatValid: formatValidFor({ status, extraction, inFormat }),
    relError,
    explanation:
      `expected ${key}, got ${extraction.value} (${extraction.rule})`,
  };
}
