/**
 * Reading `results.jsonl` back, tolerating a torn last line.
 *
 * @module
 */
import { dirname, join } from "node:path";
import type { ResultRow } from "../types.ts";
import { readLineBatches } from "./lines.ts";

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
 * // A broken line in the middle stops the read and says how to mend it.
 * await Deno.writeTextFile(`${dir}/r.jsonl`, '{"key":"a"}\n{"ke\n{"key":"c"}\n');
 * await assert.rejects(
 *   async () => { for await (const _ of readResults(`${dir}/r.jsonl`)); },
 *   /line 2 is not valid JSON; resume its run with `deno task sweep --resume /,
 * );
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
  using _ = file;
  for await (const { lines, first, terminated } of readLineBatches(file)) {
    for (let i = 0; i < lines.length; i++) {
      const line = lines[i]!;
      if (line.trim() === "") continue;
      let row: ResultRow;
      try {
        row = JSON.parse(line);
      } catch {
        if (!terminated) continue; // torn last line: tolerated
        if (onBadLine === undefined) {
          const aside = `${path.replace(/\.jsonl$/, "")}.bad-<time>.jsonl`;
          throw new SyntaxError(
            `Cannot read results ${path}: line ${first + i} is not valid ` +
              `JSON; resume its run with \`deno task sweep --resume ` +
              `${dirname(path)}\`, which moves such lines to ${aside} and ` +
              "redoes their rows, or remove the line",
          );
        }
        onBadLine(first + i, line);
        continue;
      }
      yield row;
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
  const block = 1 << 16;
  let bytes = new Uint8Array(0);
  if (direction === "forward") {
    let pos = at;
    for (;;) {
      const buf = new Uint8Array(block);
      await file.seek(pos, Deno.SeekMode.Start);
      const n = await file.read(buf);
      if (n === null) break;
      const joined = new Uint8Array(bytes.length + n);
      joined.set(bytes);
      joined.set(buf.subarray(0, n), bytes.length);
      const nl = joined.indexOf(0x0a, bytes.length);
      bytes = joined;
      pos += n;
      if (nl >= 0) {
        bytes = bytes.subarray(0, nl);
        break;
      }
    }
  } else {
    if (at === 0) return null;
    const end = at - 1; // the newline that ends the line
    let start = end;
    for (;;) {
      const from = Math.max(0, start - block);
      const buf = new Uint8Array(start - from);
      await file.seek(from, Deno.SeekMode.Start);
      let read = 0;
      while (read < buf.length) {
        const n = await file.read(buf.subarray(read));
        if (n === null) break;
        read += n;
      }
      const joined = new Uint8Array(buf.length + bytes.length);
      joined.set(buf);
      joined.set(bytes, buf.length);
      bytes = joined;
      start = from;
      const nl = buf.lastIndexOf(0x0a);
      if (nl >= 0 || from === 0) {
        bytes = bytes.subarray(nl + 1, end - start);
        break;
      }
    }
  }
  return new TextDecoder().decode(bytes);
}
