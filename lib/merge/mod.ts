/**
 * Merging the shard folders of one sweep (`deno task sweep <config>
 * --shard i/n`) into one run folder that the report, the notebooks and
 * `--resume` treat like any other run; or a cluster job's folder (`--shard
 * slurm|k8s`), whose shards are found by name and checked finished.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { MergeInputError } from "./mod.ts";
 * assert.ok(new MergeInputError("x") instanceof Error);
 * ```
 *
 * @module
 */
export { MergeInputError } from "./error.ts";
export { type MergeOptions, type MergeResult, mergeShards } from "./merge.ts";
export {
  isJobFolder,
  jobShardFolders,
  MERGED_DIR,
  mergeJob,
  type MergeJobOptions,
} from "./job.ts";
