/**
 * Reading `results.jsonl` back, tolerating a torn last line.
 *
 * @module
 */
import { dirname, join } from "node:path";
import type { ResultRow } from "../types.ts";
import { lineAfter, lineBefore, readLineBatches } from "./lines.ts";
import { resultsFileError } from "./run_dir.ts";

/**
 * The one end-of-file rule of `results.jsonl`, shared by every reader (the
 * store, the report loader, merge and batch): a line is a row when it is a
 * JSON object with a string `key`. A last line without its newline that is
 * a row is complete (a stop between the row and its newline) and is kept;
 * one that is not is torn (a stop in the middle of the row) and is set
 * aside like a garbage line.
 *
 * @param text One line, without its newline.
 * @returns Whether the line is a result row.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { isRowLine } from "./results_reader.ts";
 * assert.equal(isRowLine('{"key":"m|q|t|0","status":"correct"}'), true);
 * assert.equal(isRowLine('{"key":"m|q|t|0","sta'), false);
 * assert.equal(isRowLine("42"), false);
 * ```
 */
export function isRowLine(text: string): boolean {
  if (text.trim() === "") return false;
  try {
    return isRowValue(JSON.parse(text));
  } catch {
    return false;
  }
}

function isRowValue(value: unknown): boolean {
  return typeof value === "object" && value !== null &&
    !Array.isArray(value) &&
    typeof (value as { key?: unknown }).key === "string";
}

/** Options for {@linkcode readResults}. */
export interface ReadResultsOptions {
  /**
   * Called for a line in the middle that is not a row (see
   * {@linkcode isRowLine}).
   * @default throws a SyntaxError
   */
  onBadLine?: (lineNumber: number, text: string) => void;
  /**
   * Called for a torn last line (no newline, not a row: a stop in the
   * middle of a write). It is never yielded.
   * @default skips it silently
   */
  onTornLine?: (lineNumber: number, text: string) => void;
  /**
   * Whether a row belongs to the file's run (its plan, its run id); a row
   * it refuses is not yielded but given to `onForeignRow`.
   * @default every row belongs
   */
  belongs?: (row: ResultRow) => boolean;
  /** Called for a row `belongs` refused, with its line. @default ignored */
  onForeignRow?: (lineNumber: number, text: string, row: ResultRow) => void;
}

/**
 * Streams the rows of a JSONL results file without loading it whole.
 * A last line without its newline is a row when it is one (see
 * {@linkcode isRowLine}) and is otherwise a torn write, skipped. A missing
 * file yields nothing.
 *
 * @param path The `results.jsonl` path.
 * @param options What to do with bad lines in the middle and a torn end.
 * @returns The rows in file order.
 * @throws {SyntaxError} for a line in the middle that is not a row.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { readResults } from "./results_reader.ts";
 * const dir = await Deno.makeTempDir();
 * await Deno.writeTextFile(`${dir}/r.jsonl`, '{"key":"a"}\n{"key":"b"}\n{"key":"c');
 * const keys = [];
 * for await (const row of readResults(`${dir}/r.jsonl`)) keys.push(row.key);
 * assert.deepEqual(keys, ["a", "b"]);
 * // A complete last row without its newline is a row.
 * await Deno.writeTextFile(`${dir}/r.jsonl`, '{"key":"a"}\n{"key":"b"}');
 * keys.length = 0;
 * for await (const row of readResults(`${dir}/r.jsonl`)) keys.push(row.key);
 * assert.deepEqual(keys, ["a", "b"]);
 * // A broken line in the middle stops the read and says how to mend it.
 * await Deno.writeTextFile(`${dir}/r.jsonl`, '{"key":"a"}\n{"ke\n{"key":"c"}\n');
 * await assert.rejects(
 *   async () => { for await (const _ of readResults(`${dir}/r.jsonl`)); },
 *   /line 2 is not a result row; resume its run with `deno task sweep --resume /,
 * );
 * // Rows of another run are handed aside, with their line.
 * await Deno.writeTextFile(`${dir}/r.jsonl`, '{"key":"a","run":"x"}\n{"key":"b","run":"y"}\n');
 * const foreign: number[] = [];
 * keys.length = 0;
 * const rows = readResults(`${dir}/r.jsonl`, {
 *   belongs: (row) => row.run === "x",
 *   onForeignRow: (line) => foreign.push(line),
 * });
 * for await (const row of rows) keys.push(row.key);
 * assert.deepEqual([keys, foreign], [["a"], [2]]);
 * await Deno.remove(dir, { recursive: true });
 * ```
 */
export async function* readResults(
  path: string,
  options: ReadResultsOptions = {},
): AsyncGenerator<ResultRow> {
  const { onBadLine, onTornLine, belongs, onForeignRow } = options;
  let file: Deno.FsFile;
  try {
    file = await Deno.open(path, { read: true });
  } catch (error) {
    if (error instanceof Deno.errors.NotFound) return;
    throw resultsFileError(error, { path, action: "read the rows" });
  }
  using _ = file;
  // A folder opens (for reading) on Linux; its first read fails (EISDIR).
  const batches = readLineBatches(file);
  const next = async () => {
    try {
      return await batches.next();
    } catch (error) {
      throw resultsFileError(error, { path, action: "read the rows" });
    }
  };
  for (let b = await next(); !b.done; b = await next()) {
    const { lines, first, terminated } = b.value;
    for (let i = 0; i < lines.length; i++) {
      const line = lines[i]!;
      if (line.trim() === "") continue;
      let row: ResultRow | undefined;
      try {
        const value = JSON.parse(line);
        if (isRowValue(value)) row = value;
      } catch {
        // not JSON: not a row
      }
      if (row !== undefined) {
        if (belongs === undefined || belongs(row)) yield row;
        else onForeignRow?.(first + i, line, row);
        continue;
      }
      if (!terminated) {
        onTornLine?.(first + i, line);
        continue;
      }
      if (onBadLine === undefined) {
        const aside = `${path.replace(/\.jsonl$/, "")}.bad-<time>.jsonl`;
        throw new SyntaxError(
          `Cannot read results ${path}: line ${first + i} is not a result ` +
            `row; resume its run with \`deno task sweep --resume ` +
            `${dirname(path)}\`, which moves such lines to ${aside} and ` +
            "redoes their rows, or remove the line",
        );
      }
      onBadLine(first + i, line);
    }
  }
}

/** Where the complete rows of a results file end (see {@linkcode resultsEnd}). */
export interface ResultsEnd {
  /** The file's size in bytes. */
  size: number;
  /** Bytes of complete lines: the file up to a torn last line, else all. */
  prefix: number;
  /** The last line is a row without its newline. */
  unterminated: boolean;
  /** The torn last line (no newline, not a row), or null. */
  torn: string | null;
}

/**
 * Applies the end-of-file rule ({@linkcode isRowLine}) to a file's tail
 * without reading all of it. Hand-written because no library answers
 * "where does the last complete line end" from a file's tail.
 *
 * @param path The `results.jsonl` path (it must exist).
 * @returns The size, the complete prefix and what the last line is.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { resultsEnd } from "./results_reader.ts";
 * const dir = await Deno.makeTempDir();
 * await Deno.writeTextFile(`${dir}/r.jsonl`, '{"key":"a"}\n{"ke');
 * assert.deepEqual(await resultsEnd(`${dir}/r.jsonl`), {
 *   size: 16, prefix: 12, unterminated: false, torn: '{"ke',
 * });
 * await Deno.remove(dir, { recursive: true });
 * ```
 */
export async function resultsEnd(path: string): Promise<ResultsEnd> {
  using file = await Deno.open(path, { read: true });
  const { size } = await file.stat();
  const clean = { size, prefix: size, unterminated: false, torn: null };
  if (size === 0) return clean;
  const last = await lineBefore(file, size);
  if (last.start === size) return clean; // ends with its newline
  const lineStart = last.start;
  const text = new TextDecoder().decode(last.bytes);
  if (text.trim() === "") return clean; // trailing blanks: harmless
  return isRowLine(text)
    ? { size, prefix: size, unterminated: true, torn: null }
    : { size, prefix: lineStart, unterminated: false, torn: text };
}

/** What {@linkcode repairResults} did. */
export interface RepairOutcome {
  /** A newline was added after a complete last row. */
  newline: boolean;
  /** The torn last line that was cut off (to be set aside), or null. */
  torn: string | null;
}

/**
 * Ends a results file on a line boundary so that appending can go on,
 * by the end-of-file rule ({@linkcode isRowLine}): a complete last row
 * without its newline gets it; a torn last line is cut off and returned,
 * for the caller to set aside. A missing file is left missing.
 *
 * @param path The `results.jsonl` path.
 * @returns What was done.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { repairResults } from "./results_reader.ts";
 * const dir = await Deno.makeTempDir();
 * await Deno.writeTextFile(`${dir}/r.jsonl`, '{"key":"a"}\n{"ke');
 * assert.deepEqual(await repairResults(`${dir}/r.jsonl`), { newline: false, torn: '{"ke' });
 * assert.equal(await Deno.readTextFile(`${dir}/r.jsonl`), '{"key":"a"}\n');
 * await Deno.writeTextFile(`${dir}/r.jsonl`, '{"key":"a"}\n{"key":"b"}');
 * assert.deepEqual(await repairResults(`${dir}/r.jsonl`), { newline: true, torn: null });
 * assert.equal(await Deno.readTextFile(`${dir}/r.jsonl`), '{"key":"a"}\n{"key":"b"}\n');
 * await Deno.remove(dir, { recursive: true });
 * ```
 */
export async function repairResults(path: string): Promise<RepairOutcome> {
  let end: ResultsEnd;
  try {
    end = await resultsEnd(path);
  } catch (error) {
    if (error instanceof Deno.errors.NotFound) {
      return { newline: false, torn: null };
    }
    throw error;
  }
  if (end.unterminated) {
    using file = await Deno.open(path, { append: true });
    await file.write(new Uint8Array([0x0a]));
    return { newline: true, torn: null };
  }
  if (end.torn !== null) {
    using file = await Deno.open(path, { write: true });
    await file.truncate(end.prefix);
    return { newline: false, torn: end.torn };
  }
  return { newline: false, torn: null };
}

/**
 * The keys of all rows stored in a results file (torn last line ignored).
 *
 * @param path The `results.jsonl` path.
 * @returns The set of `key` values.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { readFinishedKeys } from "./results_reader.ts";
 * const dir = await Deno.makeTempDir();
 * await Deno.writeTextFile(`${dir}/r.jsonl`, '{"key":"a"}\n{"key":"b"}\n');
 * assert.deepEqual([...await readFinishedKeys(`${dir}/r.jsonl`)], ["a", "b"]);
 * await Deno.remove(dir, { recursive: true });
 * ```
 */
export async function readFinishedKeys(path: string): Promise<Set<string>> {
  const keys = new Set<string>();
  for await (const row of readResults(path, { onBadLine: () => {} })) {
    keys.add(row.key);
  }
  return keys;
}

/** File name of the CSV copy of the results, beside `results.jsonl`. */
export const RESULTS_COPY_FILE = ".results.copy.csv";
/** File name of the copy's index (what part of the JSONL the copy holds). */
export const RESULTS_COPY_INDEX = ".results.copy.json";
/** Version of the copy's format; a different one is ignored. */
export const RESULTS_COPY_VERSION = 1;

/**
 * What the CSV copy of a results file holds: its first `rows` data rows
 * (after the header) are the rows of the JSONL's first `jsonlEnd` bytes, in
 * order. Written by {@linkcode ResultsWriter} as rows are appended.
 */
export interface ResultsCopyIndex {
  /** {@linkcode RESULTS_COPY_VERSION}. */
  version: number;
  /** The JSONL's inode when written (a rewrite renames a new file in). */
  ino: number | null;
  /** Bytes of the JSONL the copy covers (a line boundary). */
  jsonlEnd: number;
  /** Bytes of the CSV that hold those rows (header included). */
  csvEnd: number;
  /** Rows covered. */
  rows: number;
  /** Key of the first covered row. */
  firstKey: string | null;
  /** Key of the last covered row. */
  lastKey: string | null;
  /** The CSV's columns: row fields, then `_extra` (other fields as JSON). */
  columns: string[];
}

/**
 * The copy's index if it still describes the results file: same file
 * (inode), long enough, not rewritten in place after the index was saved,
 * and the covered rows' first and last lines carry the recorded keys. `results.jsonl` is the source of truth; a copy that
 * cannot be shown to agree with it is not used.
 *
 * @param path The `results.jsonl` path.
 * @returns The index, or null when there is no usable copy.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { ResultsWriter, verifiedCopy } from "./mod.ts";
 * const dir = await Deno.makeTempDir();
 * const writer = await ResultsWriter.open(`${dir}/results.jsonl`);
 * writer.append({ key: "a", dims: {} } as never);
 * await writer.close();
 * assert.equal((await verifiedCopy(`${dir}/results.jsonl`))?.rows, 1);
 * await Deno.writeTextFile(`${dir}/results.jsonl`, '{"key":"b"}\n');
 * assert.equal(await verifiedCopy(`${dir}/results.jsonl`), null);
 * await Deno.remove(dir, { recursive: true });
 * ```
 */
export async function verifiedCopy(
  path: string,
): Promise<ResultsCopyIndex | null> {
  const dir = dirname(path);
  const indexPath = join(dir, RESULTS_COPY_INDEX);
  let index: ResultsCopyIndex;
  try {
    index = JSON.parse(await Deno.readTextFile(indexPath));
  } catch {
    return null;
  }
  if (index?.version !== RESULTS_COPY_VERSION) return null;
  try {
    const st = await Deno.stat(path);
    if (index.ino !== null && st.ino !== null && st.ino !== index.ino) {
      return null;
    }
    if (st.size < index.jsonlEnd) return null;
    // Same length but written after the index: edited in place.
    const saved = (await Deno.stat(indexPath)).mtime;
    if (
      st.size === index.jsonlEnd && st.mtime !== null && saved !== null &&
      st.mtime.getTime() > saved.getTime()
    ) return null;
    if (index.rows === 0) return index.jsonlEnd === 0 ? index : null;
    using file = await Deno.open(path, { read: true });
    const first = await lineAt(file, 0, "forward");
    const last = await lineAt(file, index.jsonlEnd, "backward");
    if (keyOf(first) !== index.firstKey || keyOf(last) !== index.lastKey) {
      return null;
    }
    return index;
  } catch {
    return null;
  }
}

function keyOf(line: string | null): string | null {
  if (line === null) return null;
  try {
    const key = JSON.parse(line)?.key;
    return typeof key === "string" ? key : null;
  } catch {
    return null;
  }
}

/** The line starting at `at` (forward) or ending with the newline before `at` (backward). */
async function lineAt(
  file: Deno.FsFile,
  at: number,
  direction: "forward" | "backward",
): Promise<string | null> {
  if (direction === "backward" && at === 0) return null;
  const line = direction === "forward"
    ? await lineAfter(file, at)
    : await lineBefore(file, at - 1);
  return new TextDecoder().decode(line.bytes);
}
