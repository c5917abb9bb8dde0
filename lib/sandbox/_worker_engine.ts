/**
 * What a language engine of the sandbox worker offers its protocol loop,
 * and how the worker words a thrown value.
 *
 * @module
 */
import {
  ErrorCtor,
  replaceText,
  sliceText,
  stringify,
  toText,
} from "./_worker_captured.ts";

/** One language's side of the worker protocol; each answer is JSON text. */
export interface Engine {
  /** Decodes every call's arguments (before the candidate's code loads). */
  prepare(callsJson: string): void;
  load(code: string, entry: string, typescript: boolean): Promise<string>;
  /** Calls the entry with the i-th prepared argument list. */
  call(i: number): Promise<string>;
  /** Makes the i-th call's arguments the target of the next samples. */
  targetCall(i: number): void;
  /** Keeps a measured size's arguments (wire JSON text) under an id. */
  putArgs(id: number, argsJson: string): void;
  /** Makes the arguments kept under `id` the target of the next samples. */
  targetHeld(id: number): void;
  /**
   * Gets k calls of the target ready (fresh copies of arguments the entry
   * changes): outside the window the parent times.
   */
  prep(k: number): void;
  /**
   * Runs the prepared calls: `{"ok":true}` or the error. The parent reads
   * this process's CPU time from the kernel around it; nothing here reads
   * a clock.
   */
  run(): Promise<string>;
  /** The target's first call's value, as a call answer. */
  value(): string;
  programs(itemsJson: string, guard: boolean): string;
}

/**
 * A thrown value as one line of error text (name and message, no colours,
 * at most 2,000 characters), always a primitive string: it runs after
 * candidate code, so it calls only functions captured before it.
 */
export function errorText(e: unknown): string {
  let text: string;
  try {
    text = e instanceof ErrorCtor
      ? (e as Error).name + ": " + (e as Error).message
      : "thrown: " + toText(e);
  } catch {
    return "thrown: (unprintable value)";
  }
  if (typeof text !== "string") return "thrown: (unprintable value)";
  try {
    // deno-lint-ignore no-control-regex
    const plain = replaceText(text, /\x1b\[[0-9;]*m/g, "");
    if (typeof plain === "string") text = plain;
  } catch {
    // a patched RegExp: the text keeps its colours
  }
  return sliceText(text, 0, 2000);
}

/** A failed call's answer: `{"ok":false,"error":…}` (no `toJSON` consulted). */
export function failure(error: string): string {
  return '{"ok":false,"error":' + stringify(error) + "}";
}
