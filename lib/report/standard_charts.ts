import * as Plot from "@observablehq/plot";
import pl from "nodejs-polars";
import type { DataFrame } from "./frame.ts";
import {
  ACCURACY_Y,
  type Chart,
  pct,
  renderPlot,
  seriesColor,
} from "./plot.ts";
import { summarize } from "./summarize.ts";
import { paretoFrontier } from "./frontier.ts";

/** Options shared by the charts. */
export interface ChartOptions {
  /** Column that tells series apart (colour). @default {"model"} */
  series?: string;
  /** Chart title. @default a description of the chart */
  title?: string;
  /** Width in pixels. @default {720} */
  width?: number;
}

type Row = Record<string, unknown>;
const str = (c: string) => (d: Row) => String(d[c]);

/**
 * Accuracy by category: one dot per (category, series) with its Wilson 95%
 * interval drawn as a rule between two ticks; categories are facets.
 *
 * @param frame A frame from {@linkcode loadRuns}.
 * @param category Column of the categories (family, subject, template...).
 * @param options Series column, title, width.
 * @returns The chart.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import pl from "nodejs-polars";
 * import { accuracyByCategory } from "./mod.ts";
 *
 * const frame = pl.DataFrame({ model: ["a", "a", "b"], family: ["add", "mul", "add"], correct: [true, false, true] });
 * const chart = accuracyByCategory(frame, "family");
 * assert.equal(chart.html.match(/<circle/g)?.length, 3);
 * ```
 */
export function accuracyByCategory(
  frame: DataFrame,
  category: string,
  options: ChartOptions = {},
): Chart {
  const { series = "model", width = 720 } = options;
  const title = options.title ??
    `Accuracy by ${category} (Wilson 95% interval)`;
  const data = summarize(frame, [category, series]).toRecords();
  const common = { fx: str(category), x: str(series), stroke: str(series) };
  return renderPlot(title, {
    width,
    height: 320,
    marginBottom: 40,
    fx: { label: category, padding: 0.1 },
    x: { axis: null, padding: 0.3 },
    y: ACCURACY_Y,
    color: seriesColor(series),
    marks: [
      Plot.ruleY([0]),
      Plot.ruleX(data, { ...common, y1: "acc_lo", y2: "acc_hi" }),
      Plot.tickY(data, { ...common, y: "acc_lo" }),
      Plot.tickY(data, { ...common, y: "acc_hi" }),
      Plot.dot(data, { ...common, y: "accuracy", fill: str(series), r: 4 }),
    ],
  });
}

/**
 * Accuracy against a numeric dimension (digits, matrix size): a line per
 * series with its Wilson 95% interval as a band.
 *
 * @param frame A frame from {@linkcode loadRuns}.
 * @param dimension Numeric column on the x axis.
 * @param options Series column, title, width.
 * @returns The chart.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import pl from "nodejs-polars";
 * import { accuracyByDimension } from "./mod.ts";
 *
 * const frame = pl.DataFrame({ model: ["a", "a", "b", "b"], digits: [2, 4, 2, 4], correct: [true, false, true, true] });
 * const chart = accuracyByDimension(frame, "digits");
 * assert.equal(chart.html.match(/<path/g)!.length >= 4, true);
 * ```
 */
export function accuracyByDimension(
  frame: DataFrame,
  dimension: string,
  options: ChartOptions = {},
): Chart {
  const { series = "model", width = 720 } = options;
  const title = options.title ??
    `Accuracy by ${dimension} (bands: Wilson 95% interval)`;
  const data = summarize(frame.filter(pl.col(dimension).isNotNull()), [
    dimension,
    series,
  ]).toRecords();
  const x = (d: Row) => Number(d[dimension]);
  return renderPlot(title, {
    width,
    height: 340,
    x: {
      label: dimension,
      ticks: [...new Set(data.map(x))],
      tickFormat: (d: number) => Number.isInteger(d) ? String(d) : d.toFixed(2),
    },
    y: ACCURACY_Y,
    color: seriesColor(series),
    marks: [
      Plot.areaY(data, {
        x,
        y1: "acc_lo",
        y2: "acc_hi",
        fill: str(series),
        fillOpacity: 0.15,
      }),
      Plot.lineY(data, { x, y: "accuracy", stroke: str(series) }),
      Plot.dot(data, { x, y: "accuracy", fill: str(series), r: 3 }),
    ],
  });
}

/**
 * A heatmap of accuracy: rows × columns (e.g. model × category), each cell
 * labelled with its percentage.
 *
 * @param frame A frame from {@linkcode loadRuns}.
 * @param column Column across (e.g. `family`).
 * @param options `series` is the row column (default `model`), title, width.
 * @returns The chart.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import pl from "nodejs-polars";
 * import { accuracyHeatmap } from "./mod.ts";
 *
 * const frame = pl.DataFrame({ model: ["a", "a", "b"], family: ["add", "mul", "add"], correct: [true, false, true] });
 * assert.equal(accuracyHeatmap(frame, "family").html.match(/<rect/g)?.length, 3);
 * ```
 */
export function accuracyHeatmap(
  frame: DataFrame,
  column: string,
  options: ChartOptions = {},
): Chart {
  const { series = "model", width = 720 } = options;
  const title = options.title ?? `Accuracy: ${series} × ${column}`;
  const data = summarize(frame, [series, column]).toRecords();
  return renderPlot(title, {
    width,
    marginLeft: 110,
    padding: 0.05,
    x: { label: column, type: "band" },
    y: { label: series, type: "band" },
    color: {
      scheme: "RdYlGn",
      domain: [0, 1],
      // No ramp legend: it draws on a canvas, which linkedom lacks; cells carry labels.
      legend: false,
    },
    marks: [
      Plot.cell(data, { x: str(column), y: str(series), fill: "accuracy" }),
      Plot.text(data, {
        x: str(column),
        y: str(series),
        text: (d: Row) => pct(Number(d.accuracy)),
        fill: "black",
      }),
    ],
  });
}

/**
 * Accuracy against mean completion tokens (or cost, when priced): one dot
 * per series, labelled, with the Pareto frontier drawn as a line.
 *
 * @param frame A frame from {@linkcode loadRuns}.
 * @param options Series column (default `model`; `template` also works), title, width.
 * @returns The chart.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import pl from "nodejs-polars";
 * import { costFrontier } from "./mod.ts";
 *
 * const frame = pl.DataFrame({ model: ["a", "b"], correct: [true, false], completion_tokens: [10, 100] });
 * const chart = costFrontier(frame);
 * assert.equal(chart.html.match(/<circle/g)?.length, 2);
 * ```
 */
export function costFrontier(
  frame: DataFrame,
  options: ChartOptions = {},
): Chart {
  const { series = "model", width = 720 } = options;
  const data = summarize(frame, [series]).toRecords();
  const priced = data.every((d) => typeof d.cost === "number");
  const xKey = priced ? "cost" : "tokens_out_mean";
  const xLabel = priced ? "total cost ($)" : "mean completion tokens";
  const title = options.title ?? `Accuracy against ${xLabel}`;
  const frontier = paretoFrontier(data, {
    cost: (d) => Number(d[xKey]),
    value: (d) => Number(d.accuracy),
  });
  return renderPlot(title, {
    width,
    height: 340,
    marginRight: 80,
    x: { label: xLabel, grid: true, nice: true },
    y: ACCURACY_Y,
    color: { type: "ordinal", scheme: "tableau10", label: series },
    marks: [
      Plot.line(frontier, {
        x: xKey,
        y: "accuracy",
        stroke: "#999",
        strokeDasharray: "4 3",
      }),
      Plot.ruleX(data, {
        x: xKey,
        y1: "acc_lo",
        y2: "acc_hi",
        stroke: str(series),
      }),
      Plot.dot(data, { x: xKey, y: "accuracy", fill: str(series), r: 5 }),
      Plot.text(data, {
        x: xKey,
        y: "accuracy",
        text: str(series),
        dx: 8,
        textAnchor: "start",
      }),
    ],
  });
}

/**
 * Outcomes as stacked horizontal bars per series: correct, wrong (split by
 * error class where the suite has one), parse_error, truncated, error.
 *
 * @param frame A frame from {@linkcode loadRuns}.
 * @param options Series column, title, width.
 * @returns The chart.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import pl from "nodejs-polars";
 * import { errorTypes } from "./mod.ts";
 *
 * const frame = pl.DataFrame({
 *   model: ["a", "a", "b"],
 *   status: ["correct", "wrong", "parse_error"],
 *   error_class: [null, "carry", null],
 * });
 * const bars = errorTypes(frame).html.split('aria-label="bar"')[1]!.split("</g>")[0]!;
 * assert.equal(bars.match(/<rect/g)?.length, 3);
 * ```
 */
export function errorTypes(
  frame: DataFrame,
  options: ChartOptions = {},
): Chart {
  const { series = "model", width = 720 } = options;
  const title = options.title ?? `Outcomes by ${series}`;
  const type = frame.columns.includes("error_class")
    ? pl.when(
      pl.col("status").eq(pl.lit("wrong")).and(
        pl.col("error_class").isNotNull(),
      ),
    ).then(pl.lit("wrong: ").add(pl.col("error_class")))
      .otherwise(pl.col("status"))
    : pl.col("status");
  const data = frame.select(pl.col(series).cast(pl.Utf8), type.alias("outcome"))
    .groupBy([series, "outcome"]).agg(pl.len().alias("rows"))
    .sort([series, "outcome"]).toRecords();
  return renderPlot(title, {
    width,
    marginLeft: 110,
    x: { label: "rows", grid: true },
    y: { label: series },
    color: {
      legend: true,
      type: "ordinal",
      scheme: "observable10",
      label: "outcome",
    },
    marks: [
      Plot.barX(data, {
        x: "rows",
        y: str(series),
        fill: "outcome",
        sort: { y: "x", reverse: true },
      }),
      Plot.ruleX([0]),
    ],
  });
}
