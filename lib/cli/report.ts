/**
 * `deno task report <run-dir>`: writes `<run-dir>/report.html` (tables and
 * charts, standalone, no Python) and prints its path.
 *
 * @module
 */
import { parseArgs } from "node:util";
import { writeReport } from "../report/mod.ts";

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
    console.log(await writeReport(positionals[0] as string));
    return 0;
  } catch (error) {
    console.error((error as Error).message);
    return 1;
  }
}

if (import.meta.main) Deno.exit(await main(Deno.args));
