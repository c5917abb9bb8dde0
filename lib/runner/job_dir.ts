/**
 * The folders of a cluster job: `<outputDir>/<name>-<job>/`, one
 * `shard-<i>-of-<n>/` per shard inside it (which a requeued or retried
 * task resumes), then `merged/`.
 *
 * @module
 */
import { join } from "node:path";
import { parseShard, type Shard } from "./shard.ts";
import { safeFileName } from "../file_name.ts";

/**
 * A job id fit for a folder name: letters, digits, `.`, `_` and `-`, not
 * starting with a dot or a dash.
 */
export const JOB_ID = /^[A-Za-z0-9_][A-Za-z0-9._-]{0,127}$/;

/** The parts of a sweep config a job's folders are named from. */
export interface JobSweep {
  /** The config's `outputDir`. */
  outputDir: string;
  /** The config's `name`. */
  name: string;
}

/**
 * The folder of one job (all its shards, then `merged/`):
 * `<outputDir>/<name>-<job>`, the name made a safe file name
 * (`safeFileName`: a name the config accepts stays as it is).
 *
 * @param sweep The config's `outputDir` and `name`.
 * @param job The job id (Slurm's array job id, a Kubernetes Job's name).
 * @returns The path.
 * @throws {RangeError} when `job` cannot be part of a folder name.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { jobDir } from "./job_dir.ts";
 * const sweep = { outputDir: "outputs", name: "my-sweep" };
 * assert.equal(jobDir(sweep, "4107"), "outputs/my-sweep-4107");
 * assert.throws(() => jobDir(sweep, "../up"), RangeError);
 * ```
 */
export function jobDir(
  { outputDir, name }: JobSweep,
  job: string,
): string {
  if (!JOB_ID.test(job)) {
    throw new RangeError(
      `Cannot use job id ${
        JSON.stringify(job)
      }: expected letters, digits, '.', '_' and '-' (an array job id such as 4107, a Job name such as calc-bench-sweep)`,
    );
  }
  return join(outputDir, `${safeFileName(name)}-${job}`);
}

/**
 * The folder name of a shard inside its job folder: `shard-<i>-of-<n>`.
 *
 * @param shard The shard.
 * @returns The name.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { shardDirName } from "./job_dir.ts";
 * assert.equal(shardDirName({ index: 2, count: 3 }), "shard-2-of-3");
 * ```
 */
export function shardDirName(shard: Shard): string {
  return `shard-${shard.index}-of-${shard.count}`;
}

/**
 * Reads a shard folder's name (see {@linkcode shardDirName}).
 *
 * @param name A folder name.
 * @returns The shard, or null for any other name.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { parseShardDirName } from "./job_dir.ts";
 * assert.deepEqual(parseShardDirName("shard-2-of-3"), { index: 2, count: 3 });
 * assert.equal(parseShardDirName("merged"), null);
 * assert.equal(parseShardDirName("shard-4-of-3"), null);
 * ```
 */
export function parseShardDirName(name: string): Shard | null {
  const m = /^shard-([1-9]\d*)-of-([1-9]\d*)$/.exec(name);
  if (m === null) return null;
  try {
    return parseShard(`${m[1]}/${m[2]}`);
  } catch {
    return null;
  }
}

/**
 * Where one shard of a job writes: `<outputDir>/<name>-<job>/shard-<i>-of-<n>`.
 * A requeued or retried task computes the same folder and resumes it.
 *
 * @param sweep The config's `outputDir` and `name`.
 * @param where `job`, the job id, and `shard`, the shard.
 * @returns The path.
 * @throws {RangeError} when `job` cannot be part of a folder name.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { jobShardDir } from "./job_dir.ts";
 * assert.equal(
 *   jobShardDir({ outputDir: "outputs", name: "my-sweep" }, {
 *     job: "4107",
 *     shard: { index: 1, count: 8 },
 *   }),
 *   "outputs/my-sweep-4107/shard-1-of-8",
 * );
 * ```
 */
export function jobShardDir(
  sweep: JobSweep,
  { job, shard }: { job: string; shard: Shard },
): string {
  return join(jobDir(sweep, job), shardDirName(shard));
}
