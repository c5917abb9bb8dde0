/**
 * Flattening one finished (model, question, template, sample) into a row.
 *
 * @module
 */
import type {
  Answer,
  ChatMessage,
  Completion,
  Extraction,
  Question,
  ResultRow,
  Verdict,
} from "../types.ts";

/** Everything one row is made of. */
export interface RowInput {
  /** The run's name (the row's `run`). */
  run: string;
  /** The model's name in the sweep config (part of the row key). */
  model: string;
  /** The question asked. */
  question: Question;
  /** The template id the prompt was rendered with. */
  template: string;
  /** The sample index (part of the row key). */
  sample: number;
  /**
   * The messages of the first request as sent (the row's `prompt`, as
   * JSON); null when unknown.
   */
  messages: readonly ChatMessage[] | null;
  /** What the model returned, or the error completion of a failed request. */
  completion: Completion;
  /** null when the completion failed (nothing to extract). */
  extraction: Extraction | null;
  /** The suite's judgement of the extraction (or an error verdict). */
  verdict: Verdict;
  /** When the row was finished (the row's `finished_at`). */
  finishedAt: Date;
}

/** The parts of a row key. */
export interface RowKeyParts {
  /** The model's name. */
  model: string;
  /** The question's id. */
  question: string;
  /** The template's id. */
  template: string;
  /** The sample index. */
  sample: number;
}

/**
 * The key of a row: `model|question_id|template|sample`.
 *
 * @param parts The model, question id, template id and sample.
 * @returns The key.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { rowKey } from "./row.ts";
 * assert.equal(rowKey({ model: "m", question: "q1", template: "direct", sample: 2 }), "m|q1|direct|2");
 * ```
 */
export function rowKey(parts: RowKeyParts): string {
  return `${parts.model}|${parts.question}|${parts.template}|${parts.sample}`;
}

/**
 * The answer key as one string: the value for rationals, letters and text;
 * JSON for matrices and multisets.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { answerText } from "./row.ts";
 * assert.equal(answerText({ kind: "rational", value: "-3/4" }), "-3/4");
 * assert.equal(answerText({ kind: "matrix", value: [["1", "2"]] }), '[["1","2"]]');
 * ```
 */
export function answerText(answer: Answer): string {
  switch (answer.kind) {
    case "matrix":
    case "multiset":
      return JSON.stringify(answer.value);
    default:
      return answer.value;
  }
}

/**
 * Builds the flat result row. Pure: the same input gives the same row.
 *
 * @param input The question, completion, extraction and verdict.
 * @returns The row to append to `results.jsonl`.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { toResultRow } from "./row.ts";
 * const row = toResultRow({
 *   run: "r", model: "m", template: "direct", sample: 0,
 *   messages: [{ role: "user", content: "What is 2+2?" }],
 *   question: { id: "q1", suite: "arithmetic", text: "2+2", answer: { kind: "rational", value: "4" }, dims: { digits: 1 } },
 *   completion: { text: "4", reasoning: null, finishReason: "stop", usage: { promptTokens: 5, completionTokens: 1 }, latencyMs: 3, attempts: 1 },
 *   extraction: { value: "4", rule: "last_number", span: [0, 1], candidates: 1 },
 *   verdict: { status: "correct", score: 1, formatValid: true },
 *   finishedAt: new Date(0),
 * });
 * assert.equal(row.key, "m|q1|direct|0");
 * assert.equal(row.correct, true);
 * assert.equal(row.expected, "4");
 * assert.equal(row.cached, false);
 * assert.deepEqual(JSON.parse(row.prompt!), [{ role: "user", content: "What is 2+2?" }]);
 * // What the extraction set aside goes with the row, for the viewer.
 * const restated = toResultRow({
 *   run: "r", model: "m", template: "direct", sample: 0, messages: null,
 *   question: { id: "q2", suite: "arithmetic", text: "2+2", answer: { kind: "rational", value: "4" }, dims: {} },
 *   completion: { text: "2+2 = 4", reasoning: null, finishReason: "stop", usage: { promptTokens: 5, completionTokens: 3 }, latencyMs: 3, attempts: 1 },
 *   extraction: { value: "4", rule: "last_number", span: [6, 7], candidates: 2, setAside: ["2: restates the question"] },
 *   verdict: { status: "correct", score: 1, formatValid: true },
 *   finishedAt: new Date(0),
 * });
 * assert.equal(restated.metrics.set_aside, "2: restates the question");
 * ```
 */
export function toResultRow(input: RowInput): ResultRow {
  const {
    run,
    model,
    question,
    template,
    sample,
    messages,
    completion,
    extraction,
    verdict,
  } = input;
  return {
    key: rowKey({ model, question: question.id, template, sample }),
    run,
    model,
    suite: question.suite,
    question_id: question.id,
    template,
    sample,
    dims: question.dims,
    question: question.text,
    prompt: messages === null ? null : JSON.stringify(messages),
    expected: answerText(question.answer),
    status: verdict.status,
    correct: verdict.status === "correct",
    score: verdict.score,
    format_valid: verdict.formatValid,
    error_class: verdict.errorClass ?? null,
    rel_error: verdict.relError ?? null,
    extracted: extraction?.value ?? null,
    extract_rule: extraction?.rule ?? null,
    response: completion.text,
    reasoning: completion.reasoning,
    finish_reason: completion.finishReason,
    prompt_tokens: completion.usage.promptTokens,
    completion_tokens: completion.usage.completionTokens,
    latency_ms: completion.latencyMs,
    attempts: completion.attempts,
    cached: completion.cached ?? false,
    error_kind: completion.error?.kind ?? null,
    error_message: completion.error?.message ?? null,
    explanation: verdict.explanation ?? null,
    // The values of an ambiguous reply, and the numbers the rules set
    // aside, go with the row, for the viewer.
    metrics: {
      ...verdict.metrics,
      ...(extraction?.alternatives === undefined
        ? {}
        : { candidates: extraction.alternatives.join(" | ") }),
      ...(extraction?.setAside === undefined
        ? {}
        : { set_aside: extraction.setAside.join("; ") }),
    },
    transcript: completion.transcript === undefined ||
        completion.transcript.length === 0
      ? null
      : JSON.stringify(completion.transcript),
    finished_at: input.finishedAt.toISOString(),
  };
}
