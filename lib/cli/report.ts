/**
 * `deno task report <run-dir> [<run-dir>...] [--out report.html [--force]] [--by <dim,...>]`:
 * writes the report (tables, charts and a sample explorer, standalone, no
 * Python) to the first run's folder, or to `--out` (an existing file that is
 * not an earlier report needs `--force`; a run's `results.jsonl` or
 * `manifest.json` is never written), and `<run-dir>/summary.csv` for
 * each run, and prints their paths. Several runs are shown side by side.
 * With exactly two runs it also prints, per suite and model, the
 * questions whose verdict flipped between them with the exact McNemar
 * test; the report lists them too ("Runs compared") and its viewer shows
 * each flip list side by side.
 *
 * Bad input (a flag, a path that is not a run, a run with no rows, a
 * results line that is not JSON) exits 2 with one message and writes
 * nothing; every folder is checked before any file is written.
 *
 * @module
 */
import { join } from "node:path";
import {
  checkOutputPath,
  checkRunDir,
  distinctRuns,
  GENERATOR_META,
  MANIFEST_FILE,
  RESULTS_FILE,
  RunDirError,
} from "../store/mod.ts";
import { parseCli, runCli, usageError } from "../args.ts";
import { osErrorMessage } from "../os_error.ts";

const USAGE =
  "Usage: deno task report <run-dir> [<run-dir>...] [--out report.html [--force]] [--by <dim,...>]";

/** Errors that mean the input is bad (exit 2), not that the report broke. */
function isInputError(error: unknown): boolean {
  return error instanceof RunDirError || error instanceof SyntaxError ||
    error instanceof RangeError || error instanceof Deno.errors.NotFound ||
    (error instanceof Error && /(InputError|PathError)$/.test(error.name));
}

/** Whether an existing file is a report this command wrote (it replaces those). */
async function isReport(path: string): Promise<boolean> {
  try {
    using file = await Deno.open(path);
    const head = new Uint8Array(512);
    const n = await file.read(head) ?? 0;
    return new TextDecoder().decode(head.subarray(0, n)).includes(
      GENERATOR_META,
    );
  } catch {
    return false;
  }
}

/**
 * Runs the command.
 *
 * @param args Run folders and flags.
 * @param print Where the written paths go.
 * @param printError Where messages go.
 * @returns The exit code: 0 written, 2 bad flags or input (nothing
 *   written), 1 another failure.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { main } from "./report.ts";
 * const lines: string[] = [];
 * assert.equal(await main(["/no/such/run"], () => {}, (l) => lines.push(l)), 2);
 * assert.match(lines[0]!, /Cannot write a report of \/no\/such\/run: no such folder/);
 * ```
 */
export async function main(
  args: readonly string[],
  print: (line: string) => void = console.log,
  printError: (line: string) => void = console.error,
): Promise<number> {
  return await runCli(
    () => writeReports(args, print, printError),
    { print, printError },
  );
}

/** {@linkcode main} once `--help` and usage problems are left to `runCli`. */
async function writeReports(
  args: readonly string[],
  print: (line: string) => void,
  printError: (line: string) => void,
): Promise<number> {
  const { positionals, values } = parseCli(args, {
    usage: USAGE,
    options: {
      out: { type: "string", short: "o" },
      force: { type: "boolean", default: false },
      by: { type: "string" },
    },
  });
  // Dims to break the results down by as well (`--by category,level`).
  const by = (values.by ?? "").split(",").map((d) => d.trim()).filter((d) =>
    d !== ""
  );
  if (positionals.length === 0) {
    throw usageError(
      "Cannot write a report: no run folder given; give at least one",
      USAGE,
    );
  }
  try {
    for (const runDir of positionals) {
      await checkRunDir(runDir, { action: "write a report of" });
    }
    // A run given twice (another spelling of its path, a copy) is one run
    // (the report's loader says so, on the console and the page).
    const { dirs } = await distinctRuns(positionals);
    // Every output through the one guard: never a file the report reads,
    // never a run's file but its own report.html; summary.csv is the
    // report's own in each run folder.
    const reads = dirs.flatMap((d) => [
      join(d, RESULTS_FILE),
      join(d, MANIFEST_FILE),
    ]);
    const out = values.out ?? join(dirs[0]!, "report.html");
    await checkOutputPath(out, {
      what: "the report",
      flag: "--out",
      force: values.force,
      ours: isReport,
      reads,
      runOwned: ["report.html"],
    });
    for (const dir of dirs) {
      await checkOutputPath(join(dir, "summary.csv"), {
        what: "the run's summary",
        flag: "--out",
        force: true,
        reads,
        runOwned: ["summary.csv"],
      });
    }
    // Polars and the charts load only once the input is known to be good.
    const { writeReport, writeSummaryCsv } = await import("../mod.ts");
    // All the folders given: the page names the ones that repeat a run.
    print(await writeReport(positionals, { out, by }));
    for (const runDir of dirs) {
      print(
        await writeSummaryCsv(
          runDir,
          by.length === 0 ? {} : { by: ["model", "suite", "template", ...by] },
        ),
      );
    }
    if (dirs.length === 2) {
      for (const line of await twoRunFlips(dirs)) print(line);
    }
    return 0;
  } catch (error) {
    const os = osErrorMessage(error);
    printError(
      os?.message ?? (error instanceof Error ? error.message : String(error)),
    );
    return os?.exitCode ?? (isInputError(error) ? 2 : 1);
  }
}

/** The two-run form's flip table (see `compareRuns`), as lines. */
async function twoRunFlips(dirs: readonly string[]): Promise<string[]> {
  const { loadRuns } = await import("../report/load.ts");
  const { compareRuns } = await import("../report/compare.ts");
  const { flipsText } = await import("../report/viewer/mod.ts");
  const { frame } = await loadRuns(dirs, { warn: false });
  const runs = frame.columns.includes("run")
    ? [...new Set(frame.getColumn("run").toArray().map(String))]
    : [];
  if (runs.length !== 2) {
    return [
      `Cannot list the verdicts flipped between ${
        dirs.join(" and ")
      }: their rows carry ${runs.length} run id(s), not 2; compare two different runs`,
    ];
  }
  const [a, b] = runs as [string, string];
  return flipsText(compareRuns(frame, [a, b]), a, b);
}

if (import.meta.main) Deno.exit(await main(Deno.args));
