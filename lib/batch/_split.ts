/**
 * Splitting request lines into files within a batch service's limits.
 * Private to `lib/batch`.
 *
 * @module
 */

/** OpenAI's limits per batch input file. */
export const MAX_LINES = 50_000;
/** 200 MB. */
export const MAX_BYTES = 200 * 1000 * 1000;

/**
 * Groups JSONL lines (without newlines) into files of at most `maxLines`
 * lines and `maxBytes` bytes (newlines counted).
 *
 * @throws {RangeError} If one line alone is over `maxBytes`.
 */
export function* splitLines(
  lines: Iterable<string>,
  maxLines: number,
  maxBytes: number,
): Generator<string[]> {
  const encoder = new TextEncoder();
  let chunk: string[] = [];
  let bytes = 0;
  for (const line of lines) {
    const size = encoder.encode(line).length + 1;
    if (size > maxBytes) {
      throw new RangeError(
        `Cannot split the request file: one line is ${size} bytes, over the ${maxBytes}-byte file limit; shorten the prompt`,
      );
    }
    if (chunk.length >= maxLines || bytes + size > maxBytes) {
      yield chunk;
      chunk = [];
      bytes = 0;
    }
    chunk.push(line);
    bytes += size;
  }
  if (chunk.length > 0) yield chunk;
}
