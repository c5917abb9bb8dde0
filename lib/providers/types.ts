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

/**
 * A model behind one interface. `complete` never throws for a failed
 * request: it returns a Completion with `error` set after its retries.
 */
export interface Provider {
  /** The model name as configured (unique within a sweep). */
  readonly name: string;
  /** Sends one prompt (with retries) and returns the completion, or a completion with `error` set. */
  complete(prompt: Prompt, options: CompleteOptions): Promise<Completion>;
  /** Releases sockets or servers, if any. */
  close?(): Promise<void>;
}
