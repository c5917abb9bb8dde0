/**
 * The one conversion from an OpenAI ChatCompletion JSON to a Completion,
 * shared by every provider.
 *
 * @module
 */
import { z } from "zod";
import type { Completion, ToolCall } from "../types.ts";
import { splitThink } from "./_reasoning.ts";

/** What the caller measured about the call that produced the JSON. */
export interface CompletionMeta {
  /** Wall time of the whole call including retries, in milliseconds. */
  latencyMs: number;
  /** Attempts made (1 = no retry). */
  attempts: number;
}

const ToolCallSchema = z.looseObject({
  id: z.string(),
  type: z.literal("function").catch("function"),
  function: z.looseObject({ name: z.string(), arguments: z.string() }),
});

const ChatCompletionSchema = z.looseObject({
  choices: z.array(
    z.looseObject({
      finish_reason: z.string().nullish(),
      message: z.looseObject({
        content: z.string().nullish(),
        reasoning_content: z.string().nullish(),
        reasoning: z.string().nullish(),
        tool_calls: z.array(ToolCallSchema).nullish(),
      }),
    }),
  ).min(1),
  usage: z.looseObject({
    prompt_tokens: z.number().nullish(),
    completion_tokens: z.number().nullish(),
  }).nullish(),
});

/**
 * Converts an OpenAI-style ChatCompletion JSON into a {@linkcode Completion}.
 *
 * Reasoning is kept apart from the answer: a `reasoning_content` field
 * (DeepSeek, Qwen, vLLM) or a `reasoning` field (Ollama, OpenRouter), and a
 * `<think>…</think>` block at the start of the content. An unclosed
 * `<think>` (cut at the token limit) makes the whole content reasoning and
 * the text empty. A JSON that is not a chat completion gives a Completion
 * with `error.kind = "bad_response"`; this function never throws.
 *
 * @param json The parsed response body.
 * @param meta Latency and attempts measured by the caller.
 * @returns The Completion.
 *
 * @example Reasoning in a `<think>` block is split from the answer
 * ```ts
 * import assert from "node:assert/strict";
 * import { toCompletion } from "./completion.ts";
 * const completion = toCompletion({
 *   choices: [{
 *     finish_reason: "stop",
 *     message: { role: "assistant", content: "<think>6*7=42</think>\n42" },
 *   }],
 *   usage: { prompt_tokens: 12, completion_tokens: 9 },
 * }, { latencyMs: 5, attempts: 1 });
 * assert.equal(completion.text, "42");
 * assert.equal(completion.reasoning, "6*7=42");
 * assert.deepEqual(completion.usage, { promptTokens: 12, completionTokens: 9 });
 * ```
 */
export function toCompletion(json: unknown, meta: CompletionMeta): Completion {
  return readCompletions(json, meta, true)[0]!;
}

/**
 * Converts a ChatCompletion JSON with several choices (a request with
 * `n`) into one {@linkcode Completion} per choice, in choice order (by
 * `index` when the choices carry one). Usage is reported for the whole
 * call, so it is split across the choices: prompt tokens evenly (the
 * prompt is paid once; the first choices take the remainder), completion
 * tokens in proportion to each choice's characters of text, reasoning and
 * tool-call arguments (evenly when none has any), in whole tokens that add
 * up to the reported totals. Every choice keeps the call's latency and
 * attempts. A JSON that is not a chat completion gives one error
 * Completion; this function never throws.
 *
 * @param json The parsed response body.
 * @param meta Latency and attempts measured by the caller.
 * @returns The Completions, one per choice (at least one).
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { toCompletions } from "./completion.ts";
 * const [a, b] = toCompletions({
 *   choices: [
 *     { index: 1, finish_reason: "stop", message: { content: "12" } },
 *     { index: 0, finish_reason: "stop", message: { content: "42" } },
 *   ],
 *   usage: { prompt_tokens: 11, completion_tokens: 4 },
 * }, { latencyMs: 5, attempts: 1 });
 * assert.equal(a?.text, "42");
 * assert.equal(b?.text, "12");
 * assert.deepEqual(a?.usage, { promptTokens: 6, completionTokens: 2 });
 * assert.deepEqual(b?.usage, { promptTokens: 5, completionTokens: 2 });
 * ```
 */
export function toCompletions(
  json: unknown,
  meta: CompletionMeta,
): Completion[] {
  return readCompletions(json, meta, false);
}

/** Splits `total` into whole parts proportional to `weights` (evenly when all are 0). */
function share(total: number, weights: readonly number[]): number[] {
  const sum = weights.reduce((a, b) => a + b, 0);
  const w = sum > 0 ? weights : weights.map(() => 1);
  const all = sum > 0 ? sum : w.length;
  const parts = w.map((x) => Math.floor((total * x) / all));
  let left = total - parts.reduce((a, b) => a + b, 0);
  for (let i = 0; left > 0; i = (i + 1) % parts.length, left--) parts[i]!++;
  return parts;
}

function readCompletions(
  json: unknown,
  meta: CompletionMeta,
  firstOnly: boolean,
): Completion[] {
  const parsed = isPlainCompletion(json)
    ? { success: true as const, data: json }
    : ChatCompletionSchema.safeParse(json);
  if (!parsed.success) {
    const detail = parsed.error.issues[0];
    const where = detail
      ? `${detail.path.join(".") || "body"}: ${detail.message}`
      : "unexpected shape";
    return [errorCompletion(meta, {
      kind: "bad_response",
      message: `Cannot read chat completion: ${where}`,
    })];
  }
  const { choices, usage } = parsed.data;
  const promptTokens = usage?.prompt_tokens ?? 0;
  const completionTokens = usage?.completion_tokens ?? 0;
  if (firstOnly || choices.length === 1) {
    return [
      choiceCompletion(choices[0]!, promptTokens, completionTokens, meta),
    ];
  }
  const ordered = choices.map((choice, i) => ({
    choice,
    at: typeof choice.index === "number" ? choice.index : i,
  })).sort((a, b) => a.at - b.at).map((c) => c.choice);
  const prompt = share(promptTokens, ordered.map(() => 1));
  const completion = share(
    completionTokens,
    ordered.map(({ message: m }) =>
      (m.content?.length ?? 0) + (m.reasoning_content?.length ?? 0) +
      (m.reasoning?.length ?? 0) +
      (m.tool_calls ?? []).reduce((n, c) => n + c.function.arguments.length, 0)
    ),
  );
  return ordered.map((choice, i) =>
    choiceCompletion(choice, prompt[i]!, completion[i]!, meta)
  );
}

/** One choice of a parsed chat completion as a Completion. */
function choiceCompletion(
  choice: ParsedCompletion["choices"][number],
  promptTokens: number,
  completionTokens: number,
  meta: CompletionMeta,
): Completion {
  const message = choice.message;
  const split = splitThink(message.content ?? "");
  const fieldReasoning = message.reasoning_content ?? message.reasoning ?? null;
  const reasoning = joinReasoning(fieldReasoning, split.reasoning);
  const completion: Completion = {
    text: split.text,
    reasoning,
    finishReason: choice.finish_reason ?? "unknown",
    usage: { promptTokens, completionTokens },
    latencyMs: meta.latencyMs,
    attempts: meta.attempts,
  };
  const toolCalls = message.tool_calls;
  if (toolCalls && toolCalls.length > 0) {
    completion.toolCalls = toolCalls.map((call): ToolCall => ({
      id: call.id,
      type: "function",
      function: {
        name: call.function.name,
        arguments: call.function.arguments,
      },
    }));
  }
  return completion;
}

/**
 * Builds the Completion of a call that failed for good.
 *
 * @param meta Latency and attempts measured by the caller.
 * @param error Why the call failed.
 * @returns A Completion with empty text, `finishReason: "error"` and `error` set.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { errorCompletion } from "./completion.ts";
 * const completion = errorCompletion({ latencyMs: 3, attempts: 2 }, {
 *   kind: "server",
 *   message: "Cannot complete: 503",
 *   status: 503,
 * });
 * assert.equal(completion.finishReason, "error");
 * assert.equal(completion.error?.status, 503);
 * ```
 */
export function errorCompletion(
  meta: CompletionMeta,
  error: NonNullable<Completion["error"]>,
): Completion {
  return {
    text: "",
    reasoning: null,
    finishReason: "error",
    usage: { promptTokens: 0, completionTokens: 0 },
    latencyMs: meta.latencyMs,
    attempts: meta.attempts,
    error,
  };
}

type ParsedCompletion = z.infer<typeof ChatCompletionSchema>;

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

function isOptionalString(value: unknown): boolean {
  return value === undefined || value === null || typeof value === "string";
}

function isOptionalNumber(value: unknown): boolean {
  return value === undefined || value === null ||
    (typeof value === "number" && Number.isFinite(value));
}

/**
 * True for the common body (no tool calls) that `ChatCompletionSchema`
 * surely accepts unchanged, checked by hand: zod's parse copied every
 * object of every response (about 5 µs and the garbage of a request at 0 ms
 * latency). Anything else, including every body zod would reject or
 * rewrite, goes through zod as before.
 */
function isPlainCompletion(json: unknown): json is ParsedCompletion {
  if (!isRecord(json)) return false;
  const { choices, usage } = json;
  if (!Array.isArray(choices) || choices.length === 0) return false;
  for (const choice of choices) {
    if (!isRecord(choice) || !isOptionalString(choice.finish_reason)) {
      return false;
    }
    const message = choice.message;
    if (
      !isRecord(message) || !isOptionalString(message.content) ||
      !isOptionalString(message.reasoning_content) ||
      !isOptionalString(message.reasoning) ||
      (message.tool_calls !== undefined && message.tool_calls !== null)
    ) {
      return false;
    }
  }
  if (usage === undefined || usage === null) return true;
  return isRecord(usage) && isOptionalNumber(usage.prompt_tokens) &&
    isOptionalNumber(usage.completion_tokens);
}

function joinReasoning(a: string | null, b: string | null): string | null {
  const parts = [a, b].filter((part): part is string =>
    part !== null && part.length > 0
  );
  return parts.length > 0 ? parts.join("\n\n") : (a ?? b);
}
