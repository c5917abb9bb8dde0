/**
 * The status ladder, written once for every suite: a failed request is an
 * `error`; a question without a key is `unscored`; a reply cut at the
 * token limit without a trustworthy answer is `truncated`; a reply with no
 * answer is a `parse_error`; only then is the answer compared (`correct`
 * or `wrong`, which the suite decides).
 *
 * @module
 */
import type { Completion, Extraction, VerdictStatus } from "../types.ts";

/** Options of {@linkcode statusBeforeComparing}. */
export interface LadderOptions {
  /** The question has an answer key. @default true */
  keyed?: boolean;
  /**
   * The extracted value can be trusted even when the reply was cut at the
   * token limit (an explicit answer marker, not a stray last number).
   * @default true
   */
  trusted?: boolean;
}

/**
 * The status of a row before its answer is compared, or null when the
 * answer should be compared (the suite then says correct or wrong).
 *
 * @param completion The model's completion.
 * @param extraction What the suite's extractor found.
 * @param options Whether the question is keyed and the value trusted.
 * @returns `"error"`, `"unscored"`, `"truncated"`, `"parse_error"`, or null.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { statusBeforeComparing } from "./status.ts";
 * const c = { text: "12", reasoning: null, finishReason: "length", usage: { promptTokens: 1, completionTokens: 1 }, latencyMs: 0, attempts: 1 };
 * const e = { value: "12", rule: "last_number", span: [0, 2] as [number, number], candidates: 1 };
 * assert.equal(statusBeforeComparing(c, e, { trusted: false }), "truncated");
 * assert.equal(statusBeforeComparing(c, e), null);
 * assert.equal(statusBeforeComparing(c, { ...e, value: null }, { keyed: false }), "unscored");
 * ```
 */
export function statusBeforeComparing(
  completion: Completion,
  extraction: Extraction,
  options: LadderOptions = {},
): Exclude<VerdictStatus, "correct" | "wrong"> | null {
  const { keyed = true, trusted = true } = options;
  if (completion.error !== undefined) return "error";
  if (!keyed) return "unscored";
  if (
    completion.finishReason === "length" &&
    (extraction.value === null || !trusted)
  ) {
    return "truncated";
  }
  if (extraction.value === null) return "parse_error";
  return null;
}
