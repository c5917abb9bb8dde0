/**
 * Reading a line file (JSONL) in big chunks, as batches of decoded lines.
 *
 * @module
 */

/** Options for {@linkcode readLineBatches}. */
export interface ReadLineBatchesOptions {
  /**
   * Byte offset to start at; it should be the start of a line. Line
   * numbers count from here.
   * @default {0}
   */
  from?: number;
  /**
   * Byte offset to stop at (exclusive); what lies between the last newline
   * and `to` is returned as an unterminated last line.
   * @default the end of the file
   */
  to?: number;
  /**
   * Bytes read and decoded at a time. A longer line is carried over
   * several reads.
   * @default {4 << 20}
   */
  chunkSize?: number;
}

/** Consecutive lines of a file, as read from one chunk. */
export interface LineBatch {
  /**
   * The lines, decoded as UTF-8, without their `"\n"` (a `"\r"` before it
   * stays). Blank lines are kept, so line numbers stay right.
   */
  lines: string[];
  /** 1-based number of `lines[0]`, counted from `from`. */
  first: number;
  /** Byte offset just past the batch's last line (and its newline). */
  end: number;
  /**
   * False only for the last batch when the range ends without a newline:
   * it then holds that one unterminated line (in a file being appended to,
   * a torn write).
   */
  terminated: boolean;
}

/**
 * Reads the lines of an open file between two byte offsets, decoding a big
 * chunk at a time (millions of rows go by in a few hundred reads). Each
 * batch holds the complete lines of one chunk; a last line without its
 * newline comes alone in a final batch with `terminated: false`. Line
 * splitting by hand: @std/streams' TextLineStream is on JSR, which is not
 * reachable here, and it yields one line per promise, which costs more
 * than parsing a short row.
 *
 * @param file A file open for reading; it is read from `from` on and not
 * closed (the caller owns it).
 * @param options The byte range and chunk size.
 * @returns The batches in file order.
 * @throws {RangeError} when `from` is negative, `to` is below `from` or
 * `chunkSize` is not a positive integer.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { readLineBatches } from "./lines.ts";
 * const dir = await Deno.makeTempDir();
 * await Deno.writeTextFile(`${dir}/r.jsonl`, 'a\n\nb\n{"tor');
 * using file = await Deno.open(`${dir}/r.jsonl`);
 * const batches = [];
 * for await (const batch of readLineBatches(file)) batches.push(batch);
 * assert.deepEqual(batches, [
 *   { lines: ["a", "", "b"], first: 1, end: 5, terminated: true },
 *   { lines: ['{"tor'], first: 4, end: 10, terminated: false },
 * ]);
 * await Deno.remove(dir, { recursive: true });
 * ```
 */
export async function* readLineBatches(
  file: Deno.FsFile,
  options: ReadLineBatchesOptions = {},
): AsyncGenerator<LineBatch> {
  const { from = 0, to = Infinity, chunkSize = 4 << 20 } = options;
  if (!(from >= 0) || !(to >= from)) {
    throw new RangeError(
      `Cannot read lines from byte ${from} to ${to}: give 0 <= from <= to`,
    );
  }
  if (!Number.isInteger(chunkSize) || chunkSize <= 0) {
    throw new RangeError(
      `Cannot read lines in chunks of ${chunkSize} bytes: give a positive integer`,
    );
  }
  await file.seek(from, Deno.SeekMode.Start);
  // One stream: a byte-order mark is dropped at `from` only. Every decode
  // ends on a newline, so no character is split between two decodes.
  const decoder = new TextDecoder();
  const buf = new Uint8Array(Math.min(chunkSize, Math.max(to - from, 1)));
  let carry = new Uint8Array(0);
  let pos = from;
  let first = 1;
  while (pos < to) {
    const n = await file.read(buf.subarray(0, Math.min(buf.length, to - pos)));
    if (n === null) break;
    pos += n;
    let chunk = buf.subarray(0, n);
    if (carry.length > 0) {
      const joined = new Uint8Array(carry.length + n);
      joined.set(carry);
      joined.set(chunk, carry.length);
      chunk = joined;
    }
    const last = chunk.lastIndexOf(0x0a);
    if (last < 0) {
      carry = chunk.slice();
      continue;
    }
    carry = chunk.slice(last + 1);
    const lines = decoder.decode(chunk.subarray(0, last + 1), { stream: true })
      .split("\n");
    lines.pop();
    const end = pos - carry.length;
    yield { lines, first, end, terminated: true };
    first += lines.length;
  }
  if (carry.length > 0) {
    const lines = [decoder.decode(carry)];
    yield { lines, first, end: pos, terminated: false };
  }
}

/** One line's bytes and where it starts in the file. */
export interface LineBytes {
  /** Byte offset of the line's first byte. */
  start: number;
  /** The line, without its newline. */
  bytes: Uint8Array;
}

async function readRange(
  file: Deno.FsFile,
  from: number,
  length: number,
): Promise<Uint8Array> {
  const buf = new Uint8Array(length);
  await file.seek(from, Deno.SeekMode.Start);
  let read = 0;
  while (read < length) {
    const n = await file.read(buf.subarray(read));
    if (n === null) break;
    read += n;
  }
  return buf.subarray(0, read);
}

/**
 * The line that starts at byte `start`: its bytes up to the next newline
 * (or the end of the file, or `end`), read in blocks. With
 * {@linkcode lineBefore}, the one way the store and the report read single
 * lines at the ends of a file without reading it whole.
 *
 * @param file A file open for reading (not closed).
 * @param start Where the line starts.
 * @param options `end`: bytes at or past this offset are not read.
 *   @default the end
 * @returns The line.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { lineAfter, lineBefore } from "./lines.ts";
 * const dir = await Deno.makeTempDir();
 * await Deno.writeTextFile(`${dir}/r.jsonl`, 'ab\ncd\n{"to');
 * using file = await Deno.open(`${dir}/r.jsonl`);
 * const text = (l: { bytes: Uint8Array }) => new TextDecoder().decode(l.bytes);
 * assert.equal(text(await lineAfter(file, 3)), "cd");
 * const last = await lineBefore(file, 10);
 * assert.deepEqual([last.start, text(last)], [6, '{"to']);
 * assert.equal(text(await lineBefore(file, 5)), "cd");
 * await Deno.remove(dir, { recursive: true });
 * ```
 */
export async function lineAfter(
  file: Deno.FsFile,
  start: number,
  { end = Infinity }: { end?: number } = {},
): Promise<LineBytes> {
  const block = 1 << 16;
  let bytes = new Uint8Array(0);
  let pos = start;
  while (pos < end) {
    const buf = await readRange(file, pos, Math.min(block, end - pos));
    if (buf.length === 0) break;
    const joined = new Uint8Array(bytes.length + buf.length);
    joined.set(bytes);
    joined.set(buf, bytes.length);
    const nl = joined.indexOf(0x0a, bytes.length);
    if (nl >= 0) return { start, bytes: joined.subarray(0, nl) };
    bytes = joined;
    pos += buf.length;
  }
  return { start, bytes };
}

/**
 * The bytes between the last newline before byte `end` and `end`: the
 * line that `end` ends (give the offset of its newline, or the file's size
 * for an unterminated last line), read backwards in blocks.
 *
 * @param file A file open for reading (not closed).
 * @param end Where the line ends (exclusive).
 * @returns The line and its start.
 */
export async function lineBefore(
  file: Deno.FsFile,
  end: number,
): Promise<LineBytes> {
  const block = 1 << 16;
  let bytes = new Uint8Array(0);
  let from = end;
  while (from > 0) {
    const start = Math.max(0, from - block);
    const buf = await readRange(file, start, from - start);
    const nl = buf.lastIndexOf(0x0a);
    const joined = new Uint8Array(buf.length - (nl + 1) + bytes.length);
    joined.set(buf.subarray(nl + 1));
    joined.set(bytes, buf.length - (nl + 1));
    bytes = joined;
    if (nl >= 0) return { start: start + nl + 1, bytes };
    from = start;
  }
  return { start: 0, bytes };
}
