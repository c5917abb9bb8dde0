/**
 * Merging a cluster job's folder: the shards that `deno task sweep <config>
 * --shard slurm|k8s` wrote under `<outputDir>/<name>-<job>/`, found by
 * their folder names (`shard-<i>-of-<n>`), each checked finished, merged
 * into `<job folder>/merged/` by {@linkcode mergeShards}.
 *
 * @module
 */
import { basename, join, resolve } from "node:path";
import { parseShardDirName, type Shard, shardDirName } from "../runner/mod.ts";
import { type Manifest, readManifest } from "../store/mod.ts";
import type { SuiteList } from "../suites/types.ts";
import { MergeInputError } from "./error.ts";
import { listed } from "./_listed.ts";
import { type MergeResult, mergeShards } from "./merge.ts";

/** The folder a job's merge writes unless told otherwise. */
export const MERGED_DIR = "merged";

/** Options of {@linkcode mergeJob}. */
export interface MergeJobOptions {
  /** The suites a config may name (`lib/suites/mod.ts`'s `SUITES`). */
  suites: SuiteList;
  /** The run folder to create; it must not exist yet. @default `<job folder>/merged` */
  out?: string;
  /** Folder relative dataset paths resolve against. @default the first shard's manifest `baseDir`, else the working directory */
  baseDir?: string;
}

/** The shard folders directly inside `dir`, by folder name. */
async function shardFolders(
  dir: string,
): Promise<{ shard: Shard; dir: string }[]> {
  const found: { shard: Shard; dir: string }[] = [];
  for await (const entry of Deno.readDir(dir)) {
    const shard = entry.isDirectory ? parseShardDirName(entry.name) : null;
    if (shard !== null) found.push({ shard, dir: join(dir, entry.name) });
  }
  return found.sort((a, b) =>
    a.shard.count - b.shard.count || a.shard.index - b.shard.index
  );
}

/**
 * Whether `dir` is a job folder: a folder without a run manifest that
 * holds at least one `shard-<i>-of-<n>` folder.
 *
 * @param dir The folder.
 * @returns True for a job folder; false for anything else (a run folder,
 *   a file, a missing path).
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { isJobFolder } from "./job.ts";
 * const dir = await Deno.makeTempDir();
 * assert.equal(await isJobFolder(dir), false);
 * await Deno.mkdir(`${dir}/shard-1-of-2`);
 * assert.equal(await isJobFolder(dir), true);
 * await Deno.remove(dir, { recursive: true });
 * ```
 */
export async function isJobFolder(dir: string): Promise<boolean> {
  try {
    if (!(await Deno.stat(dir)).isDirectory) return false;
    try {
      await Deno.stat(join(dir, "manifest.json"));
      return false;
    } catch {
      // no manifest: maybe a job folder
    }
    return (await shardFolders(dir)).length > 0;
  } catch {
    return false;
  }
}

/** Why a shard's manifest says it is not done, or null when it is. */
function unfinished(manifest: Manifest): string | null {
  const last = manifest.sessions?.at(-1);
  const rows = `${manifest.counts?.rows ?? 0} of ${manifest.total} rows`;
  if (last !== undefined && last.endedAt === null) {
    return `${rows} when its last session started; that session is still running or was killed`;
  }
  if (manifest.interrupted) {
    return `${rows}; it was stopped (SIGTERM, Ctrl-C) before its work was done`;
  }
  if ((manifest.counts?.rows ?? 0) < manifest.total) return rows;
  return null;
}

/**
 * The shard folders of a job folder, in shard order, once every shard
 * 1..n is there and finished.
 *
 * @param dir The job folder (`<outputDir>/<name>-<job>`).
 * @returns The shard folders.
 * @throws {MergeInputError} when `dir` is not a folder or holds no shard
 *   folders, holds shards of different counts, or a shard has not started
 *   or is unfinished (each named, with what to do).
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { jobShardFolders } from "./job.ts";
 * const dir = await Deno.makeTempDir();
 * await Deno.mkdir(`${dir}/shard-1-of-2`);
 * await assert.rejects(jobShardFolders(dir), /shard 1\/2 .*not a run folder.*shard 2\/2 has not started/);
 * await Deno.remove(dir, { recursive: true });
 * ```
 */
export async function jobShardFolders(dir: string): Promise<string[]> {
  let found;
  try {
    found = await shardFolders(dir);
  } catch (error) {
    throw new MergeInputError(
      `Cannot merge the job folder ${dir}: ${
        error instanceof Deno.errors.NotFound
          ? "no such folder (no shard of the job has started yet, or the job id or config is not the sweep's)"
          : (error as Error).message
      }; give the folder <outputDir>/<name>-<job id> that deno task sweep --shard slurm|k8s wrote`,
    );
  }
  if (found.length === 0) {
    throw new MergeInputError(
      `Cannot merge the job folder ${dir}: it holds no shard folders (shard-<i>-of-<n>); give the folder <outputDir>/<name>-<job id> that deno task sweep --shard slurm|k8s wrote, or the shard run folders with --out`,
    );
  }
  const counts = [...new Set(found.map((f) => f.shard.count))];
  if (counts.length > 1) {
    throw new MergeInputError(
      `Cannot merge the job folder ${dir}: it holds shards of different splits (${
        listed(found.map((f) => shardDirName(f.shard)))
      }); merge the shard folders of one split with --out`,
    );
  }
  const count = counts[0]!;
  const byIndex = new Map(found.map((f) => [f.shard.index, f.dir]));
  const problems: string[] = [];
  for (let index = 1; index <= count; index++) {
    const shardDir = byIndex.get(index);
    if (shardDir === undefined) {
      problems.push(
        `shard ${index}/${count} has not started (no ${
          join(dir, shardDirName({ index, count }))
        })`,
      );
      continue;
    }
    let manifest: Manifest;
    try {
      manifest = await readManifest(shardDir);
    } catch {
      problems.push(
        `shard ${index}/${count} is not a run folder yet (${shardDir} has no readable manifest.json)`,
      );
      continue;
    }
    const why = unfinished(manifest);
    if (why !== null) {
      problems.push(
        `shard ${index}/${count} is unfinished (${shardDir}: ${why})`,
      );
    }
  }
  if (problems.length > 0) {
    throw new MergeInputError(
      `Cannot merge the job folder ${dir}: ${
        problems.join("; ")
      }. Wait for those tasks to end or be retried (Slurm requeues a preempted task; scontrol requeue <array job id>_<task id> requeues one that failed; a Kubernetes Indexed Job retries a failed index), or resume a shard by hand (deno task sweep --resume <its folder>), then merge again`,
    );
  }
  return [...byIndex.entries()].sort((a, b) => a[0] - b[0]).map(([, d]) => d);
}

/**
 * Merges a job folder's shards (see {@linkcode jobShardFolders}) into one
 * run folder, `<job folder>/merged` unless `out` says otherwise, with
 * {@linkcode mergeShards}' checks and guarantees. The merged run is named
 * after the job folder (`<name>-<job>`), or after `out` when given.
 *
 * @param dir The job folder (`<outputDir>/<name>-<job>`).
 * @param options The suites, the output folder.
 * @returns What was written.
 * @throws {MergeInputError} for a shard not started or unfinished (named),
 *   and for everything {@linkcode mergeShards} refuses; nothing is written.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { mergeJob } from "./job.ts";
 * import { MergeInputError } from "./error.ts";
 * await assert.rejects(mergeJob("/nonexistent-job", { suites: [] }), MergeInputError);
 * ```
 */
export async function mergeJob(
  dir: string,
  options: MergeJobOptions,
): Promise<MergeResult> {
  const shards = await jobShardFolders(dir);
  return await mergeShards(shards, {
    suites: options.suites,
    ...(options.out === undefined
      ? { out: join(dir, MERGED_DIR), run: basename(resolve(dir)) }
      : { out: options.out }),
    ...(options.baseDir === undefined ? {} : { baseDir: options.baseDir }),
  });
}
