/**
 * The response cache: a completed request is stored under a SHA-256 of the
 * whole request plus the sample index, so re-running an identical sweep
 * sends nothing. Backed by `node:sqlite` (built into Deno): entries live on
 * disk, not in memory, so 100k+ entries cost no heap.
 *
 * @module
 */
import { sha256 } from "@noble/hashes/sha2";
import { DatabaseSync, type StatementSync } from "node:sqlite";
import { dirname, join, resolve } from "node:path";
import type { Completion, Prompt } from "../types.ts";
import { canonicalJson } from "../canonical.ts";
import { redactSecrets } from "../store/redact.ts";
import { osError, OsInputError } from "../os_error.ts";

/** What to do about a cache folder that cannot be used. */
const CACHE_TODO =
  'give outputDir another folder, or turn the cache off (--no-cache, or "cache": false in the config)';

/**
 * Entries committed in one transaction (one autocommit INSERT per row costs
 * about 0.5 ms here). Small enough that a batch fills, and is dropped,
 * between two scavenges of a fast sweep, so its strings die young.
 */
const PENDING_MAX = 256;

/** The first 32 bits of a hex key. */
function prefix(key: string): number {
  const h = Number.parseInt(key.slice(0, 8), 16);
  if (Number.isNaN(h)) {
    throw new TypeError(`Cannot use cache key "${key}": expected hex`);
  }
  return h;
}

/** What identifies a request beyond its prompt. */
export interface CacheTarget {
  /** `sim` or `openai`. */
  provider: string;
  /** Endpoint base URL (null in process). */
  baseURL: string | null;
  /** Model id sent to the endpoint. */
  model: string;
  /**
   * What the replies depend on besides the prompt, where it is known: the
   * sim's engine and skill versions (`simVersion`). A change gives new keys,
   * so replies made before it are not served. @default none
   */
  version?: string;
}

/**
 * The cache key of a request: SHA-256 (hex) of the canonical JSON of the
 * target (with the sim's version for a sim model), messages, params, tools
 * and sample index.
 *
 * @param target Provider kind, base URL and model id.
 * @param request `prompt`, the full prompt (messages, params, tools), and
 *   `sample`, the sample index.
 * @returns 64 hex characters.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { cacheKey } from "./cache.ts";
 * const target = { provider: "sim", baseURL: null, model: "sim-strong" };
 * const prompt = { templateId: "direct", messages: [{ role: "user" as const, content: "2+2" }], params: { temperature: 0, max_tokens: 10 } };
 * assert.equal(cacheKey(target, { prompt, sample: 0 }), cacheKey(target, { prompt: structuredClone(prompt), sample: 0 }));
 * assert.notEqual(cacheKey(target, { prompt, sample: 0 }), cacheKey(target, { prompt, sample: 1 }));
 * ```
 */
export function cacheKey(
  target: CacheTarget,
  { prompt, sample }: { prompt: Prompt; sample: number },
): string {
  const text = canonicalJson({
    provider: target.provider,
    baseURL: target.baseURL,
    model: target.model,
    // Absent (undefined) for an endpoint: its keys stay as they were.
    version: target.version,
    messages: prompt.messages,
    params: prompt.params,
    tools: prompt.tools ?? null,
    sample,
  });
  return sha256Hex(text);
}

/**
 * SHA-256 (hex) of a string's UTF-8, with no allocation but the result.
 * `node:crypto` makes a native hasher per call that only a full GC frees
 * (about 220 bytes each: 22 MB of a 100k-row sweep's peak RSS); noble's
 * one-shot `sha256()` allocates typed arrays per call. So one hasher is
 * reset from a pristine one (`_cloneInto`, part of noble's `Hash`
 * interface) and fed through one reused byte buffer.
 */
function sha256Hex(text: string): string {
  PRISTINE._cloneInto(HASHER);
  while (text.length > 0) {
    const { read, written } = ENCODER.encodeInto(text, UTF8);
    HASHER.update(UTF8.subarray(0, written));
    text = text.slice(read);
  }
  HASHER.digestInto(DIGEST);
  let hex = "";
  for (const byte of DIGEST) hex += HEX[byte];
  return hex;
}

const ENCODER = new TextEncoder();
/** Encoding buffer (longer text goes through in pieces). */
const UTF8 = new Uint8Array(1 << 16);
const DIGEST = new Uint8Array(32);
const PRISTINE = sha256.create();
const HASHER = sha256.create();
const HEX = Array.from(
  { length: 256 },
  (_, i) => i.toString(16).padStart(2, "0"),
);

/** Options for {@linkcode ResponseCache.open}. */
export interface ResponseCacheOptions {
  /**
   * Secrets (API keys) to replace with `[redacted]` in every stored
   * completion, and in every completion read back. An endpoint can echo a
   * key in its reply; the cache must never hold it. Strings shorter than 4
   * characters are ignored (they would redact ordinary text).
   * @default []
   */
  secrets?: readonly string[];
}

/** Replaces every secret in every string of a JSON value, in place. */
function redactDeep(value: unknown, secrets: readonly string[]): unknown {
  if (typeof value === "string") return redactSecrets(value, secrets);
  if (Array.isArray(value)) {
    for (let i = 0; i < value.length; i++) {
      value[i] = redactDeep(value[i], secrets);
    }
    return value;
  }
  if (value !== null && typeof value === "object") {
    const record = value as Record<string, unknown>;
    for (const key of Object.keys(record)) {
      record[key] = redactDeep(record[key], secrets);
    }
  }
  return value;
}

/** A persistent map from cache keys to successful completions. */
export class ResponseCache {
  #db: DatabaseSync;
  /** The secrets, and each as it appears inside JSON text. */
  #secrets: readonly string[];
  #escaped: readonly string[];
  #get: StatementSync;
  #put: StatementSync;
  #getScore: StatementSync;
  #putScore: StatementSync;
  #hits = 0;
  /** Entries not yet committed: written in one transaction per batch,
   * since one autocommit INSERT per row costs about 0.5 ms here. */
  #pending = new Map<string, string>();
  #timer: ReturnType<typeof setTimeout> | undefined;
  /** 32-bit prefixes of every stored key: a miss (the common case in a new
   * sweep) is answered without a database lookup. About 4 MB per 100k. */
  #known = new Set<number>();

  private constructor(db: DatabaseSync, secrets: readonly string[]) {
    this.#db = db;
    this.#secrets = [...new Set(secrets.filter((x) => x.length >= 4))];
    this.#escaped = this.#secrets.map((x) => JSON.stringify(x).slice(1, -1));
    this.#get = db.prepare(
      "SELECT value FROM responses_v2 WHERE h = ? AND key = ? LIMIT 1",
    );
    this.#put = db.prepare(
      "INSERT INTO responses_v2 (h, key, value) VALUES (?, ?, ?)",
    );
    this.#getScore = db.prepare("SELECT value FROM scores_v1 WHERE key = ?");
    this.#putScore = db.prepare(
      "INSERT OR REPLACE INTO scores_v1 (key, value) VALUES (?, ?)",
    );
    for (const row of db.prepare("SELECT h FROM responses_v2").iterate()) {
      this.#known.add((row as { h: number }).h);
    }
  }

  /**
   * Checks, without making anything, that a cache folder can be made or
   * used: it is a folder, or it is missing and the nearest part of its
   * path that exists is a folder. A sweep checks before it makes its run
   * folder, so a cache it cannot open leaves nothing behind.
   *
   * @param dir The cache folder.
   * @throws {OsInputError} naming the file that is in the way.
   *
   * @example
   * ```ts
   * import assert from "node:assert/strict";
   * import { ResponseCache } from "./cache.ts";
   * const dir = await Deno.makeTempDir();
   * await ResponseCache.check(`${dir}/a/.cache`);
   * await Deno.writeTextFile(`${dir}/.cache`, "mine");
   * await assert.rejects(ResponseCache.check(`${dir}/.cache`), /\.cache is a file, not a folder/);
   * await assert.rejects(ResponseCache.check(`${dir}/.cache/x`), /\.cache is a file, not a folder/);
   * await Deno.remove(dir, { recursive: true });
   * ```
   */
  static async check(dir: string): Promise<void> {
    let current = resolve(dir);
    for (;;) {
      let info: Deno.FileInfo;
      try {
        info = await Deno.stat(current);
      } catch (error) {
        if (!(error instanceof Deno.errors.NotFound)) {
          throw osError(error, {
            action: "open the response cache",
            path: dir,
            todo: CACHE_TODO,
          });
        }
        if (dirname(current) === current) return;
        current = dirname(current);
        continue;
      }
      if (info.isDirectory) return;
      const file = current === resolve(dir) ? dir : current;
      throw new OsInputError(
        `Cannot open the response cache ${dir}: ${file} is a file, not a folder; ${CACHE_TODO}`,
      );
    }
  }

  /**
   * Opens (creating if needed) the cache in a folder.
   *
   * @param dir The cache folder (created if missing).
   * @param options Secrets to redact from every stored completion.
   * @returns The cache; call `close()` when done.
   * @throws {Error} "Cannot open the response cache ..." for a broken file.
   *
   * @example
   * ```ts
   * import assert from "node:assert/strict";
   * import { ResponseCache } from "./cache.ts";
   * const dir = await Deno.makeTempDir();
   * const cache = await ResponseCache.open(dir);
   * const done = { text: "4", reasoning: null, finishReason: "stop", usage: { promptTokens: 1, completionTokens: 1 }, latencyMs: 5, attempts: 2 };
   * const key = "ab".repeat(32);
   * cache.put(key, done);
   * assert.equal(cache.get(key)?.text, "4");
   * assert.equal(cache.get(key)?.attempts, 0);
   * assert.equal(cache.get("cd".repeat(32)), undefined);
   * cache.close();
   * // With the sweep's keys, an echoed key is never stored.
   * const safe = await ResponseCache.open(dir, { secrets: ["sk-secret-1"] });
   * const echo = "ef".repeat(32);
   * safe.put(echo, { ...done, text: "Bearer sk-secret-1 says 4" });
   * assert.equal(safe.get(echo)?.text, "Bearer [redacted] says 4");
   * safe.close();
   * await Deno.remove(dir, { recursive: true });
   * ```
   */
  static async open(
    dir: string,
    options: ResponseCacheOptions = {},
  ): Promise<ResponseCache> {
    const { secrets = [] } = options;
    try {
      await Deno.mkdir(dir, { recursive: true });
    } catch (error) {
      throw osError(error, {
        action: "open the response cache",
        path: dir,
        expected: "a folder",
        todo: CACHE_TODO,
      });
    }
    const path = join(dir, "responses.sqlite");
    try {
      const db = new DatabaseSync(path);
      db.exec("PRAGMA busy_timeout = 10000");
      db.exec("PRAGMA journal_mode = WAL");
      // A cache may lose its last entries on power loss; it must not slow the sweep.
      db.exec("PRAGMA synchronous = OFF");
      // Rows are appended in rowid order; only a small index of 32-bit key
      // prefixes takes random inserts (a TEXT primary key made every insert
      // touch random pages: 5x slower at 100k entries).
      db.exec(
        "CREATE TABLE IF NOT EXISTS responses_v2 (h INTEGER NOT NULL, key TEXT NOT NULL, value TEXT NOT NULL)",
      );
      db.exec("CREATE INDEX IF NOT EXISTS responses_v2_h ON responses_v2 (h)");
      // What scorers derived from a reply (a judged program), by their own key.
      db.exec(
        "CREATE TABLE IF NOT EXISTS scores_v1 (key TEXT PRIMARY KEY, value TEXT NOT NULL)",
      );
      return new ResponseCache(db, secrets);
    } catch (error) {
      throw new Error(
        `Cannot open the response cache ${path}: ${
          error instanceof Error ? error.message : String(error)
        } (move the file aside to start a new cache, or run with --no-cache)`,
      );
    }
  }

  /**
   * `value` (JSON text) without any secret. The common case — no secret in
   * the text — costs one `includes` per secret; otherwise the value is
   * parsed and every string redacted, so JSON escapes inside a secret
   * cannot hide it and the text stays valid JSON.
   */
  #redact(value: string): string {
    if (!this.#escaped.some((x) => value.includes(x))) return value;
    return JSON.stringify(redactDeep(JSON.parse(value), this.#secrets));
  }

  #lookup(key: string): string | undefined {
    if (!this.#known.has(prefix(key))) return undefined;
    return this.#pending.get(key) ??
      (this.#get.get(prefix(key), key) as { value: string } | undefined)
        ?.value;
  }

  /** Completions served so far. */
  get hits(): number {
    return this.#hits;
  }

  /**
   * The stored completion for a key, marked `cached: true`, `attempts: 0`,
   * with every secret redacted (also from entries an older version stored).
   *
   * @param key A {@linkcode cacheKey}.
   * @returns The completion, or undefined when absent.
   */
  get(key: string): Completion | undefined {
    const value = this.#lookup(key);
    if (value === undefined) return undefined;
    this.#hits++;
    const completion = JSON.parse(this.#redact(value)) as Completion;
    return { ...completion, attempts: 0, cached: true };
  }

  /**
   * Stores a successful completion, every secret redacted. Failed ones
   * (with `error`) are ignored.
   *
   * @param key A {@linkcode cacheKey}.
   * @param completion The completion.
   */
  put(key: string, completion: Completion): void {
    if (completion.error !== undefined) return;
    const { cached: _cached, ...rest } = completion;
    const h = prefix(key);
    if (this.#known.has(h) && this.#lookup(key) !== undefined) return; // stored
    this.#pending.set(key, this.#redact(JSON.stringify(rest)));
    this.#known.add(h);
    if (this.#pending.size >= PENDING_MAX) this.flush();
    else this.#timer ??= setTimeout(() => this.flush(), 250);
  }

  /** Commits pending entries (done by itself every {@linkcode PENDING_MAX} entries or 250 ms). */
  flush(): void {
    clearTimeout(this.#timer);
    this.#timer = undefined;
    if (this.#pending.size === 0) return;
    this.#db.exec("BEGIN");
    try {
      for (const [key, value] of this.#pending) {
        this.#put.run(prefix(key), key, value);
      }
      this.#db.exec("COMMIT");
    } catch (error) {
      this.#db.exec("ROLLBACK");
      throw error;
    }
    // A new Map, not clear(): a cleared Map keeps its old table, and once
    // that table is in the old generation every young string it still
    // points to survives scavenges and is promoted (100k puts alone: 39 MB
    // promoted with clear(), 5 MB with a new Map).
    this.#pending = new Map();
  }

  /**
   * A scorer's stored result (JSON data) for its own key, every secret
   * redacted, or undefined.
   *
   * @param key The scorer's key (any text; make it say what decides the result).
   * @returns The value as stored.
   *
   * @example
   * ```ts
   * import assert from "node:assert/strict";
   * import { ResponseCache } from "./cache.ts";
   * const dir = await Deno.makeTempDir();
   * const cache = await ResponseCache.open(dir);
   * cache.putScore("code/v1/abc", { status: "correct", ms: 3 });
   * assert.deepEqual(cache.getScore("code/v1/abc"), { status: "correct", ms: 3 });
   * assert.equal(cache.getScore("code/v1/other"), undefined);
   * cache.close();
   * await Deno.remove(dir, { recursive: true });
   * ```
   */
  getScore(key: string): unknown {
    const row = this.#getScore.get(key) as { value: string } | undefined;
    return row === undefined ? undefined : JSON.parse(this.#redact(row.value));
  }

  /**
   * Stores a scorer's result (JSON data) under its key, every secret
   * redacted; a later `putScore` of the same key replaces it.
   *
   * @param key The scorer's key.
   * @param value JSON data.
   */
  putScore(key: string, value: unknown): void {
    this.#putScore.run(key, this.#redact(JSON.stringify(value)));
  }

  /** Commits pending entries and closes the database. */
  close(): void {
    this.flush();
    this.#db.close();
  }
}
