/**
 * The error of shard folders that cannot be merged.
 *
 * @module
 */

/**
 * Input that cannot be merged (folders that are not shard runs, of
 * different sweeps, a missing or repeated shard, missing or duplicated
 * keys, an output folder that exists). Nothing was written; the CLI exits
 * 2 on it.
 */
export class MergeInputError extends Error {
  /** The error's name, as stack traces and `String(error)` show it. */
  override name = "MergeInputError";
}
