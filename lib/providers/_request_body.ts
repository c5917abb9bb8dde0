/**
 * The chat-completions request body, built the same way for every provider
 * so the in-process sim sees exactly what an HTTP endpoint would.
 * Private to `lib/providers`.
 *
 * @module
 */
import type { Prompt } from "../types.ts";

/** Which body field carries the token limit (some endpoints want `max_completion_tokens`). */
export type MaxTokensParam = "max_tokens" | "max_completion_tokens";

/** Per-model settings that shape the request body. */
export interface RequestBodyOptions {
  /** Model id sent to the endpoint. */
  model: string;
  /** Per-model temperature; overrides the prompt's. */
  temperature?: number | undefined;
  /** Per-model token limit; overrides the prompt's. */
  maxTokens?: number | undefined;
  /** Field name for the token limit. @default {"max_tokens"} */
  maxTokensParam?: MaxTokensParam | undefined;
  /** The model's extra body fields (applied last). */
  params?: Record<string, unknown> | undefined;
}

/**
 * Builds the JSON request body for `POST /chat/completions`: model,
 * messages, temperature, the token limit (under `maxTokensParam`), seed,
 * tools, then the prompt's extra fields and the model's params.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { buildRequestBody } from "./_request_body.ts";
 * const body = buildRequestBody({
 *   templateId: "direct",
 *   messages: [{ role: "user", content: "2+2?" }],
 *   params: { temperature: 0, max_tokens: 16, seed: 3 },
 * }, { model: "m", maxTokensParam: "max_completion_tokens", params: { top_p: 1 } });
 * assert.deepEqual(body, {
 *   model: "m",
 *   messages: [{ role: "user", content: "2+2?" }],
 *   temperature: 0,
 *   max_completion_tokens: 16,
 *   seed: 3,
 *   top_p: 1,
 * });
 * ```
 */
export function buildRequestBody(
  prompt: Prompt,
  options: RequestBodyOptions,
): Record<string, unknown> {
  const { params } = prompt;
  const body: Record<string, unknown> = {
    model: options.model,
    messages: prompt.messages.map((message) => {
      const out: Record<string, unknown> = {
        role: message.role,
        content: message.content,
      };
      if (message.tool_call_id !== undefined) {
        out.tool_call_id = message.tool_call_id;
      }
      if (message.tool_calls !== undefined) out.tool_calls = message.tool_calls;
      return out;
    }),
    temperature: options.temperature ?? params.temperature,
    [options.maxTokensParam ?? "max_tokens"]: options.maxTokens ??
      params.max_tokens,
  };
  if (params.seed !== undefined) body.seed = params.seed;
  if (prompt.tools !== undefined && prompt.tools.length > 0) {
    body.tools = prompt.tools;
  }
  Object.assign(body, params.extra ?? {}, options.params ?? {});
  return body;
}
