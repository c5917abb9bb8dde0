/**
 * Summaries as aligned plain text, for terminals and logs.
 *
 * @module
 */
import type { DataFrame } from "./frame.ts";
import type { MetricSource } from "../judge/metric.ts";
import { formatSummaryTable } from "./tally_table.ts";
import { headline } from "./headline.ts";
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
  /**
   * The suites whose declared headline metrics to show (the suites the
   * registry loaded); rows of another suite get the default metrics.
   * @default none
   */
  suites?: readonly MetricSource[];
}

/**
 * Formats each group's scored rows, its suite's declared headline metrics
 * (accuracy with its Wilson 95% interval and the format-valid rate by
 * default) and the error rate, as aligned text tables (one per suite when
 * grouped by suite): the sweep's closing table, from a frame.
 *
 * @param frame A result frame from `loadRuns`.
 * @param by Grouping columns (those missing from the frame are skipped).
 * @param options The run's manifest, for rows planned against stored, and
 *   the suites whose metrics to show.
 * @returns The tables, header first.
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
 * const text = await summaryText(frame, ["suite", "model"]);
 * assert.match(text, /^suite\s+model\s+n\s+accuracy\s+95% CI\s+format ok/);
 * assert.match(text, /\ns\s+a\s+2\s+50\.0%\s+\[/);
 * const rows = await summaryText(frame, ["suite", "model"], { manifest: null });
 * assert.match(rows, /^suite\s+model\s+planned\s+stored\s+error rows\s+n/);
 * assert.match(rows, /\ns\s+a\s+\?\s+2\s+0\s+2\s+50\.0%/);
 * ```
 */
export async function summaryText(
  frame: DataFrame,
  by: readonly string[] = ["suite", "model"],
  options: SummaryTextOptions = {},
): Promise<string> {
  const { by: keys, lines } = await headline(
    frame,
    by,
    options.suites === undefined ? {} : { suites: options.suites },
  );
  if (!("manifest" in options)) return formatSummaryTable(keys, lines);
  const { manifest, runDir } = options;
  return formatSummaryTable(keys, lines, {
    rows: frameCompleteness(
      frame,
      manifest,
      keys,
      runDir === undefined ? {} : { runDir },
    ),
  });
}
