/**
 * The provider interface every model backend implements.
 *
 * @module
 */
import type { Completion, Prompt } from "../types.ts";

/** Per-call options the runner passes to a provider. */
export interface CompleteOptions {
  /** Sample index (0-based) of this call within its (question, template). */
  sample: number;
  /** Aborts the call (Ctrl-C, sweep shutdown). */
  signal?: AbortSignal;
}

/** Per-call options of {@linkcode Provider.completeChoices}. */
export interface ChoicesOptions {
  /** Choices to ask for (the request's `n`). */
  n: number;
  /** Aborts the call (Ctrl-C, sweep shutdown). */
  signal?: AbortSignal;
}

/**
 * A model behind one interface. `complete` never throws for a failed
 * request: it returns a Completion with `error` set after its retries.
 */
export interface Provider {
  /** The model name as configured (unique within a sweep). */
  readonly name: string;
  /** Sends one prompt (with retries) and returns the completion, or a completion with `error` set. */
  complete(prompt: Prompt, options: CompleteOptions): Promise<Completion>;
  /**
   * Sends one prompt asking for `n` choices (the API's `n`) and returns one
   * Completion per choice the endpoint returned — possibly fewer than `n`
   * where an endpoint ignores `n` — or a single Completion with `error`
   * set. Optional: the runner sends separate calls without it.
   */
  completeChoices?(
    prompt: Prompt,
    options: ChoicesOptions,
  ): Promise<Completion[]>;
  /** Releases sockets or servers, if any. */
  close?(): Promise<void>;
}
