/**
 * The one path every request of a lane takes: the response cache, the
 * model's rate limits, the sweep's global in-flight limit, the provider,
 * then settling the limits with the tokens used and storing what came
 * back. A single sample and an `n`-grouped call (several samples in one
 * request) both go through {@linkcode RequestPath.send}.
 *
 * @module
 */
import type { ModelConfig } from "../config/schema.ts";
import type { Provider } from "../providers/mod.ts";
import type { Completion, Prompt } from "../types.ts";
import { cacheKey, type CacheTarget } from "./cache.ts";
import type { CallLimits } from "./_limits.ts";
import type { LaneShared } from "./_lane.ts";
import { requestTokenBudget } from "./work.ts";

/** A completion for a call that never went out (the sweep stopped). */
export function abortedCompletion(): Completion {
  return {
    text: "",
    reasoning: null,
    finishReason: "error",
    usage: { promptTokens: 0, completionTokens: 0 },
    latencyMs: 0,
    attempts: 0,
    error: { kind: "aborted", message: "the sweep was interrupted" },
  };
}

function message(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

/** Prompt and completion tokens of some completions. */
const tokensOf = (completions: readonly Completion[]) =>
  completions.reduce(
    (n, c) => n + c.usage.promptTokens + c.usage.completionTokens,
    0,
  );

/** One model's requests: cache → limits → global limit → send → settle → store. */
export class RequestPath {
  readonly provider: Provider;
  readonly #shared: LaneShared;
  readonly #limits: CallLimits;
  readonly #target: CacheTarget;

  /**
   * @param model The model the requests go to.
   * @param shared What the sweep's lanes share (cache, stop, global limit).
   * @param limits The model's rate limits.
   */
  constructor(model: ModelConfig, shared: LaneShared, limits: CallLimits) {
    this.#shared = shared;
    this.#limits = limits;
    this.provider = shared.provider(model);
    this.#target = {
      provider: model.provider,
      baseURL: model.baseURL ?? null,
      model: model.model ?? model.name,
    };
    // A sim's replies also depend on its version.
    if (model.provider === "sim") this.#target.version = shared.simVersion;
  }

  /** The cached completion of a sample's prompt, if any. */
  cached(prompt: Prompt, sample: number): Completion | undefined {
    const { cache } = this.#shared;
    return cache?.get(cacheKey(this.#target, { prompt, sample }));
  }

  /** Keeps a completion for a sample's prompt (a failed one is not kept). */
  keep(prompt: Prompt, sample: number, completion: Completion): void {
    const { cache } = this.#shared;
    if (cache !== null && completion.error === undefined) {
      cache.put(cacheKey(this.#target, { prompt, sample }), completion);
    }
  }

  /**
   * Sends one request through the limits: acquires `estimate` tokens of
   * the model's limits (not awaited when it has none), sends under the
   * global in-flight limit unless the sweep stopped meanwhile, counts it
   * as in flight, and settles the limits with the tokens it used.
   *
   * @returns What `request` gave, or null when the sweep stopped first.
   */
  async send<T extends Completion | Completion[]>(
    estimate: number,
    request: (signal: AbortSignal) => Promise<T>,
  ): Promise<T | null> {
    const { stop, global, stats } = this.#shared;
    const limits = this.#limits;
    // Unlimited limits are not awaited (see `CallLimits.limited`).
    if (limits.limited && !(await limits.acquire(estimate, stop.signal))) {
      return null;
    }
    const go = () =>
      stop.signal.aborted ? Promise.resolve(null) : request(stop.signal);
    stats.asking++;
    let out: T | null;
    try {
      out = await (global === null ? go() : global(go));
    } finally {
      stats.asking--;
    }
    limits.settle(
      estimate,
      out === null ? 0 : tokensOf(Array.isArray(out) ? out : [out]),
    );
    return out;
  }

  /** One sample: from the cache, else one request (then kept). */
  async one(prompt: Prompt, sample: number): Promise<Completion> {
    const hit = this.cached(prompt, sample);
    if (hit !== undefined) return hit;
    const estimate = this.#limits.countsTokens ? requestTokenBudget(prompt) : 0;
    const completion = await this.send(
      estimate,
      (signal) =>
        this.provider.complete(prompt, { sample, signal })
          .catch((error: unknown): Completion => ({
            // Providers never throw by contract; if one does, record it.
            ...abortedCompletion(),
            error: {
              kind: "unknown",
              message: `Cannot complete the request: ${message(error)}`,
            },
          })),
    ) ?? abortedCompletion();
    this.keep(prompt, sample, completion);
    return completion;
  }

  /**
   * The first `n` samples of a prompt in one request (`n: n`), with `seed`
   * as the request's seed; choice i is sample i. Empty when the provider
   * cannot, the request failed or the sweep stopped.
   */
  async choices(
    prompt: Prompt,
    n: number,
    seed: number,
  ): Promise<Completion[]> {
    const { completeChoices } = this.provider;
    if (completeChoices === undefined) return [];
    const group: Prompt = { ...prompt, params: { ...prompt.params, seed } };
    const estimate = this.#limits.countsTokens
      ? requestTokenBudget(prompt) + (n - 1) * prompt.params.max_tokens
      : 0;
    const choices = await this.send(
      estimate,
      (signal) =>
        completeChoices.call(this.provider, group, { n, signal })
          .catch((): Completion[] => []),
    ) ?? [];
    return choices.length === 1 && choices[0]!.error !== undefined
      ? []
      : choices;
  }
}
