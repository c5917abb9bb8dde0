/**
 * The parts of a "Breaking points" report section, for any suite whose
 * difficulty is an ordered size: the chart of crossings with intervals,
 * the table with the rows each used and the full grid's requests for the
 * same width, and a note saying what the columns mean.
 *
 * @module
 */
import type { DataFrame } from "./frame.ts";
import { tableHtml } from "./table.ts";
import { escapeHtml } from "./plot.ts";
import type { SectionPart } from "./suite_view.ts";
import { crossingTable } from "./crossing.ts";
import { crossingChart } from "./crossing_chart.ts";

/** Options for {@linkcode crossingSectionParts}. */
export interface CrossingSectionOptions {
  /** Group columns; must include `facet` and `series`. */
  by: readonly string[];
  /** The numeric size column (also the x axis's label). */
  dimension: string;
  /** One chart panel per value of this column. */
  facet: string;
  /** One dot per value of this column. @default {"model"} */
  series?: string;
  /** The suite, named in a missing-column error. */
  suite: string;
  /** The rows of the table to chart (e.g. one template). @default all */
  charted?: (table: DataFrame) => DataFrame;
  /** Words after "Breaking points" in the chart's title. @default {""} */
  chartNote?: string;
}

/**
 * The breaking-points section's parts: per group, the crossing of 50% with
 * its 95% interval (chart and table), the scored rows it used and the full
 * grid's requests for the same width (an estimate from the fitted curve).
 *
 * @param frame This suite's rows.
 * @param options Groups, size column, chart facet and series, suite.
 * @returns The chart, the table and a note.
 * @throws {RangeError} When a column is missing.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import pl from "nodejs-polars";
 * import { crossingSectionParts } from "./crossing_section.ts";
 * const size = [3, 4, 5, 6].flatMap((s) => Array(10).fill(s));
 * const frame = pl.DataFrame({
 *   model: size.map(() => "m"), task: size.map(() => "det"), size,
 *   correct: size.map((s, i) => i % 10 < 16 - 2 * s),
 * });
 * const parts = crossingSectionParts(frame, { by: ["model", "task"], dimension: "size", facet: "task", suite: "linalg" });
 * const html = parts.map((p) => typeof p === "string" ? p : p.html).join("");
 * assert.match(html, /<circle/);
 * assert.match(html, /\d\.\d \[\d\.\d, \d\.\d\]/);
 * ```
 */
export function crossingSectionParts(
  frame: DataFrame,
  options: CrossingSectionOptions,
): SectionPart[] {
  const {
    by,
    dimension,
    facet,
    series = "model",
    suite,
    charted = (t) => t,
    chartNote = "",
  } = options;
  const table = crossingTable(frame, { by, dimension, grid: true, suite });
  return [
    crossingChart(charted(table), {
      facet,
      series,
      dimension,
      title:
        `Breaking points${chartNote}: where accuracy crosses 50% (dot: posterior mean; rule: 95% interval)`,
    }),
    tableHtml(table.select(...by, "rows", "breaks_at", "grid_requests")),
    `<p class="note"><code>breaks_at</code>: the ${
      escapeHtml(dimension)
    } where accuracy crosses 50%, posterior mean and 95% interval from the group's scored rows (<code>rows</code>), assuming only that accuracy does not rise with the ${
      escapeHtml(dimension)
    } and reading the crossing between the two sizes around it in log-odds (an adaptive run's designs, which also count the sizes they never asked, are under Adaptive designs). <code>grid_requests</code>: requests a full grid (the same number of questions at each ${
      escapeHtml(dimension)
    } asked) would need for an interval as narrow, simulated from the fitted curve, so an estimate; – when 80 per ${
      escapeHtml(dimension)
    } is not enough or the crossing is not inside the sizes asked.</p>`,
  ];
}
