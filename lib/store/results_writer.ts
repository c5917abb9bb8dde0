/**
 * Appending result rows to `results.jsonl`, with a CSV copy beside it that
 * the analysis layer reads several times faster than the JSONL.
 *
 * @module
 */
import { dirname, join } from "node:path";
import { RESULT_COLUMNS, type ResultRow } from "../types.ts";
import {
  RESULTS_COPY_FILE,
  RESULTS_COPY_INDEX,
  RESULTS_COPY_VERSION,
  type ResultsCopyIndex,
  verifiedCopy,
} from "./results_reader.ts";
import { readLineBatches } from "./lines.ts";

const RESOLVED = Promise.resolve();

/** Rows wait at most this long before they are written. */
const WRITE_DELAY_MS = 10;
/** Pending text that starts a write at once. */
const WRITE_AT_CHARS = 64 * 1024;
/**
 * Pending text beyond which `append` asks its caller to wait for the
 * write in flight. Kept small on purpose: rows that wait outlive a
 * scavenge and are promoted to the old generation. At 1 MB a fast
 * in-process sweep kept about 1,000 rows waiting at all times and
 * promoted 158 MB per 100k rows (peak RSS 286 MB); at 64 KiB, 15 MB.
 */
const WAIT_AT_CHARS = 64 * 1024;
/** JSONL bytes between two updates of the copy's index. */
const INDEX_EVERY_BYTES = 4 << 20;

/**
 * The row fields of the CSV copy: {@linkcode RESULT_COLUMNS}, in
 * `ResultRow` order; any other field goes, as JSON, in a last `_extra`
 * column. Objects (dims, metrics) are stored as JSON text.
 */
export const RESULTS_COPY_FIELDS: readonly string[] = RESULT_COLUMNS;
const KNOWN = new Set(RESULTS_COPY_FIELDS);
const COPY_HEADER = [...RESULTS_COPY_FIELDS, "_extra"].join(",") + "\n";

/**
 * One CSV cell: strings always quoted (so "" is an empty string and an
 * empty cell is null), objects as quoted JSON, numbers and booleans bare.
 */
function cell(v: unknown): string {
  if (typeof v === "string") {
    return v.includes('"')
      ? '"' + v.replaceAll('"', '""') + '"'
      : '"' + v + '"';
  }
  if (v === null || v === undefined) return "";
  if (typeof v === "object") return cell(JSON.stringify(v));
  if (typeof v === "number") return Number.isFinite(v) ? "" + v : "";
  return typeof v === "boolean" ? (v ? "true" : "false") : "";
}

/**
 * The cells of a row's {@linkcode RESULTS_COPY_FIELDS}, each followed by a
 * comma. A loop over the column list (about 1.5 µs a row more than a
 * hand-spelled line, which would be a second copy of the list, or a
 * generated function, which is eval).
 */
function knownCells(r: ResultRow): string {
  const record = r as unknown as Record<string, unknown>;
  let line = "";
  for (const field of RESULTS_COPY_FIELDS) line += cell(record[field]) + ",";
  return line;
}

/**
 * A row as one line of the CSV copy, fields in
 * {@linkcode RESULTS_COPY_FIELDS} order, then `_extra`. Hand-written
 * because a CSV library would cost more per row than the row's whole
 * write, and the format is fixed.
 */
function copyLine(r: ResultRow): string {
  const line = knownCells(r);
  // Any field beyond the known ones goes, as JSON, in `_extra`.
  let fields = 0;
  for (const _ in r) fields++;
  if (fields === RESULTS_COPY_FIELDS.length) return line + "\n";
  let extra: Record<string, unknown> | null = null;
  for (const [k, v] of Object.entries(r)) {
    if (!KNOWN.has(k) && v !== undefined) (extra ??= {})[k] = v;
  }
  return line + (extra === null ? "" : cell(extra)) + "\n";
}

/** The open CSV copy and how far it has got. */
interface Copy {
  file: Deno.FsFile;
  dir: string;
  index: ResultsCopyIndex;
  /** `jsonlEnd` when the index was last written. */
  saved: number;
}

/**
 * Appends rows to a JSONL file, one JSON object per line. Writes are
 * serialised and batched: a row starts a write after at most
 * {@linkcode WRITE_DELAY_MS} (or at once when 64 KB are waiting), and rows
 * handed in meanwhile join that single write, so a busy sweep makes few
 * syscalls (one write per row cost about 8 µs of a 400 µs row at 0 ms
 * latency). Nothing is held beyond the next write.
 */
export class ResultsWriter {
  #file: Deno.FsFile;
  #pending: string[] = [];
  #pendingChars = 0;
  #flushing: Promise<void> | null = null;
  #failure: unknown = null;
  #encoder = new TextEncoder();
  /** One reused buffer: a fresh one per write would pile up off-heap
   * memory that the garbage collector frees late (RSS grew with N). */
  #buffer = new Uint8Array(1 << 20);
  #rows = 0;
  #timer: ReturnType<typeof setTimeout> | undefined;
  #copy: Copy | null;
  #pendingCopy: string[] = [];
  #pendingKeys: string[] = [];

  private constructor(file: Deno.FsFile, copy: Copy | null) {
    this.#file = file;
    this.#copy = copy;
  }

  /**
   * Opens (creating if needed) a results file for appending. Unless
   * `copy` is false, a CSV copy of the rows is kept beside it
   * (`.results.copy.csv` and its index `.results.copy.json`): rows already
   * in the file that the copy lacks (a resume, a rewrite) are added to it
   * first. The copy never fails a write: on any trouble it is dropped and
   * readers fall back to the JSONL.
   *
   * @param path The `results.jsonl` path.
   * @param options `copy`: keep the CSV copy. @default {true}
   * @returns A writer; call `close()` when done.
   *
   * @example
   * ```ts
   * import assert from "node:assert/strict";
   * import { ResultsWriter } from "./results_writer.ts";
   * const dir = await Deno.makeTempDir();
   * const writer = await ResultsWriter.open(`${dir}/results.jsonl`);
   * writer.append({ key: "a" } as never);
   * writer.append({ key: "b" } as never);
   * await writer.close();
   * assert.equal(await Deno.readTextFile(`${dir}/results.jsonl`), '{"key":"a"}\n{"key":"b"}\n');
   * await Deno.remove(dir, { recursive: true });
   * ```
   */
  static async open(
    path: string,
    options: { copy?: boolean } = {},
  ): Promise<ResultsWriter> {
    const file = await Deno.open(path, {
      append: true,
      create: true,
      write: true,
    });
    const copy = options.copy === false ? null : await openCopy(path);
    return new ResultsWriter(file, copy);
  }

  /** Rows handed to `append` so far. */
  get rows(): number {
    return this.#rows;
  }

  /**
   * Queues one row; it is written as soon as the previous write ends.
   * The returned promise resolves at once, unless about 64 KiB is already
   * waiting: then it resolves when that is written (back-pressure, so a
   * fast producer cannot pile rows up in memory). Awaiting it is optional.
   *
   * @param row The finished row.
   * @returns A promise to await for back-pressure.
   * @throws {Error} if an earlier write failed.
   */
  append(row: ResultRow): Promise<void> {
    if (this.#failure !== null) {
      throw new Error(`Cannot append a result row: ${this.#failure}`);
    }
    const line = JSON.stringify(row) + "\n";
    if (this.#copy !== null) {
      this.#pendingCopy.push(copyLine(row));
      this.#pendingKeys.push(row.key);
    }
    this.#pending.push(line);
    this.#pendingChars += line.length;
    this.#rows++;
    if (this.#flushing === null) {
      if (this.#pendingChars >= WRITE_AT_CHARS) this.#startDrain();
      else this.#timer ??= setTimeout(() => this.#startDrain(), WRITE_DELAY_MS);
    }
    return this.#pendingChars > WAIT_AT_CHARS
      ? (this.#flushing ?? RESOLVED)
      : RESOLVED;
  }

  #startDrain(): void {
    clearTimeout(this.#timer);
    this.#timer = undefined;
    this.#flushing ??= this.#drain();
  }

  async #drain(): Promise<void> {
    try {
      while (this.#pending.length > 0) {
        const text = this.#pending.join("");
        const copyText = this.#pendingCopy.join("");
        const keys = this.#pendingKeys;
        this.#pending = [];
        this.#pendingCopy = [];
        this.#pendingKeys = [];
        this.#pendingChars = 0;
        const bytes = await this.#write(this.#file, text);
        // The copy follows the JSONL: it is written only after the rows it
        // mirrors, so it never holds a row the JSONL lacks.
        if (this.#copy !== null) {
          await this.#extendCopy(this.#copy, copyText, bytes, keys);
        }
      }
    } catch (error) {
      this.#failure = error;
    } finally {
      this.#flushing = null;
    }
  }

  /** Writes text through the reused buffer; returns the bytes written. */
  async #write(file: Deno.FsFile, text: string): Promise<number> {
    let total = 0;
    while (text.length > 0) {
      const { read, written } = this.#encoder.encodeInto(text, this.#buffer);
      text = text.slice(read);
      let offset = 0;
      while (offset < written) {
        offset += await file.write(this.#buffer.subarray(offset, written));
      }
      total += written;
    }
    return total;
  }

  async #extendCopy(
    copy: Copy,
    text: string,
    jsonlBytes: number,
    keys: string[],
  ): Promise<void> {
    try {
      const csvBytes = await this.#write(copy.file, text);
      const index = copy.index;
      index.jsonlEnd += jsonlBytes;
      index.csvEnd += csvBytes;
      if (index.rows === 0) index.firstKey = keys[0] ?? null;
      index.rows += keys.length;
      index.lastKey = keys.at(-1) ?? index.lastKey;
      if (index.jsonlEnd - copy.saved >= INDEX_EVERY_BYTES) {
        await saveIndex(copy);
      }
    } catch {
      this.#dropCopy();
    }
  }

  /** Stops keeping the copy; the last index written still tells the truth. */
  #dropCopy(): void {
    try {
      this.#copy?.file.close();
    } catch {
      // already closed
    }
    this.#copy = null;
    this.#pendingCopy = [];
    this.#pendingKeys = [];
  }

  /**
   * Waits until every appended row is written.
   *
   * @throws {Error} if a write failed.
   */
  async flush(): Promise<void> {
    if (this.#pending.length > 0) this.#startDrain();
    while (this.#flushing !== null) await this.#flushing;
    if (this.#failure !== null) {
      throw new Error(`Cannot write result rows: ${this.#failure}`);
    }
  }

  /** Flushes and closes the file (and brings the copy's index up to date). */
  async close(): Promise<void> {
    try {
      await this.flush();
      if (this.#copy !== null) {
        await saveIndex(this.#copy).catch(() => {});
      }
    } finally {
      this.#dropCopy();
      this.#file.close();
    }
  }
}

/** Writes the copy's index atomically (beside, then renamed over). */
async function saveIndex(copy: Copy): Promise<void> {
  const path = join(copy.dir, RESULTS_COPY_INDEX);
  const tmp = `${path}.tmp`;
  await Deno.writeTextFile(tmp, JSON.stringify(copy.index));
  await Deno.rename(tmp, path);
  copy.saved = copy.index.jsonlEnd;
}

/** Removes the copy of a results file (one that cannot be brought up to date). */
async function removeCopy(path: string): Promise<void> {
  const dir = dirname(path);
  for (const name of [RESULTS_COPY_INDEX, RESULTS_COPY_FILE]) {
    await Deno.remove(join(dir, name)).catch(() => {});
  }
}

/**
 * Opens the CSV copy for appending, first adding the rows of the JSONL it
 * lacks. Returns null (no copy) when the JSONL ends in a torn line or holds
 * a line that is not a row object: readers then use the JSONL alone.
 */
async function openCopy(path: string): Promise<Copy | null> {
  const dir = dirname(path);
  const csvPath = join(dir, RESULTS_COPY_FILE);
  let file: Deno.FsFile | null = null;
  try {
    const st = await Deno.stat(path);
    let index = await verifiedCopy(path);
    if (index !== null && !sameColumns(index.columns)) index = null;
    file = await Deno.open(csvPath, { write: true, create: true });
    if (index !== null && (await file.stat()).size >= index.csvEnd) {
      // A crash may have left copy rows past the index: cut them.
      await file.truncate(index.csvEnd);
    } else {
      await file.truncate(0);
      const header = new TextEncoder().encode(COPY_HEADER);
      await writeAll(file, header);
      index = {
        version: RESULTS_COPY_VERSION,
        ino: st.ino,
        jsonlEnd: 0,
        csvEnd: header.length,
        rows: 0,
        firstKey: null,
        lastKey: null,
        columns: [...RESULTS_COPY_FIELDS, "_extra"],
      };
    }
    await file.seek(index.csvEnd, Deno.SeekMode.Start);
    const copy: Copy = { file, dir, index, saved: -1 };
    if (index.jsonlEnd < st.size && !await catchUp(path, copy, st.size)) {
      file.close();
      await removeCopy(path);
      return null;
    }
    await saveIndex(copy);
    return copy;
  } catch {
    file?.close();
    await removeCopy(path);
    return null;
  }
}

function sameColumns(columns: readonly string[]): boolean {
  const want = [...RESULTS_COPY_FIELDS, "_extra"];
  return columns.length === want.length &&
    columns.every((c, i) => c === want[i]);
}

async function writeAll(file: Deno.FsFile, bytes: Uint8Array): Promise<void> {
  let offset = 0;
  while (offset < bytes.length) {
    offset += await file.write(bytes.subarray(offset));
  }
}

/** Adds the JSONL's rows from `copy.index.jsonlEnd` to `size` to the copy. */
async function catchUp(
  path: string,
  copy: Copy,
  size: number,
): Promise<boolean> {
  using file = await Deno.open(path, { read: true });
  const encoder = new TextEncoder();
  const index = copy.index;
  const range = { from: index.jsonlEnd, to: size };
  for await (const { lines, end, terminated } of readLineBatches(file, range)) {
    // A torn last line: appending after it would make it a bad middle line.
    if (!terminated) return false;
    let csv = "";
    const keys: string[] = [];
    for (const line of lines) {
      if (line.trim() === "") continue;
      let row: unknown;
      try {
        row = JSON.parse(line);
      } catch {
        return false;
      }
      if (
        typeof row !== "object" || row === null ||
        typeof (row as { key?: unknown }).key !== "string"
      ) return false;
      csv += copyLine(row as ResultRow);
      keys.push((row as { key: string }).key);
    }
    const csvBytes = encoder.encode(csv);
    await writeAll(copy.file, csvBytes);
    index.jsonlEnd = end;
    index.csvEnd += csvBytes.length;
    if (index.rows === 0 && keys.length > 0) index.firstKey = keys[0]!;
    index.rows += keys.length;
    index.lastKey = keys.at(-1) ?? index.lastKey;
  }
  return true;
}

/**
 * Replaces a results file's lines atomically and brings its CSV copy up to
 * date: the new file is written beside it (`<path>.tmp`) and renamed over
 * it, so a crash leaves either the old file or the new one, never half of
 * each; then the copy and its index are rebuilt from the new file by the
 * same code that {@linkcode ResultsWriter.open} uses. Until the new file
 * is written whole nothing of the old file or its copy is touched: when it
 * cannot be written, both stay byte-identical. For rewrites outside the
 * append-only path (garbage lines set aside on resume, relabelled rows,
 * replaced batch rows); every command that rewrites `results.jsonl` goes
 * through here.
 *
 * @param path The `results.jsonl` path.
 * @param lines The lines, without newlines.
 * @throws {Error} the file system's error when the new file cannot be
 *   written or renamed (the old file is then as it was, and so is its copy,
 *   or it is rebuilt for the old file; the temporary file is removed). A copy that cannot be rebuilt is
 *   dropped instead (readers then read the JSONL), never an error.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { ResultsWriter, rewriteResults, verifiedCopy } from "./mod.ts";
 * const dir = await Deno.makeTempDir();
 * const path = `${dir}/results.jsonl`;
 * const writer = await ResultsWriter.open(path);
 * writer.append({ key: "a" } as never);
 * writer.append({ key: "b" } as never);
 * await writer.close();
 * await rewriteResults(path, ['{"key":"b"}']);
 * assert.equal(await Deno.readTextFile(path), '{"key":"b"}\n');
 * // The copy was rebuilt for the new file, not dropped.
 * assert.deepEqual(
 *   [(await verifiedCopy(path))?.rows, (await verifiedCopy(path))?.firstKey],
 *   [1, "b"],
 * );
 * await Deno.remove(dir, { recursive: true });
 * ```
 */
export async function rewriteResults(
  path: string,
  lines: readonly string[],
): Promise<void> {
  const tmp = `${path}.tmp`;
  try {
    await Deno.writeTextFile(tmp, lines.map((l) => l + "\n").join(""));
  } catch (error) {
    await removeTemporary(tmp);
    throw error;
  }
  // The old index describes the old file: it goes first, so no reader
  // pairs it with the new one (the inode check alone is not enough where
  // the file system reports none).
  await Deno.remove(join(dirname(path), RESULTS_COPY_INDEX)).catch(() => {});
  try {
    await Deno.rename(tmp, path);
  } catch (error) {
    await removeTemporary(tmp);
    (await openCopy(path))?.file.close(); // the old file's copy, again
    throw error;
  }
  (await openCopy(path))?.file.close();
}

/** Removes a half-written temporary file; anything else at its path stays. */
async function removeTemporary(tmp: string): Promise<void> {
  try {
    if ((await Deno.lstat(tmp)).isFile) await Deno.remove(tmp);
  } catch {
    // nothing there, or not ours to remove
  }
}
