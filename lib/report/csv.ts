/**
 * The summary of a run as CSV, for spreadsheets and for diffing runs.
 *
 * @module
 */
import { writeFileAtomic } from "../store/mod.ts";
import { join } from "node:path";
import pl from "nodejs-polars";
import { stringify } from "csv-stringify/sync";
import { loadRuns } from "./load.ts";
import { headline } from "./headline.ts";
import type { MetricSource } from "../judge/metric.ts";
import {
  COMPLETENESS_COLUMNS,
  withCompleteness,
} from "./_completeness_frame.ts";

/** Options of {@linkcode writeSummaryCsv}. */
export interface SummaryCsvOptions {
  /** Grouping columns (those missing from the run are skipped). @default ["model", "suite", "template"] */
  by?: readonly string[];
  /** Output file. @default `<runDir>/summary.csv` */
  path?: string;
  /**
   * The suites whose declared headline metrics fill the metric columns
   * (the suites the registry loaded; `lib/mod.ts`'s `writeSummaryCsv`
   * passes them all); rows of another suite get the default metrics.
   * @default none
   */
  suites?: readonly MetricSource[];
}

/**
 * Writes the per-group summary of a run (n and correct, the scored rows of
 * `isScored`; each suite's declared headline metrics, a column each —
 * accuracy with its Wilson 95% interval `acc_lo`/`acc_hi` and
 * `format_valid_rate` by default, C-Eval's `subject_mean` and `hard_mean`,
 * the code suite's `pass@1`, `k`, `pass@k` and `score`, a column per
 * matrix size for linalg — empty where a group's suite does not declare
 * it; then parse-error and error rates, latency, tokens, cost), then rows
 * `planned` (from the run's manifest; empty when it
 * cannot tell, as for a shard or a grouping by other columns than model,
 * suite and template), `stored`, `missing` (planned − stored) and
 * `error_rows`, as CSV with a header row, through `csv-stringify` (the
 * design card's `jsr:@std/csv` is unreachable here). A group planned with
 * no row stored, or with unscored rows only, has a line too (`n` 0).
 *
 * @param runDir The run folder.
 * @param options Grouping and output path.
 * @returns The path written.
 * @throws {Error} "Cannot load run ..." when the folder or its results are missing.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { writeSummaryCsv } from "./mod.ts";
 * const dir = await Deno.makeTempDir();
 * await Deno.writeTextFile(`${dir}/manifest.json`, JSON.stringify({
 *   config: { models: [{ name: "a" }, { name: "b" }], samples: 1, suites: [{ name: "s", templates: ["t"] }] },
 *   questions: { s: 2 }, total: 4,
 * }));
 * const row = (model: string, correct: boolean) =>
 *   JSON.stringify({ key: `${model}|${Math.random()}`, model, suite: "s", template: "t", status: correct ? "correct" : "wrong", correct, dims: {} });
 * await Deno.writeTextFile(`${dir}/results.jsonl`, [row("a", true), row("a", false), row("b", true)].join("\n") + "\n");
 * const text = await Deno.readTextFile(await writeSummaryCsv(dir));
 * assert.match(text, /^model,suite,template,n,correct,accuracy,.*,planned,stored,missing,error_rows\n/);
 * assert.match(text, /\na,s,t,2,1,0\.5,.*,2,2,0,0\n/);
 * assert.match(text, /\nb,s,t,1,1,1,.*,2,1,1,0\n/);
 * await Deno.remove(dir, { recursive: true });
 * ```
 */
export async function writeSummaryCsv(
  runDir: string,
  options: SummaryCsvOptions = {},
): Promise<string> {
  const {
    by = ["model", "suite", "template"],
    path = join(runDir, "summary.csv"),
    suites = [],
  } = options;
  const { frame, runs } = await loadRuns([runDir], { warn: false });
  const head = await headline(frame, by, { suites });
  const joined = withCompleteness(
    head.frame,
    frame,
    runs[0]?.manifest ?? null,
    head.by,
  ).summary;
  // planned, stored, missing, error_rows after the statistics, so the
  // columns before them stay where readers of older files find them.
  const rest = joined.columns.filter((c) => !COMPLETENESS_COLUMNS.includes(c));
  const summary = joined.withColumns(
    pl.col("planned").sub(pl.col("stored")).alias("missing"),
  ).select(...rest, "planned", "stored", "missing", "error_rows");
  const text = stringify(summary.toRecords() as Record<string, unknown>[], {
    header: true,
    columns: summary.columns,
    cast: { boolean: (value) => String(value) },
  });
  await writeFileAtomic(path, text);
  return path;
}
