/**
 * The `extract` step every suite shares: a failed completion, or a reply
 * in which the suite's finder finds nothing, is {@linkcode noExtraction};
 * otherwise the finder's answer becomes the {@linkcode Extraction}.
 *
 * @module
 */
import type { Completion, Extraction, Question, Reply } from "../types.ts";
import { numberAnswer } from "./number.ts";

/** What a suite's finder reports: its answer and how it was found. */
export interface FoundAnswer {
  /** The answer in the suite's normal form, or null (nothing usable). */
  value: string | null;
  /** The rule that fired. */
  rule: string;
  /** Where the answer is in the reply. */
  span: [number, number] | null;
  /** The candidates the finder weighed, or how many there were. */
  candidates: number | readonly unknown[];
  /** The values it could not choose between (rule `"ambiguous"`). */
  alternatives?: readonly string[];
  /** Numbers set aside as not the answer, with why (`Extraction.setAside`). */
  setAside?: readonly string[];
}

/**
 * Finds a suite's answer in a reply.
 *
 * @param text The reply's text.
 * @param question The question it answers.
 * @param completion The completion (for a finder that keeps more than the
 *   extraction, keyed by it).
 * @returns The answer, or null when the reply holds none.
 */
export type AnswerFinder<Q> = (
  text: string,
  question: Q,
  completion: Completion,
) => FoundAnswer | null;

/**
 * The extraction of a reply with no answer (or of a failed request): no
 * value, rule `"none"`, no span, no candidates.
 *
 * @returns A new empty extraction.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { noExtraction } from "./suite_extract.ts";
 * assert.deepEqual(noExtraction(), { value: null, rule: "none", span: null, candidates: 0 });
 * ```
 */
export function noExtraction(): Extraction {
  return { value: null, rule: "none", span: null, candidates: 0 };
}

/**
 * A suite's `extract` from its answer finder: a completion with an error
 * is not searched, and a reply the finder finds nothing in is
 * {@linkcode noExtraction}; otherwise the extraction is the finder's
 * value, rule, span and candidate count (its other fields are dropped).
 *
 * @param find Finds the answer in a reply's text.
 * @returns The suite's `extract(question, completion)`; never throws if
 *   `find` does not.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import type { Completion } from "../types.ts";
 * import { suiteExtract } from "./suite_extract.ts";
 * const extract = suiteExtract((text) => {
 *   const at = text.search(/[A-D]\s*$/);
 *   return at < 0 ? null : { value: text[at]!, rule: "last_letter", span: [at, at + 1], candidates: ["A", text[at]!] };
 * });
 * const reply = (text: string): Completion => ({
 *   text, reasoning: null, finishReason: "stop", usage: { promptTokens: 1, completionTokens: 1 }, latencyMs: 1, attempts: 1,
 * });
 * assert.deepEqual(extract({}, reply("So: B")), { value: "B", rule: "last_letter", span: [4, 5], candidates: 2 });
 * assert.equal(extract({}, reply("no idea")).rule, "none");
 * const failed: Completion = { ...reply(""), finishReason: "error", error: { kind: "timeout", message: "timed out" } };
 * assert.equal(extract({}, failed).value, null);
 * ```
 */
export function suiteExtract<Q>(
  find: AnswerFinder<Q>,
): (question: Q, completion: Completion) => Extraction {
  return (question, completion) => {
    if (completion.error !== undefined) return noExtraction();
    const found = find(completion.text, question, completion);
    if (found === null) return noExtraction();
    const { value, rule, span, candidates, alternatives, setAside } = found;
    const out: Extraction = {
      value,
      rule,
      span,
      candidates: typeof candidates === "number"
        ? candidates
        : candidates.length,
    };
    if (alternatives !== undefined) out.alternatives = [...alternatives];
    if (setAside !== undefined) out.setAside = [...setAside];
    return out;
  };
}

/**
 * The `extract` of a suite whose answers are numbers: the number a reply
 * gives as its answer, as an exact rational (`numberAnswer`); the
 * question's own numbers are inputs a reply may restate, not answers.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { numberExtract } from "./suite_extract.ts";
 * const q = { id: "q", suite: "s", text: "How many m are in 3 km?", answer: { kind: "rational" as const, value: "3000" }, dims: {} };
 * const c = { text: "3 km is 3,000 m. Final answer: 3000", reasoning: null, finishReason: "stop", usage: { promptTokens: 1, completionTokens: 9 }, latencyMs: 1, attempts: 1 };
 * assert.equal(numberExtract({ question: q, completion: c }).value, "3000");
 * ```
 */
export function numberExtract(reply: Reply<unknown>): Extraction {
  return readNumber(reply.question, reply.completion);
}

/** {@linkcode numberExtract}'s finder, as a suite's `extract`. */
const readNumber = suiteExtract<Question<unknown>>((text, question) =>
  numberAnswer(text, { question: question.text })
);
