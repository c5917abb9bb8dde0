/**
 * The numeric judge: a Verdict for a number extracted from a completion.
 *
 * @module
 */
import { extractNumber } from "../../extract/number.ts";
import type { Judged, Question, Verdict } from "../../types.ts";
import { classifyNumericError } from "./forensics.ts";
import {
  errorVerdict,
  formatValidFor,
  ladderVerdict,
  statusBeforeComparing,
} from "../../judge/status.ts";
import { compareNumeric, type NumericTolerance } from "../../judge/numeric.ts";
import {
  formatRational,
  parseRational,
  roundRational,
} from "../../math/rational.ts";

/**
 * Whether a reply is in an instructed numeric format: just the number
 * (direct prompts), or working whose last line is "Final answer: <number>"
 * / "答案：<number>" (chain-of-thought prompts).
 *
 * @param text The reply text (reasoning blocks are ignored).
 * @returns True for a bare number or a final answer line.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { numericFormatValid } from "./score.ts";
 * assert.equal(numericFormatValid("56088"), true);
 * assert.equal(numericFormatValid("Step 1...\nFinal answer: 56088"), true);
 * assert.equal(numericFormatValid("The product is 56088."), false);
 * ```
 */
export function numericFormatValid(text: string): boolean {
  const found = extractNumber(text);
  if (found === null) return false;
  if (found.rule === "bare") return true;
  const visible = text.replace(/<think>[\s\S]*?<\/think>/gi, "").trimEnd();
  const lines = visible.split("\n").filter((l) => l.trim() !== "");
  const last = lines[lines.length - 1] ?? "";
  return /^\s*(?:\*\*)?(?:final answer|答案)\s*[:：]\s*(?:\*\*)?\s*[-−]?[\d.,/]+%?\s*(?:\*\*)?\s*[.。]?\s*$/i
    .test(last);
}

/**
 * What an arithmetic question carries besides its text and key. Families
 * add their own operands (`a`, `b`, quantities of a word problem...), and
 * forensics reads every number in it, so the known fields are named and
 * the rest stay open.
 */
export type ArithmeticPayload = {
  family?: string;
  /** The operator, e.g. `"×"`. */
  op?: string;
  /** The operands as exact decimal strings. */
  a?: string;
  b?: string;
  /** "Round to N decimal places": the key is rounded to N places. */
  precision?: number;
  /** A tolerance for every question of a sweep (params `tolerance`). */
  tolerance?: { rel?: number | undefined; abs?: number | undefined };
  [field: string]: unknown;
};

/** An arithmetic question. */
export type ArithmeticQuestion = Question<ArithmeticPayload>;

/** Tolerance stored in a question payload by the arithmetic suite. */
function toleranceOf(
  question: ArithmeticQuestion,
): NumericTolerance | undefined {
  const t = question.payload?.tolerance;
  if (t === undefined) return undefined;
  const out: NumericTolerance = {};
  if (typeof t.rel === "number") out.rel = t.rel;
  if (typeof t.abs === "number") out.abs = t.abs;
  return out;
}

/**
 * Judges a numeric extraction against a rational key, on the shared
 * status ladder (`lib/judge/status.ts`; a failed request never gets here):
 * `truncated` when the reply hit the token limit before an explicit
 * answer, `parse_error` when no number was found, else `correct` or
 * `wrong` (with forensics and the relative error); `error` only when the
 * key is not rational or the comparison fails. `formatValid` follows the
 * ladder's rule with {@linkcode numericFormatValid} as the format check.
 * Never throws.
 *
 * @param question The question (answer kind `"rational"`; `payload.tolerance` optional).
 * @param completion The completion judged.
 * @param extraction The extraction (value: exact rational string or null).
 * @returns The verdict.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { judgeNumeric } from "./score.ts";
 * const q = { id: "q", suite: "s", text: "What is 2 + 2?", answer: { kind: "rational" as const, value: "4" }, dims: {} };
 * const c = { text: "5", reasoning: null, finishReason: "stop", usage: { promptTokens: 1, completionTokens: 1 }, latencyMs: 1, attempts: 1 };
 * const v = judgeNumeric({ question: q, completion: c, extraction: { value: "5", rule: "bare", span: [0, 1], candidates: 1 } });
 * assert.equal(v.status, "wrong");
 * assert.equal(v.errorClass, "digit");
 * ```
 */
export function judgeNumeric(
  judged: Judged<ArithmeticPayload>,
): Verdict {
  const { question, completion, extraction } = judged;
  const inFormat = () => numericFormatValid(completion.text);
  const ladder = statusBeforeComparing(completion, extraction, {
    // A stray last number in a cut-off reply is not an answer.
    trusted: extraction.rule !== "last_number",
  });
  if (ladder !== null) {
    return ladderVerdict({ status: ladder, extraction, inFormat });
  }
  const expected = question.answer.value;
  const value = extraction.value ?? "";
  if (question.answer.kind !== "rational" || typeof expected !== "string") {
    return errorVerdict(
      `Cannot judge: answer kind "${question.answer.kind}" is not rational`,
    );
  }
  try {
    const span = extraction.span;
    const written = span === null
      ? ""
      : completion.text.slice(span[0], span[1]);
    const tolerance = toleranceOf(question);
    // "Round to N decimal places": the key is the rounded value, so the
    // reply is rounded the same way first — an exact 83/6 or 13.8333 is the
    // right value (its format is judged apart), 13.84 is not.
    const precision = question.payload?.precision;
    const got = typeof precision === "number"
      ? formatRational(
        roundRational(parseRational(value), precision),
      )
      : value;
    const cmp = compareNumeric(expected, got, {
      replyIsFraction: typeof precision === "number"
        ? false
        : /\/|frac/.test(written),
      ...(tolerance === undefined ? {} : { tolerance }),
    });
    if (cmp.equal) {
      return {
        status: "correct",
        score: 1,
        formatValid: formatValidFor({
          status: "correct",
          extraction,
          inFormat,
        }),
        relError: cmp.relError,
        explanation:
          `expected ${expected}, got ${extraction.value} (${extraction.rule})`,
      };
    }
    const forensics = classifyNumericError(expected, value, { question });
    return {
      status: "wrong",
      score: 0,
      formatValid: formatValidFor({ status: "wrong", extraction, inFormat }),
      errorClass: forensics.errorClass,
      relError: forensics.relError,
      explanation:
        `expected ${expected}, got ${extraction.value} (${extraction.rule})`,
    };
  } catch (error) {
    return errorVerdict(`Cannot judge: ${(error as Error).message}`);
  }
}
