import { readLineBatches } from "../store/mod.ts";
import type { BadLine } from "./errors.ts";

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
