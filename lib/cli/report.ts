/**
 * `deno task report <run-dir>`: writes `<run-dir>/report.html` (tables and
 * charts, standalone, no Python) and `<run-dir>/summary.csv`, and prints
 * their paths.
 *
 * @module
 */
import { parseArgs } from "node:util";
import { writeReport, writeSummaryCsv } from "../mod.ts";

const USAGE = "Usage: deno task report <run-dir>";

async function main(args: string[]): Promise<number> {
  const { positionals, values } = parseArgs({
    args,
    allowPositionals: true,
    options: { help: { type: "boolean", short: "h", default: false } },
  });
  if (values.help) {
    console.log(USAGE);
    return 0;
  }
  if (positionals.length !== 1) {
    console.error(
      `Cannot write a report: give exactly one run folder\n${USAGE}`,
    );
    return 2;
  }
  try {
    const runDir = positionals[0] as string;
    console.log(await writeReport(runDir));
    console.log(await writeSummaryCsv(runDir));
    return 0;
  } catch (error) {
    console.error((error as Error).message);
    return 1;
  }
}

if (import.meta.main) Deno.exit(await main(Deno.args));
