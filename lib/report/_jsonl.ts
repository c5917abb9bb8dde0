import { readLineBatches } from "../store/mod.ts";
import type { BadLine } from "./errors.ts";

/**
 * Checks the end of a JSONL file without reading all of it: Polars reads
 * the body natively but fails on a torn last line (a crash mid-append),
 * which the store tolerates. Hand-written because no library answers "where
 * does the last complete line end" from a file's tail.
 *
 * @returns The file size, the byte length of the complete-lines prefix, and
 * whether a torn tail follows that prefix.
 */
export async function completePrefix(
  path: string,
): Promise<{ size: number; prefix: number; torn: boolean }> {
  using file = await Deno.open(path, { read: true });
  const { size } = await file.stat();
  if (size === 0) return { size, prefix: 0, torn: false };
  const last = await readAt(file, size - 1, 1);
  if (last[0] === 0x0a) return { size, prefix: size, torn: false };
  // Walk back in chunks to the last newline; what follows is the last line.
  const chunk = 1 << 16;
  let start = size;
  let tail = new Uint8Array(0);
  let nl = -1;
  while (start > 0 && nl < 0) {
    const from = Math.max(0, start - chunk);
    const buf = await readAt(file, from, start - from);
    const joined = new Uint8Array(buf.length + tail.length);
    joined.set(buf);
    joined.set(tail, buf.length);
    tail = joined;
    start = from;
    nl = buf.lastIndexOf(0x0a);
  }
  const lineStart = nl < 0 ? 0 : start + nl + 1;
  const text = new TextDecoder().decode(tail.subarray(lineStart - start));
  return parses(text)
    ? { size, prefix: size, torn: false }
    : { size, prefix: lineStart, torn: true };
}

async function readAt(
  file: Deno.FsFile,
  offset: number,
  length: number,
): Promise<Uint8Array> {
  const buf = new Uint8Array(length);
  await file.seek(offset, Deno.SeekMode.Start);
  let read = 0;
  while (read < length) {
    const n = await file.read(buf.subarray(read));
    if (n === null) break;
    read += n;
  }
  return buf.subarray(0, read);
}

function parses(line: string): boolean {
  if (line.trim() === "") return true;
  try {
    JSON.parse(line);
    return true;
  } catch {
    return false;
  }
}

/**
 * Every line in the first `end` bytes of a JSONL file that is not a result
 * row: not JSON, or JSON but not an object with a string `key`. Blank lines
 * are not rows but harmless (the store skips them too) and are not listed.
 * Only run when a fast read failed or found keyless rows, to name the
 * lines; it parses every line, so it is as slow as a plain loop.
 *
 * @param path The JSONL file.
 * @param end Bytes to read (the complete-lines prefix).
 * @returns The bad lines in file order (1-based line numbers).
 */
export async function findBadLines(
  path: string,
  end: number,
): Promise<BadLine[]> {
  using file = await Deno.open(path, { read: true });
  const bad: BadLine[] = [];
  for await (const { lines, first } of readLineBatches(file, { to: end })) {
    for (let i = 0; i < lines.length; i++) {
      const problem = rowProblem(lines[i]!);
      if (problem !== null) bad.push({ line: first + i, ...problem });
    }
  }
  return bad;
}

/** Why a line is not a result row, or null when it is one (or blank). */
function rowProblem(line: string): Omit<BadLine, "line"> | null {
  if (line.trim() === "") return null;
  let value: unknown;
  try {
    value = JSON.parse(line);
  } catch (error) {
    return {
      reason: `not JSON: ${jsonWhy(error)}`,
      json: false,
      excerpt: line.slice(0, 80),
    };
  }
  if (
    typeof value === "object" && value !== null && !Array.isArray(value) &&
    typeof (value as { key?: unknown }).key === "string"
  ) return null;
  return {
    reason: typeof value === "object" && value !== null && !Array.isArray(value)
      ? 'a JSON object without a string "key"'
      : `JSON ${Array.isArray(value) ? "array" : typeof value}, not an object`,
    json: true,
    excerpt: line.slice(0, 80),
  };
}

/** V8's JSON.parse message with its position as a column of the line. */
function jsonWhy(error: unknown): string {
  return String((error as Error).message ?? error)
    .replace(
      / in JSON at position (\d+)(?: \(line \d+ column \d+\))?/,
      (_, at) => ` at column ${Number(at) + 1}`,
    );
}
