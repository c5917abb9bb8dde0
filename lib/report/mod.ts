/**
 * The analysis layer: run folders into a Polars frame, statistics with
 * exact or seeded methods, Observable Plot charts that render as HTML in
 * Jupyter and in exported pages, and a standalone HTML report.
 *
 * ```ts
 * import assert from "node:assert/strict";
 * import { wilsonInterval } from "./mod.ts";
 * assert.equal(wilsonInterval(10, 10).hi, 1);
 * ```
 *
 * @module
 */
export * from "./wilson.ts";
export * from "./mcnemar.ts";
export * from "./bootstrap.ts";
export * from "./rank.ts";
export * from "./load.ts";
export * from "./cost.ts";
export * from "./errors.ts";
export * from "./summarize.ts";
export * from "./scored.ts";
export * from "./headline.ts";
export * from "./headline_html.ts";
export * from "./compare.ts";
export * from "./all_wrong.ts";
export * from "./frontier.ts";
export * from "./display.ts";
export * from "./plot.ts";
export * from "./standard_charts.ts";
export * from "./crossing.ts";
export {
  type AdaptiveDesignLine,
  adaptiveDesigns,
  adaptiveLeaderboardNote,
  adaptiveSection,
} from "./adaptive.ts";
export * from "./crossing_chart.ts";
export * from "./crossing_section.ts";
export * from "./table.ts";
export * from "./report.ts";
export * from "./leaderboard.ts";
export * from "./extraction_note.ts";
export * from "./dim_kinds.ts";
export * from "./suite_view.ts";
export * from "./progress.ts";
export * from "./duration.ts";
export * from "./notebook.ts";
export * from "./index_page.ts";
export * from "./csv.ts";
export * from "./text.ts";
export * from "./tally.ts";
export {
  formatSummaryTable,
  type FormatSummaryTableOptions,
} from "./tally_table.ts";
export * from "./tally_file.ts";
export * from "./completeness.ts";
export * from "./columns.ts";
export type * from "./frame.ts";
export type {
  DetailFields,
  DetailPart,
  DetailTable,
  DetailText,
  DetailValue,
  SampleDetail,
  SampleRow,
} from "./viewer/mod.ts";
