/**
 * Accuracy by digits per family (with Wilson bands) and accuracy against
 * output tokens.
 *
 * @module
 */
import * as Plot from "@observablehq/plot";
import pl from "nodejs-polars";
import type { DataFrame } from "../../../report/mod.ts";
import {
  ACCURACY_Y,
  type Chart,
  pct,
  renderPlot,
  seriesColor,
} from "../../../report/plot.ts";
import { summarize } from "../../../report/summarize.ts";
import { requireColumns } from "../../../report/columns.ts";
import { type Row, str } from "./_columns.ts";

/** Options for {@linkcode accuracyByDigits}. */
export interface AccuracyByDigitsOptions {
  /** One panel per value of this column. @default {"family"} */
  facet?: string;
  /** Column that tells lines apart (colour). @default {"model"} */
  series?: string;
  /** The numeric x column. @default {"digits"} */
  dimension?: string;
  /** Where a dashed rule marks breaking. @default {0.5} */
  threshold?: number;
  /** Panels per row. @default {3} */
  columns?: number;
  /** Chart title. @default a description of the chart */
  title?: string;
  /** Width in pixels. @default {900} */
  width?: number;
}

/**
 * Accuracy against digits, one panel per family, one line per model with
 * its Wilson 95% interval as a band, and a dashed rule at the breaking
 * threshold.
 *
 * @param frame A frame from {@linkcode loadRuns}.
 * @param options Facet, series, dimension, threshold, panels per row, title, width.
 * @returns The chart.
 * @throws {RangeError} When a column is missing.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import pl from "nodejs-polars";
 * import { accuracyByDigits } from "./mod.ts";
 *
 * const frame = pl.DataFrame({
 *   model: ["a", "a", "a", "a"], family: ["add", "add", "mul", "mul"],
 *   digits: [2, 4, 2, 4], correct: [true, true, true, false],
 * });
 * const chart = accuracyByDigits(frame);
 * assert.equal(chart.html.match(/<circle/g)?.length, 4);
 * assert.match(chart.html, />mul</);
 * ```
 */
export function accuracyByDigits(
  frame: DataFrame,
  options: AccuracyByDigitsOptions = {},
): Chart {
  const {
    facet = "family",
    series = "model",
    dimension = "digits",
    threshold = 0.5,
    columns = 3,
    width = 900,
  } = options;
  requireColumns(frame, [facet, series, dimension, "correct"], {
    action: "build the chart",
    suite: "arithmetic",
  });
  const data = summarize(
    frame.filter(pl.col(dimension).isNotNull()),
    [facet, dimension, series],
  ).toRecords();
  const panels = [...new Set(data.map((d) => String(d[facet])))];
  const index = new Map(panels.map((p, i) => [p, i]));
  const fx = (d: Row) => (index.get(String(d[facet])) ?? 0) % columns;
  const fy = (d: Row) =>
    Math.floor((index.get(String(d[facet])) ?? 0) / columns);
  const x = (d: Row) => Number(d[dimension]);
  const rows = Math.max(1, Math.ceil(panels.length / columns));
  const labels = panels.map((p) => ({ [facet]: p }));
  return renderPlot(
    options.title ??
      `Accuracy by ${dimension} per ${facet} (bands: Wilson 95% interval; dashed: ${
        pct(threshold)
      })`,
    {
      width,
      height: 60 + rows * 190,
      marginTop: 24,
      fx: { axis: null, padding: 0.08 },
      fy: { axis: null, padding: 0.12 },
      x: {
        label: dimension,
        ticks: [...new Set(data.map(x))],
        tickFormat: (d: number) => String(d),
      },
      y: ACCURACY_Y,
      color: seriesColor(series),
      marks: [
        Plot.frame({ stroke: "#ddd" }),
        Plot.ruleY([threshold], { stroke: "#888", strokeDasharray: "4 3" }),
        Plot.areaY(data, {
          fx,
          fy,
          x,
          y1: "acc_lo",
          y2: "acc_hi",
          fill: str(series),
          fillOpacity: 0.12,
        }),
        Plot.lineY(data, { fx, fy, x, y: "accuracy", stroke: str(series) }),
        Plot.dot(data, { fx, fy, x, y: "accuracy", fill: str(series), r: 2.5 }),
        Plot.text(labels, {
          fx,
          fy,
          text: str(facet),
          frameAnchor: "top-left",
          dx: 6,
          dy: 4,
          fontWeight: "bold",
        }),
      ],
    },
  );
}

/** Options for {@linkcode accuracyAgainstTokens}. */
export interface AccuracyAgainstTokensOptions {
  /** The two templates compared; an arrow goes from the first to the second. @default {["direct", "cot"]} */
  templates?: readonly [string, string];
  /** Column that tells points apart (colour). @default {"model"} */
  series?: string;
  /** Chart title. @default a description of the chart */
  title?: string;
  /** Width in pixels. @default {720} */
  width?: number;
}

/**
 * Accuracy against mean completion tokens (log scale) for two templates:
 * one dot per (model, template) with its Wilson 95% interval, and an arrow
 * per model from the first template to the second, so the price of the
 * chain of thought and what it buys show at a glance.
 *
 * @param frame A frame from {@linkcode loadRuns}.
 * @param options Templates, series, title, width.
 * @returns The chart.
 * @throws {RangeError} When a column is missing.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import pl from "nodejs-polars";
 * import { accuracyAgainstTokens } from "./mod.ts";
 *
 * const frame = pl.DataFrame({
 *   model: ["a", "a", "b", "b"], template: ["direct", "cot", "direct", "cot"],
 *   correct: [false, true, true, true], completion_tokens: [3, 80, 2, 40],
 * });
 * const html = accuracyAgainstTokens(frame).html;
 * const dots = html.split('aria-label="dot"')[1]!.split("</g>")[0]!;
 * assert.equal(dots.match(/<path/g)?.length, 4);
 * const arrows = html.split('aria-label="arrow"')[1]!.split("</g>")[0]!;
 * assert.equal(arrows.match(/<path/g)?.length, 2);
 * ```
 */
export function accuracyAgainstTokens(
  frame: DataFrame,
  options: AccuracyAgainstTokensOptions = {},
): Chart {
  const { templates = ["direct", "cot"], series = "model", width = 720 } =
    options;
  requireColumns(frame, [series, "template", "correct", "completion_tokens"], {
    action: "build the chart",
    suite: "arithmetic",
  });
  const [from, to] = templates;
  const data = summarize(
    frame.filter(pl.col("template").isIn([from, to])),
    [series, "template"],
  ).toRecords().map((d): Row => ({
    ...d,
    // A log scale cannot show 0 tokens (an empty reply); draw it at 1.
    tokens: Math.max(1, Number(d.tokens_out_mean)),
  }));
  const arrows = [...new Set(data.map((d) => String(d[series])))].flatMap(
    (s) => {
      const a = data.find((d) =>
        String(d[series]) === s && d.template === from
      );
      const b = data.find((d) => String(d[series]) === s && d.template === to);
      return a && b
        ? [{
          [series]: s,
          x1: Number(a.tokens),
          y1: Number(a.accuracy),
          x2: Number(b.tokens),
          y2: Number(b.accuracy),
        }]
        : [];
    },
  );
  return renderPlot(
    options.title ??
      `Accuracy against mean completion tokens: ${from} → ${to} (Wilson 95% interval)`,
    {
      width,
      height: 380,
      marginRight: 110,
      x: {
        type: "log",
        label: "mean completion tokens (log)",
        grid: true,
        nice: true,
      },
      y: ACCURACY_Y,
      color: seriesColor(series),
      symbol: { legend: true, label: "template", domain: [from, to] },
      marks: [
        Plot.arrow(arrows, {
          x1: "x1",
          y1: "y1",
          x2: "x2",
          y2: "y2",
          stroke: str(series),
          strokeOpacity: 0.6,
          inset: 6,
        }),
        Plot.ruleX(data, {
          x: "tokens",
          y1: "acc_lo",
          y2: "acc_hi",
          stroke: str(series),
          strokeOpacity: 0.5,
        }),
        Plot.dot(data, {
          x: "tokens",
          y: "accuracy",
          stroke: str(series),
          fill: str(series),
          symbol: "template",
          r: 5,
        }),
        Plot.text(data.filter((d) => d.template === to), {
          x: "tokens",
          y: "accuracy",
          text: str(series),
          dx: 8,
          textAnchor: "start",
        }),
      ],
    },
  );
}
