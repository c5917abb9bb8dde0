/**
 * The simulated model as an in-process Provider.
 *
 * @module
 */
import type { Completion, Prompt } from "../types.ts";
import type { SimRequest } from "./sim/types.ts";
import type { ChoicesOptions, CompleteOptions, Provider } from "./types.ts";
import { errorCompletion, toCompletion, toCompletions } from "./completion.ts";
import { buildRequestBody, type MaxTokensParam } from "./_request_body.ts";
import { defaultSimBackend, type SimBackend } from "./_sim_backend.ts";

/** Options of {@linkcode SimProvider}. */
export interface SimProviderOptions {
  /** The model name as configured (unique within a sweep). */
  name: string;
  /** Sim profile, e.g. `"sim-strong"`. @default {name} */
  model?: string;
  /** Sleep the sim's simulated latency before answering. @default {false} */
  realtime?: boolean;
  /** Per-model temperature; overrides the prompt's. */
  temperature?: number | undefined;
  /** Per-model token limit; overrides the prompt's. */
  maxTokens?: number | undefined;
  /** Body field for the token limit. @default {"max_tokens"} */
  maxTokensParam?: MaxTokensParam | undefined;
  /** Extra request body fields. */
  params?: Record<string, unknown> | undefined;
  /** The simulated model (tests). @default {the real sim} */
  backend?: SimBackend;
}

/**
 * Runs the simulated model in process. It builds the same request body the
 * OpenAI provider would send and converts the reply with the same
 * {@linkcode toCompletion}, so a prompt gives the same Completion here and
 * over HTTP (latency and attempts aside). `latencyMs` is the sim's
 * simulated latency; `attempts` is 1. An unknown profile gives an error
 * Completion (`kind: "client"`, status 404), as the server would.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { SimProvider } from "./sim.ts";
 * const provider = new SimProvider({ name: "strong", model: "sim-strong" });
 * const completion = await provider.complete({
 *   templateId: "direct",
 *   messages: [{ role: "user", content: "What is 12 + 30? Answer with the number only." }],
 *   params: { temperature: 0, max_tokens: 64, seed: 1 },
 * }, { sample: 0 });
 * assert.equal(completion.attempts, 1);
 * assert.equal(completion.error, undefined);
 * ```
 */
export class SimProvider implements Provider {
  /** The model name as configured. */
  readonly name: string;
  readonly #options: SimProviderOptions;
  readonly #backend: SimBackend;

  /**
   * An in-process sim provider for one model.
   *
   * @param options Profile and per-model settings.
   */
  constructor(options: SimProviderOptions) {
    this.name = options.name;
    this.#options = options;
    this.#backend = options.backend ?? defaultSimBackend;
  }

  /** Answers one prompt; never throws. */
  async complete(
    prompt: Prompt,
    options: CompleteOptions,
  ): Promise<Completion> {
    return (await this.#answer(prompt, undefined, options.signal))[0]!;
  }

  /**
   * Answers one prompt with `n` choices, as the sim server does (choice i
   * is the answer a single request with seed `choiceSeed(seed, i)` gets);
   * never throws.
   */
  completeChoices(
    prompt: Prompt,
    options: ChoicesOptions,
  ): Promise<Completion[]> {
    return this.#answer(prompt, options.n, options.signal);
  }

  /**
   * Whether no sim skill reads the prompt's question, so the sim's reply
   * to it is a non-answer (see `simSkillFor`); false when the backend
   * cannot tell or the profile is unknown (the reply is then an error).
   * Answers nothing and changes no reply.
   *
   * @example
   * ```ts
   * import assert from "node:assert/strict";
   * import { SimProvider } from "./sim.ts";
   * const provider = new SimProvider({ name: "strong", model: "sim-strong" });
   * const prompt = {
   *   templateId: "direct",
   *   messages: [{ role: "user" as const, content: "What is 12 + 30?" }],
   *   params: { temperature: 0, max_tokens: 64 },
   * };
   * assert.equal(provider.lacksSkill(prompt), true); // the default backend has no skill
   * ```
   */
  lacksSkill(prompt: Prompt): boolean {
    try {
      return this.#backend.simSkillFor?.(this.#body(prompt) as SimRequest) ===
        null;
    } catch {
      return false;
    }
  }

  /** The request body the OpenAI provider would send for `prompt`. */
  #body(prompt: Prompt): Record<string, unknown> {
    return buildRequestBody(prompt, {
      model: this.#options.model ?? this.name,
      temperature: this.#options.temperature,
      maxTokens: this.#options.maxTokens,
      maxTokensParam: this.#options.maxTokensParam,
      params: this.#options.params,
    });
  }

  async #answer(
    prompt: Prompt,
    n: number | undefined,
    signal: AbortSignal | undefined,
  ): Promise<Completion[]> {
    const { realtime = false } = this.#options;
    const body = this.#body(prompt);
    if (n !== undefined) body.n = n;
    if (signal?.aborted) {
      return [errorCompletion({ latencyMs: 0, attempts: 0 }, {
        kind: "aborted",
        message: "Cannot complete chat request: aborted before sending",
      })];
    }
    let reply;
    try {
      reply = this.#backend.simChat(body as SimRequest);
    } catch (error) {
      const unknownModel = error instanceof RangeError;
      return [errorCompletion({ latencyMs: 0, attempts: 1 }, {
        kind: unknownModel ? "client" : "unknown",
        message: `Cannot complete chat request: ${(error as Error).message}`,
        ...(unknownModel ? { status: 404 } : {}),
      })];
    }
    if (realtime && reply.latencyMs > 0) {
      const aborted = await sleep(reply.latencyMs, signal);
      if (aborted) {
        return [errorCompletion({ latencyMs: reply.latencyMs, attempts: 1 }, {
          kind: "aborted",
          message: "Cannot complete chat request: aborted",
        })];
      }
    }
    const meta = { latencyMs: reply.latencyMs, attempts: 1 };
    return n === undefined
      ? [toCompletion(reply.response, meta)]
      : toCompletions(reply.response, meta);
  }
}

/** Sleeps `ms`; resolves true if the signal aborted first. */
function sleep(ms: number, signal: AbortSignal | undefined): Promise<boolean> {
  return new Promise((resolve) => {
    const onAbort = () => {
      clearTimeout(timer);
      resolve(true);
    };
    const timer = setTimeout(() => {
      signal?.removeEventListener("abort", onAbort);
      resolve(false);
    }, ms);
    signal?.addEventListener("abort", onAbort, { once: true });
  });
}
