/**
 * Summaries as aligned plain text, for terminals and logs.
 *
 * @module
 */
import type { DataFrame } from "./frame.ts";
import { summarize } from "./summarize.ts";

const pct = (x: unknown) =>
  typeof x === "number" && Number.isFinite(x)
    ? `${(x * 100).toFixed(1)}%`
    : "-";

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
  const rows = summarize(frame, keys).toRecords();
  const table = [
    [...keys, "n", "accuracy", "95% CI", "format ok", "errors"],
    ...rows.map((r) => [
      ...keys.map((k) => String(r[k] ?? "-")),
      String(r.n),
      pct(r.accuracy),
      `[${pct(r.acc_lo)}, ${pct(r.acc_hi)}]`,
      pct(r.format_valid_rate),
      pct(r.error_rate),
    ]),
  ];
  const widths = table[0]!.map((_, i) =>
    Math.max(...table.map((line) => line[i]!.length))
  );
  return table.map((line) =>
    line.map((cell, i) =>
      i < keys.length ? cell.padEnd(widths[i]!) : cell.padStart(widths[i]!)
    )
      .join("  ").trimEnd()
  ).join("\n");
}
