/**
 * Merging the shard folders of one sweep (`deno task sweep <config>
 * --shard i/n`) into one run folder that the report, the notebooks and
 * `--resume` treat like any other run.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { rowConfig } from "./mod.ts";
 * const config = { name: "a", seed: 3, models: [{ name: "m", rpm: 60 }] };
 * assert.deepEqual(rowConfig(config as never), { seed: 3, models: [{ name: "m" }] });
 * ```
 *
 * @module
 */
export {
  MergeInputError,
  type MergeOptions,
  type MergeResult,
  mergeShards,
  rowConfig,
} from "./merge.ts";
