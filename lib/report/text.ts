/**
 * Summaries as aligned plain text, for terminals and logs.
 *
 * @module
 */
import type { DataFrame } from "./frame.ts";
import { summarize } from "./summarize.ts";
import { formatSummaryTable, type SummaryLine } from "./tally.ts";
import { frameCompleteness } from "./_completeness_frame.ts";

/** Options of {@linkcode summaryText}. */
export interface SummaryTextOptions {
  /**
   * The run's parsed `manifest.json` (null: the run has none): when given,
   * the table shows rows planned, stored and error rows per group, and the
   * warnings and notes of `completeness` after it, as the sweep's closing
   * table does. @default not given (no such columns)
   */
  manifest?: unknown;
  /** The run folder, named in the advice to resume. @default none */
  runDir?: string;
}

/**
 * Formats accuracy with its Wilson 95% interval, the format-valid rate and
 * the error rate for each group, as an aligned text table.
 *
 * @param frame A result frame from `loadRuns`.
 * @param by Grouping columns (those missing from the frame are skipped).
 * @param options The run's manifest, for rows planned against stored.
 * @returns The table, one line per group, header first.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import pl from "nodejs-polars";
 * import { summaryText } from "./mod.ts";
 * const frame = pl.DataFrame({
 *   model: ["a", "a", "b"], suite: ["s", "s", "s"],
 *   status: ["correct", "wrong", "correct"], correct: [true, false, true],
 *   format_valid: [true, true, false],
 * });
 * const text = summaryText(frame, ["suite", "model"]);
 * assert.match(text, /^suite\s+model\s+n\s+accuracy\s+95% CI/);
 * assert.match(text, /\ns\s+a\s+2\s+50\.0%\s+\[/);
 * const rows = summaryText(frame, ["suite", "model"], { manifest: null });
 * assert.match(rows, /^suite\s+model\s+planned\s+stored\s+error rows\s+n/);
 * assert.match(rows, /\ns\s+a\s+\?\s+2\s+0\s+2\s+50\.0%/);
 * ```
 */
export function summaryText(
  frame: DataFrame,
  by: readonly string[] = ["suite", "model"],
  options: SummaryTextOptions = {},
): string {
  const keys = by.filter((column) => frame.columns.includes(column));
  // A statistic the frame cannot give (no such column) prints as "-".
  const num = (x: unknown) => typeof x === "number" ? x : NaN;
  const lines: SummaryLine[] = summarize(frame, keys).toRecords().map((r) => ({
    keys: keys.map((k) => String(r[k] ?? "-")),
    n: num(r.n),
    correct: num(r.correct),
    accuracy: num(r.accuracy),
    lo: num(r.acc_lo),
    hi: num(r.acc_hi),
    formatValidRate: num(r.format_valid_rate),
    errorRate: num(r.error_rate),
  }));
  if (!("manifest" in options)) return formatSummaryTable(keys, lines);
  const { manifest, runDir } = options;
  return formatSummaryTable(
    keys,
    lines,
    frameCompleteness(
      frame,
      manifest,
      keys,
      runDir === undefined ? {} : { runDir },
    ),
  );
}
