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
  const parsed = isPlainCompletion(json)
    ? { success: true as const, data: json }
    : ChatCompletionSchema.safeParse(json);
  if (!parsed.success) {
    const detail = parsed.error.issues[0];
    const where = detail
      ? `${detail.path.join(".") || "body"}: ${detail.message}`
      : "unexpected shape";
    return errorCompletion(meta, {
      kind: "bad_response",
      message: `Cannot read chat completion: ${where}`,
    });
  }
  const { choices, usage } = parsed.data;
  const choice = choices[0]!;
  const message = choice.message;
  const split = splitThink(message.content ?? "");
  const fieldReasoning = message.reasoning_content ?? message.reasoning ?? null;
  const reasoning = joinReasoning(fieldReasoning, split.reasoning);
  const completion: Completion = {
    text: split.text,
    reasoning,
    finishReason: choice.finish_reason ?? "unknown",
    usage: {
      promptTokens: usage?.prompt_tokens ?? 0,
      completionTokens: usage?.completion_tokens ?? 0,
    },
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
