/** One line of `results.jsonl` that is not a result row, and why. */
export interface BadLine {
  /** 1-based line number in the file. */
  line: number;
  /** Why it is not a row (e.g. "not JSON: Unexpected token x"). */
  reason: string;
  /** Whether the line is JSON (just not a row object with a string `key`). */
  json: boolean;
  /** The start of the line (at most 80 characters). */
  excerpt: string;
}

/** How many bad lines a {@linkcode RunFormatError} message names. */
const NAMED = 5;

/**
 * A `results.jsonl` holds lines that are not result rows (other than a torn
 * last line, which loading skips with a warning). Carries the file and every
 * bad line so a caller (the report CLI maps it to exit 2) can point at them.
 * Its `name` is always `"RunFormatError"`.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { RunFormatError } from "./mod.ts";
 *
 * const error = new RunFormatError("outputs/r/results.jsonl", "outputs/r", [
 *   { line: 3, reason: "not JSON", json: false, excerpt: "xx" },
 * ]);
 * assert.equal(error.name, "RunFormatError");
 * assert.deepEqual(error.lines, [3]);
 * assert.match(error.message, /^Cannot load outputs\/r\/results\.jsonl: line 3 is not a result row \(not JSON\)/);
 * assert.ok(error instanceof SyntaxError);
 * ```
 */
export class RunFormatError extends SyntaxError {
  /** The `results.jsonl` path. */
  readonly path: string;
  /** The run folder (as given to `loadRuns`). */
  readonly run: string;
  /** 1-based numbers of the lines that are not rows, in file order. */
  readonly lines: number[];
  /** Each bad line with its reason and an excerpt. */
  readonly bad: BadLine[];

  /**
   * Builds the error and its message from the bad lines.
   *
   * @param path The `results.jsonl` path.
   * @param run The run folder, named in the resume advice.
   * @param bad The lines that are not rows (at least one).
   */
  constructor(path: string, run: string, bad: readonly BadLine[]) {
    super(runFormatMessage(path, run, bad));
    this.path = path;
    this.run = run;
    this.bad = [...bad];
    this.lines = bad.map((b) => b.line);
  }

  /** Always `"RunFormatError"` (stable across bundling and subclassing). */
  override get name(): string {
    return "RunFormatError";
  }
}

function runFormatMessage(
  path: string,
  run: string,
  bad: readonly BadLine[],
): string {
  const shown = bad.slice(0, NAMED);
  const more = bad.length > NAMED ? ` and ${bad.length - NAMED} more` : "";
  const what = bad.length === 1
    ? `line ${shown[0]?.line} is not a result row (${shown[0]?.reason})`
    : `lines ${
      shown.map((b) => b.line).join(", ")
    }${more} are not result rows (${
      shown.map((b) => `line ${b.line}: ${b.reason}`).join("; ")
    })`;
  const it = bad.length === 1 ? "it" : "them";
  const keys = bad.length === 1 ? "its key" : "their keys";
  const lines = bad.length === 1 ? "the line" : "the lines";
  // Resume sets aside lines that are not JSON; JSON that is not a row
  // object is for the user to delete or fix.
  return bad.every((b) => !b.json)
    ? `Cannot load ${path}: ${what}; run \`deno task sweep --resume ${run}\` to set ${it} aside and redo ${keys}, or delete ${lines}`
    : `Cannot load ${path}: ${what}; delete or fix ${lines} (a row is a JSON object with a string "key"), then run \`deno task sweep --resume ${run}\` to redo missing keys`;
}
