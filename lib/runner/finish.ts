/**
 * Turning a completion into the stored row: extraction, the suite's
 * (possibly awaiting) scoring, the flat row and the redaction of every
 * secret. The online lane, and any path that gets completions another way
 * (a batch output file), finish rows here, so a row is the same row
 * whichever way its completion arrived.
 *
 * @module
 */
import type { ModelConfig } from "../config/schema.ts";
import type { Provider } from "../providers/mod.ts";
import type { ScoreCache, ScoreContext } from "../suites/types.ts";
import type {
  ChatMessage,
  Completion,
  DimValue,
  Extraction,
  ResultRow,
  Verdict,
} from "../types.ts";
import { extractionJudgePrompt, judgeAnswer } from "./extraction_judge.ts";
import { errorVerdict } from "../judge/status.ts";
import { toResultRow } from "./row.ts";
import type { SuiteEntry, WorkItem } from "./work.ts";

function message(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

/**
 * Extracts and scores a completion. The first rung of the status ladder
 * (`lib/judge/status.ts`) is decided here, for every suite: a failed
 * request is an error row and never reaches the suite's `extract` or
 * `score`; a suite that throws becomes an error row too.
 */
/** Rules that leave a reply unread: nothing found, or an ambiguous answer. */
const UNREAD = new Set(["none", "ambiguous"]);

/**
 * Asks the extraction judge for a reply the rules could not read, and
 * reads its answer with the suite's own extraction: the judged extraction
 * (rule `"judge"`) when it names one, and what to keep on the row either
 * way (the rules' outcome, the judge's answer, whether it is one of the
 * ambiguous reply's candidates). Null when the rules read the reply.
 */
async function askJudge(
  item: WorkItem,
  completion: Completion,
  ruled: Extraction,
  model: ModelConfig,
  context: ScoreContext,
): Promise<
  { extraction: Extraction | null; metrics: Record<string, DimValue> } | null
> {
  if (ruled.value !== null || !UNREAD.has(ruled.rule)) return null;
  if (completion.text.trim() === "") return null;
  const reply = await context.complete(
    model,
    extractionJudgePrompt(item.question, completion.text),
  );
  const metrics: Record<string, DimValue> = {
    rule_extract: ruled.rule === "ambiguous"
      ? `ambiguous: ${(ruled.alternatives ?? []).join(" | ")}`
      : ruled.rule,
  };
  if (reply.error !== undefined) {
    metrics.judge_error = reply.error.message;
    return { extraction: null, metrics };
  }
  const answer = judgeAnswer(reply.text);
  metrics.judge_answer = answer ?? "none";
  if (answer === null) return { extraction: null, metrics };
  const read = await item.entry.run.extract(item.question, {
    ...completion,
    text: answer,
    reasoning: null,
    finishReason: "stop",
  });
  if (read.value === null) return { extraction: null, metrics };
  if (ruled.alternatives !== undefined) {
    metrics.judge_agrees = ruled.alternatives.includes(read.value);
  }
  // The suite's own extraction of the judge's answer (its type is the
  // suite's, so `score` gets what it expects), as the judge's reading.
  const { alternatives: _a, setAside: _s, ...own } = read;
  return {
    extraction: { ...own, rule: "judge", span: null, candidates: 1 },
    metrics,
  };
}

async function judge(
  item: WorkItem,
  completion: Completion,
  context: ScoreContext,
  extractionJudge: ModelConfig | undefined,
): Promise<
  { completion: Completion; extraction: Extraction | null; verdict: Verdict }
> {
  if (completion.error !== undefined) {
    return {
      completion,
      extraction: null,
      verdict: errorVerdict(completion.error.message),
    };
  }
  const { run } = item.entry;
  try {
    const ruled = await run.extract(item.question, completion);
    const judged = extractionJudge === undefined
      ? null
      : await askJudge(item, completion, ruled, extractionJudge, context);
    const extraction = judged?.extraction ?? ruled;
    const verdict = await run.score(
      { question: item.question, completion, extraction },
      context,
    );
    if (judged !== null) {
      verdict.metrics = { ...verdict.metrics, ...judged.metrics };
    }
    return { completion, extraction, verdict };
  } catch (error) {
    // Suites never throw by contract; if one does, keep the row and go on.
    const text = `Cannot judge the completion: ${message(error)}`;
    return {
      completion: { ...completion, error: { kind: "unknown", message: text } },
      extraction: { value: null, rule: "none", span: null, candidates: 0 },
      verdict: errorVerdict(text),
    };
  }
}

function redactRow(row: ResultRow, redact: (text: string) => string): void {
  if (row.prompt !== null) row.prompt = redact(row.prompt);
  row.response = redact(row.response);
  if (row.reasoning !== null) row.reasoning = redact(row.reasoning);
  if (row.error_message !== null) row.error_message = redact(row.error_message);
  if (row.explanation !== null) row.explanation = redact(row.explanation);
  if (row.transcript !== null) row.transcript = redact(row.transcript);
}

/** What {@linkcode finishRow} needs besides the completion. */
export interface FinishInput {
  /** The run's name (the row's `run`). */
  runName: string;
  /** The model the completion came from (its `name` goes in the row key). */
  model: ModelConfig;
  /** The work item answered. */
  item: WorkItem;
  /**
   * The messages of the item's first request as sent (`Prompt.messages`);
   * the row keeps them as its `prompt`.
   */
  messages: readonly ChatMessage[];
  /** The completion (an error completion becomes an error row). */
  completion: Completion;
  /** The suite's scoring context (see {@linkcode scoreContexts}). */
  context: ScoreContext;
  /** Removes every secret of the sweep from stored text. */
  redact: (text: string) => string;
  /**
   * The model asked for the answer of a reply the rules could not read
   * (config `extractionJudge`). @default none: not asked
   */
  extractionJudge?: ModelConfig;
  /**
   * When the row was finished (the row's `finished_at`).
   *
   * @default new Date()
   */
  finishedAt?: Date;
}

/**
 * Extracts, scores and flattens one answered work item into its result row,
 * redacted. A failed request becomes an error row without the suite being
 * asked ({@linkcode errorVerdict}: status `"error"`, never format-valid),
 * so a suite's `score` only gets completions without `error`. Never throws
 * for a suite's failure: that becomes an error row too.
 *
 * @param input The item, its completion and the run's context.
 * @returns The row to append to `results.jsonl`.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { type FinishInput, finishRow } from "./finish.ts";
 * import { defineSuite } from "../suites/define.ts";
 * const suite = defineSuite({
 *   name: "tiny", description: "", questions: () => [], templates: [],
 *   extract: ({ completion: c }) => ({ value: c.text, rule: "all", span: null, candidates: 1 }),
 *   score: ({ extraction: e }) => ({ status: e.value === "2" ? "correct" : "wrong", score: e.value === "2" ? 1 : 0, formatValid: true }),
 * });
 * const run = await suite.open({ seed: 0, params: {}, baseDir: "." });
 * const question = { id: "q1", suite: "tiny", text: "1+1", answer: { kind: "rational", value: "2" }, dims: {} } as const;
 * const template = { id: "direct", description: "", render: () => [] };
 * const completion = { text: "2 sk-secret", reasoning: null, finishReason: "stop", usage: { promptTokens: 1, completionTokens: 1 }, latencyMs: 0, attempts: 1 };
 * const input = {
 *   runName: "r",
 *   model: { name: "m", provider: "sim", concurrency: 1, rpm: 0, tpm: 0, params: {} },
 *   item: { entry: { config: { name: "tiny", params: {} }, suite, run, questions: [question], templates: [["direct", template]] }, question, templateId: "direct", template, sample: 0 },
 *   messages: [{ role: "user", content: "1+1 (key sk-secret)" }],
 *   completion,
 *   context: { complete: () => Promise.reject(new Error("no judge")), signal: new AbortController().signal },
 *   redact: (t: string) => t.replaceAll("sk-secret", "[redacted]"),
 * } satisfies FinishInput;
 * const row = await finishRow(input);
 * assert.equal(row.key, "m|q1|direct|0");
 * assert.equal(row.response, "2 [redacted]");
 * assert.equal(JSON.parse(row.prompt!)[0].content, "1+1 (key [redacted])");
 * // A failed request is an error row; the suite is not asked.
 * const failed = await finishRow({
 *   ...input,
 *   completion: { ...completion, text: "", finishReason: "error", error: { kind: "timeout", message: "timed out" } },
 * });
 * assert.deepEqual([failed.status, failed.format_valid, failed.extracted], ["error", false, null]);
 * ```
 */
export async function finishRow(input: FinishInput): Promise<ResultRow> {
  const { completion, extraction, verdict } = await judge(
    input.item,
    input.completion,
    input.context,
    input.extractionJudge,
  );
  const row = toResultRow({
    run: input.runName,
    model: input.model.name,
    question: input.item.question,
    template: input.item.templateId,
    sample: input.item.sample,
    messages: input.messages,
    completion,
    extraction,
    verdict,
    finishedAt: input.finishedAt ?? new Date(),
  });
  redactRow(row, input.redact);
  return row;
}

/**
 * One scoring context per suite entry, made on first use: a `complete`
 * that sends a judge model's prompt through `provider` (so judge keys and
 * limits are the sweep's), the stop signal and the score cache.
 *
 * @param provider Makes (or reuses) the provider of a model (loading its
 *   provider kind if needed).
 * @param options `signal` aborts judge calls when the sweep stops; `cache`
 *   is where scorers keep what they derived (the response cache), or null
 *   without a cache (the default).
 * @returns A lookup from entry to its context.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { scoreContexts } from "./finish.ts";
 * const contextOf = scoreContexts(() => Promise.reject(new Error("unused")), { signal: new AbortController().signal });
 * const entry = { config: { name: "s", params: { a: 1 } } } as unknown as Parameters<typeof contextOf>[0];
 * assert.equal(contextOf(entry), contextOf(entry));
 * assert.equal(contextOf(entry).cache, undefined);
 * ```
 */
export function scoreContexts(
  provider: (model: ModelConfig) => Provider | Promise<Provider>,
  { signal, cache = null }: { signal: AbortSignal; cache?: ScoreCache | null },
): (entry: SuiteEntry) => ScoreContext {
  const contexts = new Map<SuiteEntry, ScoreContext>();
  return (entry) => {
    let context = contexts.get(entry);
    if (context === undefined) {
      context = {
        complete: async (judgeModel, prompt) =>
          (await provider(judgeModel)).complete(prompt, { sample: 0, signal }),
        signal,
      };
      if (cache !== null) context.cache = cache;
      contexts.set(entry, context);
    }
    return context;
  };
}
