/**
 * The shard folders given to a merge: each read and checked as a shard run,
 * and the set checked to be the n shards of one sweep, once each. Private
 * to `lib/merge`.
 *
 * @module
 */
import { resolve } from "node:path";
import { configDifferences, rowConfig } from "../config/row_config.ts";
import { canonicalJson } from "../canonical.ts";
import { checkShard, type Shard } from "../runner/mod.ts";
import {
  identityDifferences,
  identityOf,
  type Manifest,
  readManifest,
} from "../store/mod.ts";
import { MergeInputError } from "./error.ts";
import { listed } from "./_listed.ts";

/** One shard folder, checked. */
export interface ShardRun {
  dir: string;
  manifest: Manifest;
  shard: Shard;
}

/**
 * Checks that no folder is given twice, whatever the spelling (`run`,
 * `./run/`, a symlink to it): each is compared by its real path.
 *
 * @throws {MergeInputError} naming both arguments.
 */
export async function checkDistinct(dirs: readonly string[]): Promise<void> {
  const firstOf = new Map<string, number>();
  for (const [i, dir] of dirs.entries()) {
    const real = await Deno.realPath(dir).catch(() => resolve(dir));
    const first = firstOf.get(real);
    if (first === undefined) {
      firstOf.set(real, i);
      continue;
    }
    throw new MergeInputError(
      `Cannot merge: the folder ${real} is given twice (argument ${
        first + 1
      }, ${dirs[first]}, and argument ${
        i + 1
      }, ${dir}), and its rows would be counted twice; give each shard folder once`,
    );
  }
}

/**
 * Reads one folder as a shard run: a folder, with a run manifest, of a
 * shard.
 *
 * @throws {MergeInputError} naming what the folder is instead.
 */
export async function readShardRun(dir: string): Promise<ShardRun> {
  let stat;
  try {
    stat = await Deno.stat(dir);
  } catch {
    throw new MergeInputError(
      `Cannot merge ${dir}: no such folder; give the shard run folders (outputs/<name>-<time>)`,
    );
  }
  if (!stat.isDirectory) {
    throw new MergeInputError(
      `Cannot merge ${dir}: it is a file, not a run folder; give the shard run folders (outputs/<name>-<time>)`,
    );
  }
  let manifest: Manifest;
  try {
    manifest = await readManifest(dir);
  } catch {
    throw new MergeInputError(
      `Cannot merge ${dir}: it is not a run folder (no readable manifest.json); give the folders that deno task sweep --shard i/n wrote`,
    );
  }
  if (
    manifest.format !== "unaided-eval-run/1" ||
    typeof manifest.config !== "object"
  ) {
    throw new MergeInputError(
      `Cannot merge ${dir}: its manifest.json is not a run manifest (format ${
        JSON.stringify(manifest.format)
      }); give the folders that deno task sweep --shard i/n wrote`,
    );
  }
  if (manifest.shard === undefined) {
    throw new MergeInputError(
      `Cannot merge ${dir}: it holds a whole sweep, not a shard (no "shard" in its manifest); merge the folders of deno task sweep --shard i/n`,
    );
  }
  let shard: Shard;
  try {
    shard = checkShard(manifest.shard);
  } catch (error) {
    throw new MergeInputError(
      `Cannot merge ${dir}: ${(error as Error).message}`,
    );
  }
  return { dir, manifest, shard };
}

/**
 * Checks that the runs are the n shards of one sweep (one config, seed and
 * `--limit`), once each.
 *
 * @throws {MergeInputError} naming the shard or the difference.
 */
export function checkSet(runs: readonly ShardRun[]): void {
  const [first] = runs;
  if (first === undefined) {
    throw new MergeInputError(
      "Cannot merge: no shard folders given; list every shard's run folder",
    );
  }
  const count = first.shard.count;
  for (const run of runs) {
    if (run.shard.count !== count) {
      throw new MergeInputError(
        `Cannot merge: shard counts do not match (${first.dir} is shard ${first.shard.index}/${count}, ${run.dir} is shard ${run.shard.index}/${run.shard.count}); merge the shards of one split`,
      );
    }
  }
  const byIndex = new Map<number, string>();
  for (const run of runs) {
    const other = byIndex.get(run.shard.index);
    if (other !== undefined) {
      throw new MergeInputError(
        `Cannot merge: shard ${run.shard.index}/${count} is given twice (${other} and ${run.dir}); give each shard once`,
      );
    }
    byIndex.set(run.shard.index, run.dir);
  }
  const missing: string[] = [];
  for (let i = 1; i <= count; i++) {
    if (!byIndex.has(i)) missing.push(`${i}/${count}`);
  }
  if (missing.length > 0) {
    throw new MergeInputError(
      `Cannot merge: shard ${
        listed(missing)
      } missing; run deno task sweep <config> --shard ${
        missing[0]
      } and give its folder too`,
    );
  }
  const want = rowConfig(first.manifest.config);
  const wantText = canonicalJson(want);
  for (const run of runs) {
    const got = rowConfig(run.manifest.config);
    if (canonicalJson(got) !== wantText) {
      throw new MergeInputError(
        `Cannot merge: ${run.dir} and ${first.dir} come from different sweeps (config differs in ${
          listed(configDifferences(want, got))
        }); merge shards of one config and seed`,
      );
    }
    const [a, b] = [identityOf(first.manifest), identityOf(run.manifest)];
    if (a !== null && b !== null && a.hash !== b.hash) {
      throw new MergeInputError(
        `Cannot merge: ${run.dir} and ${first.dir} are shards of different runs (${
          listed(identityDifferences(a, b))
        }); merge the shards of one sweep, made from the same inputs`,
      );
    }
    if ((run.manifest.limit ?? null) !== (first.manifest.limit ?? null)) {
      throw new MergeInputError(
        `Cannot merge: ${run.dir} and ${first.dir} come from different sweeps (--limit ${
          run.manifest.limit ?? "none"
        } and ${
          first.manifest.limit ?? "none"
        }); merge shards run with the same --limit`,
      );
    }
  }
}
