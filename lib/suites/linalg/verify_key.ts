/**
 * `deno task verify-key <file-or-folder>…`: recomputes a LinAlg-Bench
 * style answer key with the exact solvers, prints the agreements and every
 * disagreement, and exits 1 on any disagreement (2 on a usage or read
 * error, a file that is not a LinAlg-Bench CSV, or one without rows).
 *
 * @module
 */
import { parseCli, runCli, usageError } from "../../args.ts";
import { type LinalgBenchRow, loadLinalgBench } from "./linalgbench.ts";
import { verifyKey } from "./verify.ts";

const USAGE = "Usage: deno task verify-key <csv file or folder>...";

/**
 * Runs the command. Every path is loaded and checked before any is
 * verified: a path that cannot be read, a file that is not a LinAlg-Bench
 * CSV, or one with no rows exits 2 with a message naming it. `--help`
 * prints the usage and exits 0.
 *
 * @param args File or folder paths.
 * @param print Where lines go (errors and the usage too).
 * @returns The exit code: 0 all agree, 1 a disagreement, 2 usage or read error.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { main } from "./verify_key.ts";
 * const lines: string[] = [];
 * assert.equal(await main([], (l) => lines.push(l)), 2);
 * assert.match(lines[0]!, /usage/i);
 * ```
 */
export function main(
  args: readonly string[],
  print: (line: string) => void = console.log,
): Promise<number> {
  return runCli(() => verify(args, print), { print, printError: print });
}

/** The command itself; a usage problem is a thrown `CliExit`. */
async function verify(
  args: readonly string[],
  print: (line: string) => void,
): Promise<number> {
  const { positionals } = parseCli(args, { usage: USAGE, options: {} });
  if (positionals.length === 0) {
    throw usageError(
      "Cannot verify a key: no file given; give a CSV file or folder",
      USAGE,
    );
  }
  const loaded: [string, LinalgBenchRow[]][] = [];
  for (const path of positionals) {
    let rows;
    try {
      rows = await loadLinalgBench(path);
    } catch (error) {
      print((error as Error).message);
      return 2;
    }
    if (rows.length === 0) {
      print(
        `Cannot verify ${path}: it has no rows to verify (only a header); give a LinAlg-Bench CSV that holds problems`,
      );
      return 2;
    }
    loaded.push([path, rows]);
  }
  let failed = 0;
  for (const [path, rows] of loaded) {
    const started = performance.now();
    const report = verifyKey(rows);
    const ms = Math.round(performance.now() - started);
    for (const d of report.disagreements) {
      print(
        `DISAGREE ${d.id} (${d.task}): published ${d.published}, computed ${d.computed}`,
      );
    }
    print(
      `${path}: ${report.agreements}/${report.total} answers agree, ${report.disagreements.length} disagree (${ms} ms)`,
    );
    failed += report.disagreements.length;
  }
  return failed > 0 ? 1 : 0;
}

if (import.meta.main) Deno.exit(await main(Deno.args));
