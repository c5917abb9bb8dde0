/**
 * The record of every input file a sweep read: each file's content hash,
 * size and encoding, for the run's identity (a changed file is named on
 * resume) and the manifest.
 *
 * @module
 */
import { isAbsolute, relative, resolve } from "node:path";
import { sha256 } from "@noble/hashes/sha2";
import { decodeText } from "./decode.ts";

/** One input file, by content. */
export interface InputRecord {
  /** The file, relative to the log's base folder when inside it, else absolute. */
  name: string;
  /** SHA-256 of the file's bytes, hex. */
  sha256: string;
  /** Size in bytes. */
  bytes: number;
  /** How it was decoded (`utf-8`, `gb18030`, ...; `binary` for bytes read as such). */
  encoding: string;
}

/** Options of {@linkcode InputLog.readText}. */
export interface ReadTextOptions {
  /** Decode a GBK/GB18030 file (a Chinese dataset's CSV). @default {false} */
  legacyChinese?: boolean;
  /** What the file is, for messages. @default "the file" */
  what?: string;
  /** The file as the user named it, for messages. @default the path read */
  shown?: string;
}

function hex(bytes: Uint8Array): string {
  let out = "";
  for (const b of sha256(bytes)) out += b.toString(16).padStart(2, "0");
  return out;
}

/**
 * The input files read for one sweep: each read through it is decoded
 * strictly (`decodeText`) and recorded by content.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { InputLog } from "./log.ts";
 * const dir = await Deno.makeTempDir();
 * await Deno.writeTextFile(`${dir}/q.jsonl`, '{"id": 1}\n');
 * const log = new InputLog({ baseDir: dir });
 * assert.equal(await log.readText(`${dir}/q.jsonl`), '{"id": 1}\n');
 * assert.deepEqual(log.records().map((r) => [r.name, r.bytes, r.encoding]), [["q.jsonl", 10, "utf-8"]]);
 * await Deno.remove(dir, { recursive: true });
 * ```
 */
export class InputLog {
  readonly #baseDir: string;
  readonly #records = new Map<string, InputRecord>();

  /**
   * Makes an empty log.
   *
   * @param options `baseDir`: names are relative to it. @default the working directory
   */
  constructor(options: { baseDir?: string } = {}) {
    this.#baseDir = resolve(options.baseDir ?? Deno.cwd());
  }

  /** A file's name in the log: relative to the base folder when inside it. */
  #name(path: string): string {
    const abs = resolve(this.#baseDir, path);
    const rel = relative(this.#baseDir, abs);
    return rel.startsWith("..") || isAbsolute(rel) ? abs : rel;
  }

  /**
   * Reads a text file strictly (UTF-8, a BOM, UTF-16 with a BOM, or with
   * `legacyChinese` GBK/GB18030) and records it.
   *
   * @param path The file.
   * @param options Whether GB18030 may be decoded; what the file is.
   * @returns Its text.
   * @throws {EncodingInputError} for a file that is not text in those encodings.
   * @throws {Deno.errors.NotFound} (and the other file-system errors) as
   *   `Deno.readFile` throws them, for the caller to word.
   */
  async readText(path: string, options: ReadTextOptions = {}): Promise<string> {
    const bytes = await Deno.readFile(path);
    const decoded = decodeText(bytes, {
      path: options.shown ?? path,
      ...(options.legacyChinese === undefined
        ? {}
        : { legacyChinese: options.legacyChinese }),
      ...(options.what === undefined ? {} : { what: options.what }),
    });
    this.note({
      name: this.#name(path),
      sha256: hex(bytes),
      bytes: bytes.length,
      encoding: decoded.encoding,
    });
    return decoded.text;
  }

  /**
   * Reads a binary file (a gzip, a parquet file) and records it.
   *
   * @param path The file.
   * @returns Its bytes.
   */
  async readBytes(path: string): Promise<Uint8Array> {
    const bytes = await Deno.readFile(path);
    this.note({
      name: this.#name(path),
      sha256: hex(bytes),
      bytes: bytes.length,
      encoding: "binary",
    });
    return bytes;
  }

  /**
   * Records a file read elsewhere (served from a cache of what an earlier
   * read recorded), so the log is complete however the content arrived.
   *
   * @param record The file's record.
   */
  note(record: InputRecord): void {
    this.#records.set(record.name, record);
  }

  /**
   * The files read, one record per name, sorted by name.
   *
   * @returns The records.
   */
  records(): InputRecord[] {
    return [...this.#records.values()].sort((a, b) =>
      a.name < b.name ? -1 : a.name > b.name ? 1 : 0
    );
  }
}
