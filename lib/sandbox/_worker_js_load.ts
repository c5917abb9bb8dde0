/**
 * Loads a candidate's JavaScript or TypeScript program in the worker: as a
 * `data:` module with one added export that hands the entry out under a
 * random name, with a syntax error told apart from a crash while loading.
 *
 * @module
 */
import { errorText } from "./_worker_engine.ts";
import { encodeText, stringifyOwn } from "./_worker_captured.ts";
import type { Entry } from "./_worker_timed.ts";

/** A loaded program: the `load` answer, and the entry when it is `ok`. */
export interface Loaded {
  /** JSON text with status `ok`, `compile_error`, `crash` or `no_entry`. */
  answer: string;
  /** The entry function; always an own property (read after candidate code ran). */
  fn: Entry | undefined;
}

/** Imports the program and finds its entry. */
export async function loadProgram(
  code: string,
  entry: string,
  typescript: boolean,
): Promise<Loaded> {
  const exportName = "__sandbox_entry_" +
    Math.random().toString(36).slice(2);
  const source = code + "\n;export const " + exportName +
    " = typeof " + entry + ' === "undefined" ? undefined : ' + entry +
    ";\n";
  const url = "data:" +
    (typescript ? "application/typescript" : "text/javascript") +
    ";base64," + btoa(
      Array.from(encodeText(source), (b) => String.fromCharCode(b)).join(
        "",
      ),
    );
  let mod: Record<string, unknown>;
  try {
    mod = await import(url);
  } catch (e) {
    const text = errorText(e);
    const syntax = /SyntaxError|Expected|Unexpected|Unterminated|parse/i
      .test(text) && !/Requires|NotCapable/.test(text);
    return {
      answer: stringifyOwn({
        status: syntax ? "compile_error" : "crash",
        error: syntax ? text : "Cannot run the program: " + text,
      }),
      fn: undefined,
    };
  }
  const f = mod[exportName];
  if (typeof f !== "function") {
    return {
      answer: stringifyOwn({
        status: "no_entry",
        error: "Cannot find the entry function " + entry +
          ": the program does not define it",
      }),
      fn: undefined,
    };
  }
  return { answer: stringifyOwn({ status: "ok" }), fn: f as Entry };
}
