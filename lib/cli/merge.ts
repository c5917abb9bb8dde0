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
import { parseArgs } from "node:util";
import { MergeInputError, mergeShards } from "../merge/mod.ts";
import { SUITES } from "../suites/mod.ts";

const USAGE = "Usage: deno task merge <shard-run-dir>... --out <new-run-dir>";

async function main(args: string[]): Promise<number> {
  let parsed;
  try {
    parsed = parseArgs({
      args,
      allowPositionals: true,
      options: {
        out: { type: "string" },
        help: { type: "boolean", short: "h", default: false },
      },
    });
  } catch (error) {
    console.error(
      `Cannot parse the arguments: ${(error as Error).message}\n${USAGE}`,
    );
    return 2;
  }
  const { values, positionals } = parsed;
  if (values.help) {
    console.log(USAGE);
    return 0;
  }
  if (values.out === undefined || values.out === "") {
    console.error(
      `Cannot merge: give the new run folder with --out <dir>\n${USAGE}`,
    );
    return 2;
  }
  if (positionals.length === 0) {
    console.error(
      `Cannot merge: give the shard run folders to merge\n${USAGE}`,
    );
    return 2;
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

if (import.meta.main) Deno.exit(await main(Deno.args));
