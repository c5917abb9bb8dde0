/**
 * `deno task verify-key <file-or-folder>…`: recomputes a LinAlg-Bench
 * style answer key with the exact solvers, prints the agreements and every
 * disagreement, and exits 1 on any disagreement (2 on a usage or read
 * error).
 *
 * @module
 */
import { loadLinalgBench } from "./linalgbench.ts";
import { verifyKey } from "./verify.ts";

/**
 * Runs the command.
 *
 * @param args File or folder paths.
 * @param print Where lines go.
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
export async function main(
  args: readonly string[],
  print: (line: string) => void = console.log,
): Promise<number> {
  if (args.length === 0 || args.includes("--help") || args.includes("-h")) {
    print("Usage: deno task verify-key <csv file or folder>...");
    return 2;
  }
  let failed = 0;
  for (const path of args) {
    let rows;
    try {
      rows = await loadLinalgBench(path);
    } catch (error) {
      print((error as Error).message);
      return 2;
    }
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
