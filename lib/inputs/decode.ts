/**
 * Strict, declared decoding of input files: UTF-8 (a BOM accepted) or
 * refused with the line and byte of the first bad byte; UTF-16 with its
 * BOM read as such; and, where a suite reads CSV that Chinese datasets
 * often ship in GBK/GB18030, such a file detected and decoded, or (for
 * JSON, which is UTF-8 by its standard) refused by name with the command
 * that converts it. A file is never read as mojibake.
 *
 * @module
 */

/** How a file's text was decoded. */
export type TextEncodingName =
  | "utf-8"
  | "utf-8-bom"
  | "utf-16le"
  | "utf-16be"
  | "gb18030";

/** A file's text and how it was decoded. */
export interface Decoded {
  /** The text, without a byte-order mark (line ends as in the file). */
  text: string;
  /** How it was decoded. */
  encoding: TextEncodingName;
}

/** Options of {@linkcode decodeText}. */
export interface DecodeOptions {
  /** The file as the user named it (for messages). */
  path: string;
  /**
   * Decode a file in GBK/GB18030 (detected: it is not UTF-8 and reads as
   * Chinese text in GB18030) instead of refusing it: for the CSVs of
   * Chinese datasets. JSON and JSONL never set it. @default {false}
   */
  legacyChinese?: boolean;
  /** What the file is, for messages ("the C-Eval CSV"). @default "the file" */
  what?: string;
}

/** A file that is not text in a supported encoding (the user's to fix: exit 2). */
export class EncodingInputError extends Error {
  /** Always `"EncodingInputError"`. */
  override name = "EncodingInputError";
}

const UTF8 = new TextDecoder("utf-8", { fatal: true, ignoreBOM: true });

/** Whether the first `n` bytes are UTF-8, an unfinished last character allowed. */
function utf8Prefix(bytes: Uint8Array, n: number): boolean {
  try {
    new TextDecoder("utf-8", { fatal: true }).decode(bytes.subarray(0, n), {
      stream: true,
    });
    return true;
  } catch {
    return false;
  }
}

/** Where the first byte that is not UTF-8 is (the longest valid prefix). */
function firstBadByte(bytes: Uint8Array): number {
  if (utf8Prefix(bytes, bytes.length)) return bytes.length; // cut mid-character
  // A prefix that fails makes every longer one fail: binary search.
  let ok = 0, bad = bytes.length;
  while (bad - ok > 1) {
    const mid = (ok + bad) >> 1;
    if (utf8Prefix(bytes, mid)) ok = mid;
    else bad = mid;
  }
  // The prefix may end inside a character whose lead byte is the bad one
  // ("é" in Latin-1 is a lead byte that no continuation follows).
  let at = ok;
  while (at > 0 && (bytes[at - 1]! & 0xc0) === 0x80 && ok - at < 3) at--;
  if (at > 0 && bytes[at - 1]! >= 0xc0 && ok - at < 3) return at - 1;
  return ok;
}

/**
 * Whether text decoded as GB18030 reads as Chinese: no control characters
 * (but tab and line ends), no private-use or replacement characters, and
 * at least a fifth of its non-ASCII characters CJK ideographs or CJK
 * punctuation. Random or Latin-1 bytes decode as GB18030 too (it maps
 * almost every byte pair), but as a scatter of rare symbols and stray
 * ideographs among control characters and unmapped pairs.
 */
function readsAsChinese(text: string): boolean {
  let wide = 0, cjk = 0;
  for (const ch of text) {
    const c = ch.codePointAt(0)!;
    if (c < 0x20 && c !== 9 && c !== 10 && c !== 13) return false;
    if (c === 0xfffd || (c >= 0xe000 && c <= 0xf8ff)) return false;
    if (c < 0x80) continue;
    wide++;
    if (
      (c >= 0x4e00 && c <= 0x9fff) || (c >= 0x3400 && c <= 0x4dbf) ||
      (c >= 0x3000 && c <= 0x303f) || (c >= 0xff00 && c <= 0xffef) ||
      (c >= 0x20000 && c <= 0x2ffff)
    ) cjk++;
  }
  return wide > 0 && cjk >= 0.2 * wide && cjk >= 2;
}

/** The text as GB18030 when it reads as Chinese, else null. */
function asGb18030(bytes: Uint8Array): string | null {
  try {
    const text = new TextDecoder("gb18030", { fatal: true }).decode(bytes);
    return readsAsChinese(text) ? text : null;
  } catch {
    return null;
  }
}

/** Whether bytes look like UTF-16 without a BOM (a NUL in every other byte). */
function looksUtf16(bytes: Uint8Array): boolean {
  const n = Math.min(bytes.length, 4096);
  if (n < 4) return false;
  let even = 0, odd = 0;
  for (let i = 0; i < n; i++) {
    if (bytes[i] === 0) {
      if (i % 2 === 0) even++;
      else odd++;
    }
  }
  return Math.max(even, odd) > n / 4;
}

/**
 * Decodes a file's bytes strictly: UTF-8 (a BOM stripped), UTF-16 with a
 * BOM, or, with `legacyChinese`, GBK/GB18030 detected; anything else is
 * refused with the line and byte offset of the first bad byte and what to
 * do. Line ends are kept as written (CRLF included): every reader splits
 * lines on `\r?\n`.
 *
 * @param bytes The file's content.
 * @param options The file's name, whether GB18030 may be decoded, what it is.
 * @returns The text and its encoding.
 * @throws {EncodingInputError} naming the file, the line and byte, the
 *   encoding it seems to be in and the command that converts it.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { decodeText } from "./decode.ts";
 * const utf8 = new TextEncoder().encode("\uFEFFid,问题\r\n");
 * assert.deepEqual(decodeText(utf8, { path: "a.csv" }), { text: "id,问题\r\n", encoding: "utf-8-bom" });
 * const gbk = new Uint8Array([0xc4, 0xe3, 0xba, 0xc3, 0xca, 0xc0, 0xbd, 0xe7]); // 你好世界
 * assert.equal(decodeText(gbk, { path: "a.csv", legacyChinese: true }).text, "你好世界");
 * assert.throws(() => decodeText(gbk, { path: "a.jsonl" }), /a\.jsonl: .*GBK\/GB18030.*iconv -f GB18030 -t UTF-8/);
 * assert.throws(() => decodeText(new Uint8Array([0x61, 0x0a, 0x62, 0xff]), { path: "b.txt" }), /b\.txt: line 2, byte 3 is not UTF-8/);
 * ```
 */
export function decodeText(bytes: Uint8Array, options: DecodeOptions): Decoded {
  const { path, legacyChinese = false, what = "the file" } = options;
  if (bytes[0] === 0xff && bytes[1] === 0xfe) {
    return {
      text: new TextDecoder("utf-16le", { fatal: false }).decode(
        bytes.subarray(2),
      ),
      encoding: "utf-16le",
    };
  }
  if (bytes[0] === 0xfe && bytes[1] === 0xff) {
    return {
      text: new TextDecoder("utf-16be", { fatal: false }).decode(
        bytes.subarray(2),
      ),
      encoding: "utf-16be",
    };
  }
  const convert = (from: string) =>
    `convert it to UTF-8 (iconv -f ${from} -t UTF-8 ${path} > ${path}.utf8) and give that file`;
  // UTF-16 text without a BOM can pass as UTF-8 full of NUL bytes.
  if (looksUtf16(bytes)) {
    throw new EncodingInputError(
      `Cannot read ${what} ${path}: it looks like UTF-16 without a byte-order mark, which cannot be read safely; ${
        convert("UTF-16LE")
      }`,
    );
  }
  const bom = bytes[0] === 0xef && bytes[1] === 0xbb && bytes[2] === 0xbf;
  try {
    return {
      text: UTF8.decode(bom ? bytes.subarray(3) : bytes),
      encoding: bom ? "utf-8-bom" : "utf-8",
    };
  } catch {
    // not UTF-8: below
  }
  const chinese = asGb18030(bytes);
  if (chinese !== null && legacyChinese) {
    return { text: chinese, encoding: "gb18030" };
  }
  if (chinese !== null) {
    throw new EncodingInputError(
      `Cannot read ${what} ${path}: it is not UTF-8 but appears to be Chinese text in GBK/GB18030, and this file is read as UTF-8 only; ${
        convert("GB18030")
      }`,
    );
  }
  const at = firstBadByte(bytes);
  let line = 1;
  for (let i = 0; i < at; i++) if (bytes[i] === 10) line++;
  throw new EncodingInputError(
    `Cannot read ${what} ${path}: line ${line}, byte ${at} is not UTF-8 (0x${
      (bytes[at] ?? 0).toString(16).padStart(2, "0")
    }); save the file as UTF-8, or ${convert("<its encoding>")}`,
  );
}
