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

/** What {@linkcode requestBodyOptions} reads of a model entry. */
export interface BodyModel {
  /** The model's name in the config (sent as `model` unless `model` is set). */
  name: string;
  /** The model id the endpoint knows it by, when it differs from `name`. */
  model?: string | undefined;
  /** Sampling temperature, when the config sets one. */
  temperature?: number | undefined;
  /** Most completion tokens, when the config sets it. */
  max_tokens?: number | undefined;
  /** Extra request fields, sent as given. */
  params?: Record<string, unknown> | undefined;
}

/**
 * The body settings of a model entry: the model id, per-model overrides,
 * and the model's params with `max_tokens_param` taken out (it renames the
 * token-limit field and is not sent itself).
 *
 * @throws {Error} If `params.max_tokens_param` is not a known field name.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { requestBodyOptions } from "./_request_body.ts";
 * const options = requestBodyOptions({ name: "m", params: { max_tokens_param: "max_completion_tokens", top_p: 1 } });
 * assert.equal(options.maxTokensParam, "max_completion_tokens");
 * assert.deepEqual(options.params, { top_p: 1 });
 * ```
 */
export function requestBodyOptions(
  model: BodyModel,
): RequestBodyOptions & { params: Record<string, unknown> } {
  const { max_tokens_param: maxTokensParam, ...params } = model.params ?? {};
  if (
    maxTokensParam !== undefined && maxTokensParam !== "max_tokens" &&
    maxTokensParam !== "max_completion_tokens"
  ) {
    throw new Error(
      `Cannot create provider for model "${model.name}": params.max_tokens_param must be "max_tokens" or "max_completion_tokens"`,
    );
  }
  return {
    model: model.model ?? model.name,
    temperature: model.temperature,
    maxTokens: model.max_tokens,
    maxTokensParam: maxTokensParam as MaxTokensParam | undefined,
    params,
  };
}

/**
 * The exact chat-completions body an online call for this model sends (a
 * batch request line's `body` is this, byte for byte).
 *
 * @param prompt The prompt.
 * @param model The model entry of the config.
 * @returns The JSON body.
 * @throws {Error} If `params.max_tokens_param` is not a known field name.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { chatRequestBody } from "./_request_body.ts";
 * const body = chatRequestBody(
 *   { templateId: "t", messages: [{ role: "user", content: "1+1?" }], params: { temperature: 0, max_tokens: 8 } },
 *   { name: "m", model: "sim-strong", params: {} },
 * );
 * assert.equal(body.model, "sim-strong");
 * assert.equal(body.max_tokens, 8);
 * ```
 */
export function chatRequestBody(
  prompt: Prompt,
  model: BodyModel,
): Record<string, unknown> {
  return buildRequestBody(prompt, requestBodyOptions(model));
}
