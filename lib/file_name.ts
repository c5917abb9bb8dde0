/**
 * File and folder names made from user strings (model names, run names,
 * the last part of a path given to a flag): bounded and safe on any file
 * system, readable, and distinct for distinct strings.
 *
 * @module
 */
import { sha256 } from "@noble/hashes/sha2";

/** Options of {@linkcode safeFileName}. */
export interface SafeFileNameOptions {
  /**
   * The longest name returned, in characters (all ASCII, so also bytes);
   * file systems allow 255 bytes per name, and the caller may add a
   * prefix or suffix. At least 16. @default 80
   */
  max?: number;
}

/** Characters kept as they are; any other becomes `_`. */
const UNSAFE = /[^A-Za-z0-9._-]/g;
/** Names Windows reserves (whatever the extension). */
const RESERVED = /^(con|prn|aux|nul|com\d|lpt\d)(\.|$)/i;
/** Hex characters of the hash added to a changed or cut name. */
const HASH_CHARS = 8;

/**
 * A file name made from any string: the string itself when it is already
 * a safe name (letters, digits, `.`, `_`, `-`; not starting with `.` or
 * `-`; not a name Windows reserves) of at most `max` characters;
 * otherwise a readable prefix (unsafe characters replaced by `_`, cut to
 * fit) plus `-` and 8 hex characters of the string's SHA-256, so two
 * strings that differ give two names.
 *
 * @param text Any string (a model name, a run name).
 * @param options The longest name.
 * @returns A name of 1 to `max` characters from `[A-Za-z0-9._-]`.
 * @throws {RangeError} when `max` is below 16 (no room for a prefix and the hash).
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { safeFileName } from "./file_name.ts";
 * assert.equal(safeFileName("gpt-4o"), "gpt-4o");
 * assert.match(safeFileName("openai/gpt-4o"), /^openai_gpt-4o-[0-9a-f]{8}$/);
 * assert.notEqual(safeFileName("a/b"), safeFileName("a_b"));
 * const long = safeFileName("m".repeat(300));
 * assert.equal(long.length, 80);
 * assert.match(long, /^m{71}-[0-9a-f]{8}$/);
 * assert.match(safeFileName(".."), /^_\.-[0-9a-f]{8}$/);
 * assert.throws(() => safeFileName("x", { max: 4 }), RangeError);
 * ```
 */
export function safeFileName(
  text: string,
  options: SafeFileNameOptions = {},
): string {
  const { max = 80 } = options;
  if (!Number.isInteger(max) || max < 16) {
    throw new RangeError(
      `Cannot make a file name of at most ${max} characters: give max an integer of at least 16 (room for a prefix and an ${HASH_CHARS}-character hash)`,
    );
  }
  let clean = text.replace(UNSAFE, "_").replace(/^[.-]/, "_");
  if (clean === "") clean = "_";
  const safe = clean === text && !RESERVED.test(text) && text.length <= max;
  if (safe) return text;
  const hash = [...sha256(new TextEncoder().encode(text))]
    .map((b) => b.toString(16).padStart(2, "0")).join("")
    .slice(0, HASH_CHARS);
  return `${clean.slice(0, max - HASH_CHARS - 1)}-${hash}`;
}
