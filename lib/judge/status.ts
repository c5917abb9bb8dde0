/**
 * The status ladder, written once for every suite. A row's status is the
 * first rung that holds, in the order of {@linkcode STATUSES}:
 *
 * 1. `error`: the request failed for good (or the judge could not judge).
 *    The runner's `finishRow` gives a failed request its
 *    {@linkcode errorVerdict} before any suite sees it, so a suite's
 *    `score` only ever gets completions without `error`.
 * 2. `unscored`: the question has no answer key.
 * 3. `truncated`: the reply was cut at the token limit without a
 *    trustworthy answer.
 * 4. `parse_error`: the reply holds no answer.
 * 5. `wrong` or `correct`: the suite compares the answer with the key.
 *
 * Rungs 2–4 are {@linkcode statusBeforeComparing}; `format_valid` follows
 * one rule for every suite, {@linkcode formatValidFor}.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { formatValidFor, STATUSES } from "./status.ts";
 * assert.deepEqual(STATUSES, ["error", "unscored", "truncated", "parse_error", "wrong", "correct"]);
 * const found = { value: "12", rule: "bare", span: [0, 2] as [number, number], candidates: 1 };
 * assert.equal(formatValidFor({ status: "parse_error", extraction: found, inFormat: () => true }), false);
 * assert.equal(formatValidFor({ status: "wrong", extraction: found, inFormat: () => true }), true);
 * ```
 *
 * @module
 */
import type {
  Completion,
  Extraction,
  Verdict,
  VerdictStatus,
} from "../types.ts";

/**
 * Every verdict status, in the order the ladder decides them: a row has
 * the first one that holds.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { STATUSES } from "./status.ts";
 * assert.equal(STATUSES[0], "error");
 * assert.equal(STATUSES.at(-1), "correct");
 * ```
 */
export const STATUSES = [
  "error",
  "unscored",
  "truncated",
  "parse_error",
  "wrong",
  "correct",
] as const satisfies readonly VerdictStatus[];

// Fails to compile when STATUSES misses a VerdictStatus or names another.
const _everyStatus: [VerdictStatus, (typeof STATUSES)[number]] extends
  [(typeof STATUSES)[number], VerdictStatus] ? true : false = true;

/**
 * Whether a row of each status keeps an answer whose format counts: not
 * when the request or the judge failed, the reply was cut before a
 * trustworthy answer, or no answer was found.
 */
const KEEPS_ANSWER: Readonly<Record<VerdictStatus, boolean>> = {
  error: false,
  unscored: true,
  truncated: false,
  parse_error: false,
  wrong: true,
  correct: true,
};

/**
 * The statuses of a row that reached its suite but holds no answer to
 * compare: the reply was cut before a trustworthy answer, or held none
 * (rungs 3 and 4 of the ladder, in its order). A suite's tables count
 * these as extraction failures.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { NO_ANSWER_STATUSES } from "./status.ts";
 * assert.deepEqual(NO_ANSWER_STATUSES, ["truncated", "parse_error"]);
 * ```
 */
export const NO_ANSWER_STATUSES: readonly VerdictStatus[] = STATUSES.filter(
  (s) => s !== "error" && !KEEPS_ANSWER[s],
);

/**
 * The statuses of a row that counts and is not correct, in ladder order:
 * a failed request, a cut reply, a reply without an answer, a wrong one.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { FAILED_STATUSES } from "./status.ts";
 * assert.deepEqual(FAILED_STATUSES, ["error", "truncated", "parse_error", "wrong"]);
 * ```
 */
export const FAILED_STATUSES: readonly VerdictStatus[] = STATUSES.filter(
  (s) => s !== "correct" && s !== "unscored",
);

/**
 * The one rule for a verdict's `formatValid` (the row's `format_valid`),
 * used by every suite. A row is format-valid only when it has an answer
 * and the suite says the reply gave it in the format the prompt asked for:
 *
 * - `error`, `truncated` and `parse_error` rows are never format-valid;
 * - `correct` and `wrong` rows are format-valid when `inFormat()` says so;
 * - `unscored` rows (no key) likewise, when an answer was extracted.
 *
 * A row whose extraction has no value is never format-valid, whatever its
 * status; `inFormat` is not called then.
 *
 * @param row The row's `status`; `extraction`, what the suite's extractor
 *   found; and `inFormat`, the suite's own check that the reply is in the
 *   instructed format (just the number, a final answer line, a fenced
 *   block...), called only when the status lets the format count.
 * @returns The verdict's `formatValid`.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { formatValidFor } from "./status.ts";
 * const found = { value: "B", rule: "bare", span: [0, 1] as [number, number], candidates: 1 };
 * const none = { value: null, rule: "none", span: null, candidates: 0 };
 * assert.equal(formatValidFor({ status: "correct", extraction: found, inFormat: () => true }), true);
 * assert.equal(formatValidFor({ status: "wrong", extraction: found, inFormat: () => false }), false);
 * assert.equal(formatValidFor({ status: "unscored", extraction: found, inFormat: () => true }), true);
 * assert.equal(formatValidFor({ status: "unscored", extraction: none, inFormat: () => true }), false);
 * assert.equal(formatValidFor({ status: "truncated", extraction: found, inFormat: () => true }), false);
 * assert.equal(formatValidFor({ status: "error", extraction: found, inFormat: () => true }), false);
 * ```
 */
export function formatValidFor(
  { status, extraction, inFormat }: {
    status: VerdictStatus;
    extraction: Extraction;
    inFormat: () => boolean;
  },
): boolean {
  return KEEPS_ANSWER[status] && extraction.value !== null && inFormat();
}

/** The fields of a row that say whether it is scored (see {@linkcode isScored}). */
export interface ScoredFields {
  /** The row's status (missing on a hand-made row: it counts). */
  status?: string | null;
  /** The row's answer key as text (missing on a hand-made row: it counts). */
  expected?: string | null;
}

/**
 * The one rule for which rows are scored: a row counts for accuracy and
 * every suite's declared metrics when its question has an answer key.
 * Not when the suite marked it `unscored`, and not when its `expected`
 * is empty: a failed request never reaches the suite, so an error row of
 * a question without a key (C-Eval's withheld test split) says so only
 * through its empty key. An error row of a keyed question counts (as not
 * correct). The overview, the sweep's closing table, `summary.csv`, the
 * notebooks and the suites' own tables all apply this rule (on a frame
 * through the report's `scoredRows`, which asks this function once per
 * kind of row). It reads `expected` only for whether it is empty.
 *
 * @param row The row (or just its `status` and `expected`).
 * @returns Whether the row is scored.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { isScored } from "./status.ts";
 * assert.equal(isScored({ status: "wrong", expected: "4" }), true);
 * assert.equal(isScored({ status: "error", expected: "4" }), true);
 * assert.equal(isScored({ status: "unscored", expected: "" }), false);
 * assert.equal(isScored({ status: "error", expected: "" }), false);
 * assert.equal(isScored({}), true);
 * ```
 */
export function isScored(row: ScoredFields): boolean {
  return row.status !== "unscored" && row.expected !== "";
}

/**
 * The verdict of a row that could not be judged: a request that failed for
 * good (the runner's `finishRow` makes these) or a judge that failed (a
 * suite may return one). Scores 0 and is never format-valid.
 *
 * @param message Why: the request's error message, or the judge's.
 * @returns An `error` verdict with `message` as its explanation.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { errorVerdict } from "./status.ts";
 * const v = errorVerdict("timed out");
 * assert.equal(v.status, "error");
 * assert.equal(v.formatValid, false);
 * assert.equal(v.explanation, "timed out");
 * ```
 */
export function errorVerdict(message: string): Verdict {
  return {
    status: "error",
    score: 0,
    formatValid: false,
    explanation: message,
  };
}

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

/** A status {@linkcode statusBeforeComparing} can give. */
export type StatusBeforeComparing = "unscored" | "truncated" | "parse_error";

/**
 * The status of a row before its answer is compared (rungs 2–4 of the
 * ladder), or null when the answer should be compared (the suite then
 * says correct or wrong). For a completion that did not fail: a failed
 * request never reaches a suite (see the module doc).
 *
 * @param completion The model's completion (without `error`).
 * @param extraction What the suite's extractor found.
 * @param options Whether the question is keyed and the value trusted;
 *   without `keyed: false` the status is never `"unscored"`.
 * @returns `"unscored"`, `"truncated"`, `"parse_error"`, or null.
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
  options?: LadderOptions & { keyed?: true },
): Exclude<StatusBeforeComparing, "unscored"> | null;
/** With `keyed: false`, an unkeyed question gives `"unscored"`. */
export function statusBeforeComparing(
  completion: Completion,
  extraction: Extraction,
  options: LadderOptions,
): StatusBeforeComparing | null;
export function statusBeforeComparing(
  completion: Completion,
  extraction: Extraction,
  options: LadderOptions = {},
): StatusBeforeComparing | null {
  const { keyed = true, trusted = true } = options;
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

/**
 * Why an extraction holds no value, in words for a row's explanation: an
 * ambiguous reply names the values it gave, a refusal says so, anything
 * else found no answer.
 *
 * @param extraction An extraction without a value.
 * @returns The explanation.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { noAnswerWhy } from "./status.ts";
 * const ambiguous = { value: null, rule: "ambiguous", span: null, candidates: 2, alternatives: ["13", "12"] };
 * assert.equal(noAnswerWhy(ambiguous), "ambiguous: the reply gives 13 and 12, and nothing settles which");
 * assert.equal(noAnswerWhy({ value: null, rule: "none", span: null, candidates: 0 }), "no answer found in the reply");
 * ```
 */
export function noAnswerWhy(extraction: Extraction): string {
  if (extraction.rule === "ambiguous") {
    const values = extraction.alternatives ?? [];
    return `ambiguous: the reply gives ${
      values.length > 0 ? values.join(" and ") : "several answers"
    }, and nothing settles which`;
  }
  if (extraction.rule === "refusal") {
    return "the reply declines to answer and states no answer of its own";
  }
  return "no answer found in the reply";
}

/**
 * The verdict of a reply the ladder stopped before comparing (truncated,
 * or no answer): no score, `formatValid` by {@linkcode formatValidFor},
 * and why in words.
 *
 * @param row `status`, what {@linkcode statusBeforeComparing} gave
 *   ("unscored" is the caller's to handle: it has a key of its own to
 *   explain); `extraction`, the extraction; and `inFormat`, whether the reply
 *   is in the instructed format.
 * @returns The verdict.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { ladderVerdict } from "./status.ts";
 * const v = ladderVerdict({ status: "parse_error", extraction: { value: null, rule: "none", span: null, candidates: 0 }, inFormat: () => false });
 * assert.deepEqual([v.status, v.score, v.formatValid], ["parse_error", 0, false]);
 * ```
 */
export function ladderVerdict(
  { status, extraction, inFormat }: {
    status: "truncated" | "parse_error";
    extraction: Extraction;
    inFormat: () => boolean;
  },
): Verdict {
  return {
    status,
    score: 0,
    formatValid: formatValidFor({ status, extraction, inFormat }),
    explanation: status === "truncated"
      ? "the reply hit the token limit before an answer"
      : noAnswerWhy(extraction),
  };
}
