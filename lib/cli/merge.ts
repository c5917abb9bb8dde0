/**
 * `deno task merge <shard-run>... --out <dir>`
 *
 * Merges the shard folders of one sweep (`deno task sweep <config> --shard
 * i/n`) into one run folder. Parses flags and calls `mergeShards`; bad
 * input (folders that are not shards of one sweep, a missing shard,
 * missing or duplicated keys, an existing --out) prints what is wrong and
 * exits 2, writing nothing.
 *
 * @module
 */
import { parseCli, runCli, usageError } from "../args.ts";
import { MergeInputError, mergeShards } from "../merge/mod.ts";
import { SUITES } from "../suites/mod.ts";

const USAGE = "Usage: deno task merge <shard-run-dir>... --out <new-run-dir>";

async function main(args: string[]): Promise<number> {
  const { values, positionals } = parseCli(args, {
    usage: USAGE,
    options: { out: { type: "string" } },
  });
  if (values.out === undefined || values.out === "") {
    throw usageError(
      "Cannot merge: give the new run folder with --out <dir>",
      USAGE,
    );
  }
  if (positionals.length === 0) {
    throw usageError(
      "Cannot merge: give the shard run folders to merge",
      USAGE,
    );
  }
  try {
    const result = await mergeShards(positionals, {
      suites: SUITES,
      out: values.out,
    });
    console.log(
      `Merged ${result.shards} shards into ${result.runDir}: ${result.rows} rows (${result.errors} errors, ${result.cached} from cache)`,
    );
    return 0;
  } catch (error) {
    console.error(error instanceof Error ? error.message : String(error));
    return error instanceof MergeInputError ? 2 : 1;
  }
}

if (import.meta.main) Deno.exit(await runCli(() => main(Deno.args)));
