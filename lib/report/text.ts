/**
 * Summaries as aligned plain text, for terminals and logs.
 *
 * @module
 */
import type { DataFrame } from "./frame.ts";
import { summarize } from "./summarize.ts";
import { formatSummaryTable, type SummaryLine } from "./tally.ts";

/**
 * Formats accuracy with its Wilson 95% interval, the format-valid rate and
 * the error rate for each group, as an aligned text table.
 *
 * @param frame A result frame from `loadRuns`.
 * @param by Grouping columns (those missing from the frame are skipped).
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
 * ```
 */
export function summaryText(
  frame: DataFrame,
  by: readonly string[] = ["suite", "model"],
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
  return formatSummaryTable(keys, lines);
}
