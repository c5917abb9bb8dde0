/**
 * Reading `results.jsonl` back, tolerating a torn last line.
 *
 * @module
 */
import type { ResultRow } from "../types.ts";

/** Options for {@linkcode readResults}. */
export interface ReadResultsOptions {
  /**
   * Called for a line that is not valid JSON. A torn last line (a crash in
   * the middle of a write) is always skipped silently.
   * @default throws a SyntaxError
   */
  onBadLine?: (lineNumber: number, text: string) => void;
}

/**
 * Streams the rows of a JSONL results file without loading it whole.
 * A last line without its newline that does not parse is a torn write and
 * is skipped. A missing file yields nothing.
 *
 * @param path The `results.jsonl` path.
 * @param options What to do with bad lines in the middle.
 * @returns The rows in file order.
 * @throws {SyntaxError} for an unparsable line that is not the torn last one.
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
 * await Deno.remove(dir, { recursive: true });
 * ```
 */
export async function* readResults(
  path: string,
  options: ReadResultsOptions = {},
): AsyncGenerator<ResultRow> {
  const { onBadLine } = options;
  let file: Deno.FsFile;
  try {
    file = await Deno.open(path, { read: true });
  } catch (error) {
    if (error instanceof Deno.errors.NotFound) return;
    throw error;
  }
  // Line splitting by hand: @std/streams' TextLineStream is on JSR, which is
  // not reachable here, and this is a few lines.
  const decoder = new TextDecoder();
  let rest = "";
  let lineNumber = 0;
  const parse = (line: string): ResultRow | null => {
    lineNumber++;
    if (line.trim() === "") return null;
    try {
      return JSON.parse(line) as ResultRow;
    } catch {
      if (onBadLine === undefined) {
        throw new SyntaxError(
          `Cannot read results ${path}: line ${lineNumber} is not valid JSON`,
        );
      }
      onBadLine(lineNumber, line);
      return null;
    }
  };
  try {
    for await (const chunk of file.readable) {
      rest += decoder.decode(chunk, { stream: true });
      let start = 0;
      let end: number;
      while ((end = rest.indexOf("\n", start)) !== -1) {
        const row = parse(rest.slice(start, end));
        if (row !== null) yield row;
        start = end + 1;
      }
      rest = rest.slice(start);
    }
  } finally {
    try {
      file.close();
    } catch {
      // already closed by the readable stream
    }
  }
  rest += decoder.decode();
  if (rest.trim() !== "") {
    try {
      yield JSON.parse(rest) as ResultRow;
    } catch {
      // torn last line: tolerated
    }
  }
}

/**
 * Cuts a torn last line (bytes after the last newline) off a results file,
 * so that appending can go on. A missing file is left missing.
 *
 * @param path The `results.jsonl` path.
 * @returns How many bytes were cut.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { repairResults } from "./results_reader.ts";
 * const dir = await Deno.makeTempDir();
 * await Deno.writeTextFile(`${dir}/r.jsonl`, '{"key":"a"}\n{"ke');
 * assert.equal(await repairResults(`${dir}/r.jsonl`), 4);
 * assert.equal(await Deno.readTextFile(`${dir}/r.jsonl`), '{"key":"a"}\n');
 * await Deno.remove(dir, { recursive: true });
 * ```
 */
export async function repairResults(path: string): Promise<number> {
  let file: Deno.FsFile;
  try {
    file = await Deno.open(path, { read: true, write: true });
  } catch (error) {
    if (error instanceof Deno.errors.NotFound) return 0;
    throw error;
  }
  try {
    const size = (await file.stat()).size;
    // Scan backwards in blocks for the last newline.
    const block = 64 * 1024;
    let end = size;
    while (end > 0) {
      const start = Math.max(0, end - block);
      const buf = new Uint8Array(end - start);
      await file.seek(start, Deno.SeekMode.Start);
      let read = 0;
      while (read < buf.length) {
        const n = await file.read(buf.subarray(read));
        if (n === null) break;
        read += n;
      }
      const at = buf.lastIndexOf(10);
      if (at !== -1) {
        const keep = start + at + 1;
        if (keep < size) await file.truncate(keep);
        return size - keep;
      }
      end = start;
    }
    if (size > 0) await file.truncate(0);
    return size;
  } finally {
    file.close();
  }
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
