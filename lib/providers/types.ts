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
  /**
   * Whether the provider knows it cannot read this prompt, so that every
   * reply to it is a non-answer: the in-process sim when no sim skill
   * reads the prompt's question. The runner asks it to warn about a suite
   * the sim cannot answer; it changes nothing sent or stored. Optional:
   * a provider without it (a real endpoint) is never said to lack one.
   */
  lacksSkill?(prompt: Prompt): boolean;
  /** Releases sockets or servers, if any. */
  close?(): Promise<void>;
}
