/**
 * `deno task batch <command> ...`: a sweep through a Batch API or an
 * offline batch runner.
 *
 * ```
 * deno task batch submit <config.json> [--limit N] [--shard i/n] [--max-lines N] [--max-bytes N]
 * deno task batch status <run-dir>
 * deno task batch collect <run-dir>
 * deno task batch resubmit <run-dir> [--max-lines N] [--max-bytes N]
 * deno task batch export <config.json> --out requests.jsonl [--force] [--limit N] [--shard i/n]
 * deno task batch import <run-dir|config.json> <output.jsonl> [--limit N] [--shard i/n]
 * ```
 *
 * `--shard i/n` takes one shard of the sweep, as `deno task sweep --shard`
 * splits it; a run folder keeps its own shard (`import` into a shard run
 * takes only that shard's lines). Parses flags and calls `lib/batch`. Bad
 * input (a config, a run folder, an output file from another run or
 * shard, a corrupted line) prints one "Cannot ..." message and exits 2;
 * an endpoint failure exits 1.
 *
 * @module
 */
import { ConfigError, loadConfig } from "../config/mod.ts";
import { parseShard, type Shard, SweepInputError } from "../runner/mod.ts";
import { SUITES } from "../suites/mod.ts";
import {
  BatchInputError,
  type BatchState,
  batchStatus,
  collectBatches,
  type CollectResult,
  exportRequests,
  importOutput,
  resubmitBatches,
  submitBatches,
} from "../batch/mod.ts";
import { parseCli, runCli, usageError } from "../args.ts";

const USAGE = `Usage:
  deno task batch submit <config.json> [--limit N] [--shard i/n] [--max-lines N] [--max-bytes N]
  deno task batch status <run-dir>
  deno task batch collect <run-dir>
  deno task batch resubmit <run-dir> [--max-lines N] [--max-bytes N]
  deno task batch export <config.json> --out requests.jsonl [--force] [--limit N] [--shard i/n]
  deno task batch import <run-dir|config.json> <output.jsonl> [--limit N] [--shard i/n]
(--shard i/n is 1-based, as in deno task sweep; a run folder keeps its own shard)`;

function positiveInt(flag: string, value: string | undefined) {
  if (value === undefined) return undefined;
  const n = Number(value);
  if (!Number.isInteger(n) || n <= 0) {
    throw usageError(
      `Cannot use --${flag} ${value}: expected a positive integer`,
      USAGE,
    );
  }
  return n;
}

function printStates(states: readonly BatchState[]): void {
  for (const s of states) {
    console.log(
      `${s.batchId}  ${s.model}  ${s.status}  ${s.completed}/${s.total} answered, ${s.failed} failed`,
    );
    for (const e of s.errors) console.log(`    ${e}`);
  }
}

function printCollect(runDir: string, result: CollectResult): void {
  const { counts } = result;
  if (counts.setAside !== null) console.warn(`Warning: ${counts.setAside}`);
  console.log(
    `${counts.written} rows written (${counts.replaced} replacing error rows, ${counts.errors} error rows), ${counts.skipped} already stored`,
  );
  const answered = result.total - result.missing;
  console.log(`${answered} of ${result.total} rows answered in ${runDir}`);
  if (result.pending > 0) {
    console.log(
      `${result.pending} batch(es) still running: collect again later`,
    );
  } else if (result.missing > 0) {
    console.log(
      `${result.missing} row(s) have no answer: deno task batch resubmit ${runDir}`,
    );
  }
}

async function isDirectory(path: string): Promise<boolean> {
  try {
    return (await Deno.stat(path)).isDirectory;
  } catch {
    return false;
  }
}

async function main(args: string[]): Promise<number> {
  const { values, positionals } = parseCli(args, {
    usage: USAGE,
    options: {
      out: { type: "string" },
      force: { type: "boolean", default: false },
      limit: { type: "string" },
      shard: { type: "string" },
      "max-lines": { type: "string" },
      "max-bytes": { type: "string" },
    },
  });
  const [command, ...rest] = positionals;
  const limit = positiveInt("limit", values.limit);
  let shard: Shard | undefined;
  if (values.shard !== undefined) {
    try {
      shard = parseShard(values.shard);
    } catch (error) {
      throw usageError((error as Error).message, USAGE);
    }
    if (["status", "collect", "resubmit"].includes(command ?? "")) {
      throw usageError(
        `Cannot use --shard with batch ${command}: a run folder keeps the shard it was made with; leave out --shard`,
        USAGE,
      );
    }
  }
  const split = {
    ...(values["max-lines"] === undefined
      ? {}
      : { maxLines: positiveInt("max-lines", values["max-lines"])! }),
    ...(values["max-bytes"] === undefined
      ? {}
      : { maxBytes: positiveInt("max-bytes", values["max-bytes"])! }),
  };
  const one = (what: string): string => {
    if (rest.length !== 1) {
      throw usageError(`Cannot ${command}: give one ${what}`, USAGE);
    }
    return rest[0]!;
  };
  const configOptions = async (path: string) => {
    const { config, baseDir } = await loadConfig(path, SUITES);
    return {
      config,
      options: {
        suites: SUITES,
        baseDir,
        ...(limit === undefined ? {} : { limit }),
        ...(shard === undefined ? {} : { shard }),
      },
    };
  };
  switch (command) {
    case "submit": {
      const { config, options } = await configOptions(one("config file"));
      const result = await submitBatches(config, { ...options, ...split });
      console.log(`Run folder: ${result.runDir}`);
      console.log(
        `${result.requests} requests in ${result.batches.length} batch(es): ${
          result.batches.map((b) => b.batchId).join(", ")
        }`,
      );
      console.log(`Next: deno task batch status ${result.runDir}`);
      return 0;
    }
    case "status": {
      printStates(await batchStatus(one("run folder"), { suites: SUITES }));
      return 0;
    }
    case "collect": {
      const runDir = one("run folder");
      const result = await collectBatches(runDir, { suites: SUITES });
      printStates(result.batches);
      printCollect(runDir, result);
      return 0;
    }
    case "resubmit": {
      const runDir = one("run folder");
      const result = await resubmitBatches(runDir, {
        suites: SUITES,
        ...split,
      });
      printCollect(runDir, result.collected);
      console.log(
        result.requests === 0
          ? "Nothing to resubmit."
          : `${result.requests} requests sent again in ${result.batches.length} batch(es): ${
            result.batches.map((b) => b.batchId).join(", ")
          }`,
      );
      return 0;
    }
    case "export": {
      if (values.out === undefined) {
        throw usageError(
          "Cannot export: give the file to write with --out",
          USAGE,
        );
      }
      const configPath = one("config file");
      const { config, options } = await configOptions(configPath);
      const result = await exportRequests(config, values.out, {
        ...options,
        force: values.force,
        reads: [configPath],
      });
      console.log(
        `${result.requests} requests (${result.bytes} bytes) written to ${result.path}`,
      );
      return 0;
    }
    case "import": {
      if (rest.length !== 2) {
        throw usageError(
          "Cannot import: give a run folder or config file, then the output file",
          USAGE,
        );
      }
      const [target, output] = rest as [string, string];
      const result = await isDirectory(target)
        ? await importOutput({ runDir: target }, output, {
          suites: SUITES,
          ...(shard === undefined ? {} : { shard }),
        })
        : await (async () => {
          const { config, options } = await configOptions(target);
          return await importOutput({ config }, output, options);
        })();
      const { counts } = result;
      if (counts.setAside !== null) console.warn(`Warning: ${counts.setAside}`);
      console.log(`Run folder: ${result.runDir}`);
      console.log(
        `${result.lines} lines read: ${counts.written} rows written (${counts.errors} error rows), ${counts.skipped} already stored; ${result.total} rows planned`,
      );
      return 0;
    }
    default:
      throw usageError(
        command === undefined
          ? "Cannot run a batch command: none given"
          : `Cannot run batch command "${command}": expected submit, status, collect, resubmit, export or import`,
        USAGE,
      );
  }
}

if (import.meta.main) {
  let code: number;
  try {
    code = await runCli(() => main(Deno.args));
  } catch (error) {
    console.error(error instanceof Error ? error.message : String(error));
    code = error instanceof BatchInputError || error instanceof ConfigError ||
        error instanceof SweepInputError || error instanceof RangeError
      ? 2
      : 1;
  }
  Deno.exit(code);
}
