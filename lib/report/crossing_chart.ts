/**
 * The chart of breaking points with intervals: one dot per series at the
 * fitted crossing and a rule across its 95% interval, one panel per facet.
 *
 * @module
 */
import * as Plot from "@observablehq/plot";
import type { DataFrame } from "./frame.ts";
import { type Chart, renderPlot, seriesColor } from "./plot.ts";
import { requireColumns } from "./columns.ts";
import { ABOVE_ALL_SIZES } from "./crossing.ts";

/** Options for {@linkcode crossingChart}. */
export interface CrossingChartOptions {
  /** One panel (a band of rows) per value of this column. @default {"family"} */
  facet?: string;
  /** One dot per value of this column in each panel. @default {"model"} */
  series?: string;
  /** The size's name on the x axis. @default {"digits"} */
  dimension?: string;
  /** Chart title. @default a description of the chart */
  title?: string;
  /** Width in pixels. @default {720} */
  width?: number;
}

/**
 * Breaking points with intervals: for each facet, one row per series with
 * a dot at the fitted crossing and a rule from `low` to `high`; a series
 * whose accuracy never crossed the target says so at the right
 * ("above all sizes asked") instead of a dot.
 *
 * @param table A {@linkcode crossingTable} frame grouped by `facet` and `series`.
 * @param options Facet, series, dimension label, title, width.
 * @returns The chart.
 * @throws {RangeError} When a column is missing.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import pl from "nodejs-polars";
 * import { crossingChart } from "./crossing_chart.ts";
 * const table = pl.DataFrame({
 *   family: ["add", "add", "mul"], model: ["a", "b", "a"],
 *   fit: [6.2, null, 3.1], low: [5.8, null, 2.7], high: [6.6, null, 3.5],
 *   breaks_at: ["6.2 [5.8, 6.6]", "above all sizes asked", "3.1 [2.7, 3.5]"],
 * });
 * const html = crossingChart(table).html;
 * assert.equal(html.match(/<circle/g)?.length, 2);
 * assert.match(html, /above all sizes asked/);
 * ```
 */
export function crossingChart(
  table: DataFrame,
  options: CrossingChartOptions = {},
): Chart {
  const {
    facet = "family",
    series = "model",
    dimension = "digits",
    width = 720,
  } = options;
  requireColumns(table, [facet, series, "fit", "low", "high", "breaks_at"], {
    action: "build the breaking-point chart",
    suite: "this suite",
  });
  const rows = table.toRecords().map((d) => ({
    ...d,
    [facet]: String(d[facet]),
    [series]: String(d[series]),
  }));
  const inside = rows.filter((d) => d.fit !== null);
  const outside = rows.filter((d) => d.fit === null);
  const facets = new Set(rows.map((d) => d[facet])).size;
  const series_ = new Set(rows.map((d) => d[series])).size;
  return renderPlot(
    options.title ??
      `Breaking points: where accuracy crosses 50%, per ${facet} (dot: posterior mean; rule: 95% interval)`,
    {
      width,
      height: 60 + facets * (24 + 22 * series_),
      marginLeft: 110,
      marginRight: 120,
      x: { label: dimension, grid: true },
      y: { label: null },
      fy: { label: null },
      color: seriesColor(series),
      marks: [
        Plot.frame({ stroke: "#ddd" }),
        Plot.ruleY(inside, {
          fy: facet,
          y: series,
          x1: "low",
          x2: "high",
          stroke: series,
          strokeWidth: 2,
        }),
        Plot.dot(inside, {
          fy: facet,
          y: series,
          x: "fit",
          fill: series,
          r: 4,
        }),
        // A crossing beyond the sizes says so on that side of the panel.
        ...(["right", "left"] as const).map((side) =>
          Plot.text(
            outside.filter((d) =>
              (side === "right") === (d.breaks_at === ABOVE_ALL_SIZES)
            ),
            {
              fy: facet,
              y: series,
              text: "breaks_at",
              frameAnchor: side,
              dx: side === "right" ? -4 : 4,
              fill: "#666",
            },
          )
        ),
      ],
    },
  );
}
