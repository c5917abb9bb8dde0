/**
 * Deterministic shards of a sweep: `--shard i/n` runs the work items whose
 * (model, question, template) hashes to shard i of n. The samples of one
 * (model, question, template) stay in one shard, so a model with `n`
 * (samples in one request) can still group them.
 *
 * A cluster engine can name the shard instead: `--shard slurm` reads a
 * Slurm job array task's variables, `--shard k8s` a Kubernetes Indexed
 * Job pod's (`shardFromEnv` in `shard_env.ts`). Such a shard writes in its
 * job's folder, `<outputDir>/<name>-<job>/shard-<i>-of-<n>/` (`jobShardDir`
 * in `job_dir.ts`), which a requeued or retried task resumes.
 *
 * @module
 */

/** One shard of a sweep: `index` is 1-based (1..count), as on the command line. */
export interface Shard {
  /** Which shard, from 1 to `count`. */
  index: number;
  /** How many shards the sweep is split into. */
  count: number;
}

/** Most shards a sweep may be split into. */
export const MAX_SHARDS = 10_000;

/**
 * Parses `--shard i/n` (1-based: `1/4` … `4/4`).
 *
 * @param text The flag's value, e.g. `"2/4"`.
 * @returns The shard.
 * @throws {RangeError} "Cannot use --shard ..." for anything but two
 *   integers with 1 ≤ i ≤ n ≤ 10000.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { parseShard } from "./shard.ts";
 * assert.deepEqual(parseShard("2/4"), { index: 2, count: 4 });
 * assert.throws(() => parseShard("0/4"), RangeError);
 * assert.throws(() => parseShard("5/4"), RangeError);
 * ```
 */
export function parseShard(text: string): Shard {
  const m = /^\s*(\d+)\s*\/\s*(\d+)\s*$/.exec(text);
  const index = m ? Number(m[1]) : NaN;
  const count = m ? Number(m[2]) : NaN;
  if (
    !Number.isSafeInteger(index) || !Number.isSafeInteger(count) ||
    count < 1 || count > MAX_SHARDS || index < 1 || index > count
  ) {
    throw new RangeError(
      `Cannot use --shard ${text}: expected i/n with 1 ≤ i ≤ n ≤ ${MAX_SHARDS} (shards are numbered from 1, e.g. --shard 1/4 … --shard 4/4)`,
    );
  }
  return { index, count };
}

/**
 * Checks a shard read from a manifest (or given by a caller).
 *
 * @param shard The value to check.
 * @returns The shard, typed.
 * @throws {RangeError} when it is not `{index, count}` with 1 ≤ index ≤ count.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { checkShard } from "./shard.ts";
 * assert.deepEqual(checkShard({ index: 1, count: 2 }), { index: 1, count: 2 });
 * assert.throws(() => checkShard({ index: 0, count: 2 }), RangeError);
 * ```
 */
export function checkShard(shard: unknown): Shard {
  const s = shard as Partial<Shard> | null;
  if (
    typeof s !== "object" || s === null || !Number.isSafeInteger(s.index) ||
    !Number.isSafeInteger(s.count)
  ) {
    throw new RangeError(
      `Cannot use shard ${
        JSON.stringify(shard)
      }: expected {"index": i, "count": n}`,
    );
  }
  return parseShard(`${s.index}/${s.count}`);
}

/**
 * The shard (1..count) a (model, question, template) belongs to: FNV-1a
 * (32-bit) of `model|question_id|template`, passed through murmur3's
 * finaliser (FNV's low bits alone are poorly mixed), mod `count`. Written
 * by hand: a few lines, run once per (question, template) per model,
 * where a SHA from `node:crypto` costs a microsecond.
 *
 * @param parts The model name, question id and template id.
 * @param count How many shards.
 * @returns The 1-based shard index.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { shardOf } from "./shard.ts";
 * const i = shardOf({ model: "m", question: "q1", template: "direct" }, 4);
 * assert.ok(i >= 1 && i <= 4);
 * assert.equal(shardOf({ model: "m", question: "q1", template: "direct" }, 4), i);
 * assert.equal(shardOf({ model: "m", question: "q1", template: "direct" }, 1), 1);
 * ```
 */
export function shardOf(
  parts: { model: string; question: string; template: string },
  count: number,
): number {
  if (count <= 1) return 1;
  const text = `${parts.model}|${parts.question}|${parts.template}`;
  let h = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) {
    h ^= text.charCodeAt(i);
    h = Math.imul(h, 0x01000193);
  }
  h ^= h >>> 16;
  h = Math.imul(h, 0x85ebca6b);
  h ^= h >>> 13;
  h = Math.imul(h, 0xc2b2ae35);
  h ^= h >>> 16;
  return ((h >>> 0) % count) + 1;
}

/**
 * The shard a row key (`model|question_id|template|sample`) belongs to.
 *
 * @param key A row key.
 * @param count How many shards.
 * @returns The 1-based shard index.
 * @throws {TypeError} when the key does not have four `|`-separated fields.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { shardOf, shardOfKey } from "./shard.ts";
 * assert.equal(shardOfKey("m|q1|direct|3", 4), shardOf({ model: "m", question: "q1", template: "direct" }, 4));
 * ```
 */
export function shardOfKey(key: string, count: number): number {
  const last = key.lastIndexOf("|");
  const first = key.indexOf("|");
  const third = key.lastIndexOf("|", last - 1);
  if (first <= 0 || third <= first || last <= third) {
    throw new TypeError(
      `Cannot read row key "${key}": expected model|question_id|template|sample`,
    );
  }
  // Model names cannot hold '|' (the schema refuses it) and template ids
  // do not: the question id is whatever lies between.
  return shardOf({
    model: key.slice(0, first),
    question: key.slice(first + 1, third),
    template: key.slice(third + 1, last),
  }, count);
}
