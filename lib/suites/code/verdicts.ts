/**
 * The code suite's verdict cache: identical programs are judged once. A
 * verdict is keyed by what decides it — the problem's version, the
 * language, the sandbox backend and its versions, the judging params and
 * the normalised program — and kept in memory for the run and in the
 * sweep's response-cache folder for later runs (`ScoreContext.cache`).
 * Without the sweep's cache (`--no-cache`) nothing is kept and every
 * sample is judged on its own. Every sample still gets its own row.
 *
 * @module
 */
import { sha256 } from "@noble/hashes/sha2";
import type { ScoreCache } from "../types.ts";

/** Bump when judging changes what it reports for the same program. */
const JUDGE_VERSION = "code-verdict/3";

/**
 * A program as the cache compares it: `\r\n` → `\n`, trailing blanks of
 * every line and blank lines dropped. Comments are kept (removing them
 * needs each language's lexer, and the quality metrics count them).
 *
 * @param code A candidate program.
 * @returns The normalised text.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { normaliseCode } from "./verdicts.ts";
 * assert.equal(normaliseCode("def f():\r\n    return 1   \r\n\r\n"), normaliseCode("def f():\n    return 1\n"));
 * assert.notEqual(normaliseCode("def f():\n    return 1\n"), normaliseCode("def f():\n    return 2\n"));
 * ```
 */
export function normaliseCode(code: string): string {
  return code.replace(/\r\n?/g, "\n").split("\n").map((l) => l.trimEnd())
    .filter((l) => l !== "").join("\n");
}

/**
 * The cache key of a verdict: SHA-256 (hex) of the judge version and the
 * parts, in order.
 *
 * @param parts What decides the verdict (strings, numbers, booleans).
 * @returns 64 hex characters.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { verdictKey } from "./verdicts.ts";
 * assert.equal(verdictKey(["a", 1]), verdictKey(["a", 1]));
 * assert.notEqual(verdictKey(["a", 1]), verdictKey(["a", "1"]));
 * assert.match(verdictKey([]), /^[0-9a-f]{64}$/);
 * ```
 */
export function verdictKey(
  parts: readonly (string | number | boolean)[],
): string {
  const text = JSON.stringify([JUDGE_VERSION, ...parts]);
  const digest = sha256(new TextEncoder().encode(text));
  return Array.from(digest, (b) => b.toString(16).padStart(2, "0")).join("");
}

/** Entries kept in memory per run (the store keeps the rest). */
const MEMO_LIMIT = 20_000;

/** One run's verdicts in judging or judged, by key (oldest dropped first). */
export class VerdictMemo {
  readonly #memo = new Map<string, Promise<unknown>>();

  /** The pending or settled verdict of `key`, if kept. */
  get(key: string): Promise<unknown> | undefined {
    return this.#memo.get(key);
  }

  /** Keeps a verdict being judged. */
  set(key: string, judging: Promise<unknown>): void {
    if (this.#memo.size >= MEMO_LIMIT) {
      this.#memo.delete(this.#memo.keys().next().value!);
    }
    this.#memo.set(key, judging);
  }

  /** Forgets a verdict whose judging failed. */
  delete(key: string): void {
    this.#memo.delete(key);
  }
}

/**
 * The verdict for `key`: from the run's memo, else from the store, else
 * judged now (and kept). Concurrent requests for one key share one
 * judging. Without a store, `judge` runs every time.
 *
 * @param request The key ({@linkcode verdictKey}), the run's memo, the
 *   sweep's score cache (undefined: no caching), the judging and a check
 *   that a stored value has the expected shape.
 * @returns The verdict and whether it came from the cache.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { cachedVerdict, VerdictMemo } from "./verdicts.ts";
 * const stored = new Map<string, unknown>();
 * const store = { getScore: (k: string) => stored.get(k), putScore: (k: string, v: unknown) => void stored.set(k, v) };
 * let runs = 0;
 * const judge = () => Promise.resolve({ ok: ++runs });
 * const valid = (v: unknown): v is { ok: number } => typeof v === "object" && v !== null;
 * const memo = new VerdictMemo();
 * const a = await cachedVerdict({ key: "k1", memo, store, judge, valid });
 * const b = await cachedVerdict({ key: "k1", memo, store, judge, valid });
 * assert.deepEqual([a.cached, b.cached, runs], [false, true, 1]);
 * const c = await cachedVerdict({ key: "k1", memo, store: undefined, judge, valid });
 * assert.deepEqual([c.cached, runs], [false, 2]);
 * ```
 */
export async function cachedVerdict<T>(request: {
  key: string;
  memo: VerdictMemo;
  store: ScoreCache | undefined;
  judge: () => Promise<T>;
  valid: (value: unknown) => value is T;
}): Promise<{ value: T; cached: boolean }> {
  const { key, memo, store, judge, valid } = request;
  if (store === undefined) return { value: await judge(), cached: false };
  const pending = memo.get(key);
  if (pending !== undefined) {
    return { value: await pending as T, cached: true };
  }
  const stored = store.getScore(key);
  if (valid(stored)) return { value: stored, cached: true };
  const judging = judge();
  memo.set(key, judging);
  try {
    const value = await judging;
    store.putScore(key, value);
    return { value, cached: false };
  } catch (error) {
    memo.delete(key);
    throw error;
  }
}
