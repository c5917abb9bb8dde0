/**
 * The linear-algebra judge: exact comparison for scalar and matrix tasks,
 * eigenvalues as multisets within a tolerance, and stage-1 forensic labels
 * for wrong answers.
 *
 * @module
 */
import type { LinalgPayload } from "./tasks.ts";
import type { Judged, Verdict } from "../../types.ts";
import { answerMatches, type EigenTolerance } from "./_compare.ts";
import { classifyLinalgError } from "./forensics.ts";
import {
  errorVerdict,
  formatValidFor,
  statusBeforeComparing,
} from "../../judge/status.ts";

export type { EigenTolerance } from "./_compare.ts";

const BOXED_RULES = new Set(["boxed", "boxed_matrix"]);

/**
 * Judges a linear-algebra extraction, on the shared status ladder
 * (`lib/judge/status.ts`; a failed request never gets here). Never throws.
 * Rows that are not correct (wrong, truncated, parse errors) carry a
 * stage-1 `errorClass`; the `explanation` starts with `stage1:`.
 * `formatValid` follows the ladder's rule; the format check is a boxed
 * answer.
 *
 * @param question The question (`payload.tolerance` sets the eigenvalue tolerance, default abs 0.01).
 * @param completion The reply.
 * @param extraction The extracted answer.
 * @returns The verdict.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { judgeLinalg } from "./score.ts";
 * const q = { id: "e", suite: "linalg", text: "", answer: { kind: "multiset" as const, value: ["4.5753", "-10.9074", "6.3321"] }, dims: {} };
 * const c = { text: "", reasoning: null, finishReason: "stop", usage: { promptTokens: 1, completionTokens: 1 }, latencyMs: 0, attempts: 1 };
 * const v = judgeLinalg({ question: q, completion: c, extraction: { value: JSON.stringify(["-10.907", "6.332", "4.575"]), rule: "boxed", span: null, candidates: 1 } });
 * assert.equal(v.status, "correct");
 * ```
 */
export function judgeLinalg(
  judged: Judged<LinalgPayload>,
): Verdict {
  const { question, completion, extraction } = judged;
  try {
    const tolerance: EigenTolerance = question.payload?.tolerance ?? {};
    const boxed = () => BOXED_RULES.has(extraction.rule);
    const ladder = statusBeforeComparing(completion, extraction);
    if (
      ladder === null && extraction.value !== null &&
      answerMatches(question.answer, extraction.value, tolerance)
    ) {
      return {
        status: "correct",
        score: 1,
        formatValid: formatValidFor({
          status: "correct",
          extraction,
          inFormat: boxed,
        }),
      };
    }
    // Not correct: stage-1 forensics label what went wrong, whatever the
    // ladder says (a truncated or unparsed reply has a label too).
    const label = classifyLinalgError({ question, completion, extraction });
    const status = ladder ?? "wrong";
    return {
      status,
      score: 0,
      formatValid: formatValidFor({ status, extraction, inFormat: boxed }),
      ...(label ? { errorClass: label.label } : {}),
      explanation: label
        ? `stage${label.stage}:${label.label}: ${label.detail}`
        : "stage1: no label",
    };
  } catch (error) {
    return errorVerdict(`Cannot judge: ${(error as Error).message}`);
  }
}
