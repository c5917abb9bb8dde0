/**
 * `deno task report <run-dir> [<run-dir>...] [--out report.html]`: writes
 * the report (tables, charts and a sample explorer, standalone, no Python)
 * to the first run's folder, or to `--out`, and `<run-dir>/summary.csv` for
 * each run, and prints their paths. Several runs are shown side by side.
 *
 * @module
 */
import { parseArgs } from "node:util";
import { writeReport, writeSummaryCsv } from "../mod.ts";

const USAGE =
  "Usage: deno task report <run-dir> [<run-dir>...] [--out report.html]";

async function main(args: string[]): Promise<number> {
  const { positionals, values } = parseArgs({
    args,
    allowPositionals: true,
    options: {
      help: { type: "boolean", short: "h", default: false },
      out: { type: "string", short: "o" },
    },
  });
  if (values.help) {
    console.log(USAGE);
    return 0;
  }
  if (positionals.length === 0) {
    console.error(
      `Cannot write a report: give at least one run folder\n${USAGE}`,
    );
    return 2;
  }
  try {
    console.log(
      await writeReport(
        positionals,
        values.out === undefined ? {} : { out: values.out },
      ),
    );
    for (const runDir of positionals) {
      console.log(await writeSummaryCsv(runDir));
    }
    return 0;
  } catch (error) {
    console.error((error as Error).message);
    return 1;
  }
}

if (import.meta.main) Deno.exit(await main(Deno.args));
