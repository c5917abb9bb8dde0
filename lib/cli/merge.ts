/**
 * `deno task merge <shard-run>... --out <dir>`,
 * `deno task merge <job-folder> [--out <dir>]` or
 * `deno task merge <config.json> --job <id> [--out <dir>]`
 *
 * Merges the shard folders of one sweep (`deno task sweep <config> --shard
 * i/n`) into one run folder; or the shards of a cluster job (`--shard
 * slurm|k8s`), found in its job folder `<outputDir>/<name>-<job>/` (given,
 * or made from the config and the job id), into `<job folder>/merged/`.
 * Parses flags and calls `mergeShards` or `mergeJob`; bad input (folders
 * that are not shards of one sweep, a missing or unfinished shard, missing
 * or duplicated keys, an existing --out) prints what is wrong and exits 2,
 * writing nothing.
 *
 * @module
 */
import { parseCli, runCli, usageError } from "../args.ts";
import { osErrorMessage } from "../os_error.ts";
import { ConfigError, loadConfig } from "../config/mod.ts";
import {
  isJobFolder,
  MergeInputError,
  mergeJob,
  mergeShards,
} from "../merge/mod.ts";
import { jobDir } from "../runner/mod.ts";
import { SUITES } from "../suites/mod.ts";

const USAGE = `Usage: deno task merge <shard-run-dir>... --out <new-run-dir>
       deno task merge <job-folder> [--out <new-run-dir>]     (default <job-folder>/merged)
       deno task merge <config.json> --job <id> [--out <new-run-dir>]
                       (the job folder <outputDir>/<name>-<id> of a --shard slurm|k8s sweep)`;

/** The job folder a config's sweep wrote under job `id`. */
async function configJobDir(path: string, id: string): Promise<string> {
  try {
    const { config } = await loadConfig(path, SUITES);
    return jobDir(config, id);
  } catch (error) {
    if (error instanceof ConfigError) throw new MergeInputError(error.message);
    if (error instanceof RangeError) {
      throw new MergeInputError(`Cannot use --job ${id}: ${error.message}`);
    }
    throw error;
  }
}

async function main(args: string[]): Promise<number> {
  const { values, positionals } = parseCli(args, {
    usage: USAGE,
    options: { out: { type: "string" }, job: { type: "string" } },
  });
  if (values.out === "") {
    throw usageError("Cannot merge: --out needs a folder path", USAGE);
  }
  if (values.job !== undefined && positionals.length !== 1) {
    throw usageError(
      `Cannot merge job ${values.job}: give the sweep config it ran (one file) before --job`,
      USAGE,
    );
  }
  if (positionals.length === 0) {
    throw usageError(
      "Cannot merge: give the shard run folders to merge, or a job folder",
      USAGE,
    );
  }
  const single = positionals.length === 1 ? positionals[0]! : undefined;
  const jobFolder = values.job === undefined && single !== undefined &&
    await isJobFolder(single);
  if (values.job === undefined && !jobFolder && values.out === undefined) {
    throw usageError(
      single === undefined
        ? "Cannot merge: give the new run folder with --out <dir> (only a job folder has a default, <job-folder>/merged)"
        : `Cannot merge ${single} without --out: it is not a job folder (a folder of shard-<i>-of-<n> folders, as --shard slurm|k8s writes); give a job folder, or the shard run folders and --out <dir>`,
      USAGE,
    );
  }
  const out = values.out === undefined ? {} : { out: values.out };
  try {
    const result = values.job !== undefined
      ? await mergeJob(await configJobDir(single!, values.job), {
        suites: SUITES,
        ...out,
      })
      : jobFolder
      ? await mergeJob(single!, { suites: SUITES, ...out })
      : await mergeShards(positionals, { suites: SUITES, out: values.out! });
    console.log(
      `Merged ${result.shards} shards into ${result.runDir}: ${result.rows} rows (${result.errors} errors, ${result.cached} from cache)`,
    );
    return 0;
  } catch (error) {
    const os = osErrorMessage(error); // an OS error in words
    console.error(
      os?.message ?? (error instanceof Error ? error.message : String(error)),
    );
    return os?.exitCode ?? (error instanceof MergeInputError ? 2 : 1);
  }
}

if (import.meta.main) Deno.exit(await runCli(() => main(Deno.args)));
