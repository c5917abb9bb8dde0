/**
 * A Provider for any OpenAI-compatible endpoint, through the official
 * `openai` client.
 *
 * @module
 */
import OpenAI from "openai";
import type { Completion, Prompt } from "../types.ts";
import type { ChoicesOptions, CompleteOptions, Provider } from "./types.ts";
import { errorCompletion, toCompletion, toCompletions } from "./completion.ts";
import { buildRequestBody, type MaxTokensParam } from "./_request_body.ts";
import {
  CALL_INIT_KEY,
  type CountingFetch,
  countingFetch,
} from "./_counting_fetch.ts";
import { classifyError } from "./_errors.ts";

/** The client's per-request fetch options. */
type FetchOptions = NonNullable<OpenAI.RequestOptions["fetchOptions"]>;

/** The API key sent to keyless local servers (Ollama, vLLM, llama.cpp). */
export const PLACEHOLDER_API_KEY = "not-needed";

/** Options of {@linkcode OpenAIProvider}. */
export interface OpenAIProviderOptions {
  /** The model name as configured (unique within a sweep). */
  name: string;
  /** Model id sent to the endpoint. @default {name} */
  model?: string;
  /** Endpoint base URL, e.g. `http://localhost:11434/v1`. */
  baseURL: string;
  /** The API key itself (never logged nor returned). @default {"not-needed"} */
  apiKey?: string | undefined;
  /** Retries after the first attempt. @default {4} */
  maxRetries?: number;
  /** Per-attempt timeout in milliseconds. @default {60000} */
  timeoutMs?: number;
  /** Per-model temperature; overrides the prompt's. */
  temperature?: number | undefined;
  /** Per-model token limit; overrides the prompt's. */
  maxTokens?: number | undefined;
  /** Body field for the token limit. @default {"max_tokens"} */
  maxTokensParam?: MaxTokensParam | undefined;
  /** Extra request body fields (top_p, reasoning_effort, ...). */
  params?: Record<string, unknown> | undefined;
  /** The underlying fetch (tests). @default {globalThis.fetch} */
  fetch?: typeof fetch;
}

/**
 * Calls `chat.completions.create` on an OpenAI-compatible endpoint. The
 * client's own retry machinery handles 408/409/429/5xx, timeouts and
 * dropped connections (honouring `Retry-After` / `retry-after-ms`, else
 * exponential backoff with jitter); malformed bodies are retried too.
 * Attempts are counted per call. `complete()` never throws: a call that
 * fails for good returns a Completion with `error` set.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { OpenAIProvider } from "./openai.ts";
 * import { startSimServer } from "./server.ts";
 * const server = await startSimServer();
 * const provider = new OpenAIProvider({
 *   name: "strong",
 *   model: "sim-strong",
 *   baseURL: server.baseURL,
 * });
 * const completion = await provider.complete({
 *   templateId: "direct",
 *   messages: [{ role: "user", content: "What is 12 + 30? Answer with the number only." }],
 *   params: { temperature: 0, max_tokens: 64, seed: 1 },
 * }, { sample: 0 });
 * assert.equal(completion.error, undefined);
 * assert.equal(completion.attempts, 1);
 * await provider.close();
 * await server.close();
 * ```
 */
export class OpenAIProvider implements Provider {
  /** The model name as configured. */
  readonly name: string;
  readonly #model: string;
  readonly #apiKey: string;
  readonly #options: OpenAIProviderOptions;
  readonly #counter: CountingFetch;
  readonly #client: OpenAI;
  #nextCall = 0;

  /**
   * A provider for one model of an OpenAI-compatible endpoint.
   *
   * @param options Endpoint, key and per-model settings.
   * @throws {TypeError} If `baseURL` is not a URL.
   */
  constructor(options: OpenAIProviderOptions) {
    if (!URL.canParse(options.baseURL)) {
      throw new TypeError(
        `Cannot create provider "${options.name}": baseURL is not a URL: ${options.baseURL}`,
      );
    }
    this.name = options.name;
    this.#model = options.model ?? options.name;
    this.#apiKey = options.apiKey || PLACEHOLDER_API_KEY;
    this.#options = options;
    this.#counter = countingFetch(options.fetch);
    this.#client = new OpenAI({
      apiKey: this.#apiKey,
      baseURL: options.baseURL,
      maxRetries: options.maxRetries ?? 4,
      timeout: options.timeoutMs ?? 60_000,
      fetch: this.#counter.fetch,
      logLevel: "off",
    });
  }

  /** Sends one prompt; see the class doc. */
  async complete(
    prompt: Prompt,
    options: CompleteOptions,
  ): Promise<Completion> {
    return (await this.#send(prompt, undefined, options.signal))[0]!;
  }

  /**
   * Sends one prompt with `n` in the body; one Completion per choice
   * returned (fewer than `n` where the endpoint ignores it), usage split as
   * {@linkcode toCompletions} says, or one error Completion.
   */
  completeChoices(
    prompt: Prompt,
    options: ChoicesOptions,
  ): Promise<Completion[]> {
    return this.#send(prompt, options.n, options.signal);
  }

  async #send(
    prompt: Prompt,
    n: number | undefined,
    signal: AbortSignal | undefined,
  ): Promise<Completion[]> {
    const body = buildRequestBody(prompt, {
      model: this.#model,
      temperature: this.#options.temperature,
      maxTokens: this.#options.maxTokens,
      maxTokensParam: this.#options.maxTokensParam,
      params: this.#options.params,
    });
    if (n !== undefined) body.n = n;
    const callId = `${this.name}#${this.#nextCall++}`;
    const started = performance.now();
    const meta = () => ({
      latencyMs: performance.now() - started,
      attempts: this.#counter.attempts(callId),
    });
    try {
      const response = await this.#client.chat.completions.create(
        body as unknown as OpenAI.ChatCompletionCreateParamsNonStreaming,
        {
          // Passed to fetch on every attempt (see CALL_INIT_KEY).
          fetchOptions: { [CALL_INIT_KEY]: callId } as FetchOptions,
          ...(signal ? { signal } : {}),
        },
      ).asResponse();
      const json = this.#counter.parsedBody(response) ?? await response.json();
      return n === undefined
        ? [toCompletion(json, meta())]
        : toCompletions(json, meta());
    } catch (error) {
      return [errorCompletion(meta(), classifyError(error, this.#apiKey))];
    } finally {
      this.#counter.forget(callId);
    }
  }

  /** Nothing to release: Deno's fetch pools keep-alive connections itself. */
  close(): Promise<void> {
    return Promise.resolve();
  }
}
