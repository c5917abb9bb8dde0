/**
 * Arithmetic reports over the result frame of {@linkcode loadRuns}:
 * accuracy by family and digits with intervals, each model's breaking
 * point, error classes, direct against chain-of-thought accuracy per token,
 * bare against calculator, and the sanand0/llmmath per-item table with the
 * sim's calibration against the published averages.
 *
 * @module
 */
import * as Plot from "@observablehq/plot";
import pl from "nodejs-polars";
import { compareBareAndTool } from "./calculator_control.ts";
import { NUMERIC_ERROR_CLASSES } from "../forensics.ts";
import { llmmathReport } from "../llmmath/stats.ts";
import { LLMMATH_ITEMS } from "../llmmath/questions.ts";
import {
  ACCURACY_Y,
  type Chart,
  pct,
  renderPlot,
  seriesColor,
} from "../../../report/chart.ts";
import { summarize } from "../../../report/summarize.ts";
import { wilsonInterval, Z95 } from "../../../report/wilson.ts";

type Row = Record<string, unknown>;
const str = (c: string) => (d: Row) => String(d[c]);

/**
 * The published sanand0/llmmath average pass rates (about 50 models, no
 * tools), in item order: 12×12, 123×456, 1234×5678, 12345×6789,
 * 123456×789012, 1234567×8901234, 987654321×123456789.
 */
export const LLMMATH_PUBLISHED_AVERAGE: readonly number[] = Object.freeze([
  0.96,
  0.86,
  0.66,
  0.58,
  0.24,
  0.10,
  0,
]);

function requireColumns(
  frame: pl.DataFrame,
  columns: readonly string[],
  what: string,
): void {
  const missing = columns.filter((c) => !frame.columns.includes(c));
  if (missing.length > 0) {
    throw new RangeError(
      `Cannot build ${what}: the frame lacks ${
        missing.join(", ")
      } (load a run of the arithmetic suite with loadRuns)`,
    );
  }
}

/**
 * The rows of generated arithmetic questions: the `arithmetic` suite (when
 * the frame has a `suite` column) without preset items such as llmmath's.
 *
 * @param frame A frame from {@linkcode loadRuns}.
 * @returns The matching rows.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import pl from "nodejs-polars";
 * import { generatedArithmetic } from "./report.ts";
 *
 * const frame = pl.DataFrame({
 *   suite: ["arithmetic", "arithmetic", "linalg"],
 *   preset: [null, "llmmath", null],
 * });
 * assert.equal(generatedArithmetic(frame).height, 1);
 * ```
 */
export function generatedArithmetic(frame: pl.DataFrame): pl.DataFrame {
  let out = frame;
  if (out.columns.includes("suite")) {
    out = out.filter(pl.col("suite").eq(pl.lit("arithmetic")));
  }
  if (out.columns.includes("preset")) {
    out = out.filter(pl.col("preset").isNull());
  }
  return out;
}

/** Accuracy at one value of a numeric dimension (e.g. a digit count). */
export interface DimensionAccuracy {
  /** The dimension value (digits). */
  x: number;
  correct: number;
  n: number;
}

/** Options for {@linkcode breakingPoint}. */
export interface BreakingPointOptions {
  /** Accuracy below which a model counts as broken. @default {0.5} */
  threshold?: number;
  /** Normal quantile of the Wilson interval for `confirmed`. @default {Z95} */
  z?: number;
}

/** Where a model breaks. */
export interface BreakingPoint {
  /** The smallest x whose accuracy is below the threshold, or null when none is. */
  point: number | null;
  /**
   * Where the accuracy line crosses the threshold: linear interpolation
   * between the last x at or above it and `point`; `point` itself when the
   * first x measured is already below; null when none is.
   */
  crossing: number | null;
  /** The smallest x whose whole Wilson interval is below the threshold, or null. */
  confirmed: number | null;
}

/**
 * The breaking point of one accuracy curve: the digit count where accuracy
 * first falls below the threshold (50%), the interpolated crossing, and the
 * first digit count where even the interval's upper end is below it (so
 * noise cannot explain the drop).
 *
 * @param points Accuracy counts per x, in any order; x with n = 0 are ignored.
 * @param options Threshold and interval level.
 * @returns The breaking point, crossing and confirmed point.
 * @throws {RangeError} When the threshold is not in (0, 1].
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { breakingPoint } from "./report.ts";
 *
 * const bp = breakingPoint([
 *   { x: 2, correct: 96, n: 100 },
 *   { x: 5, correct: 58, n: 100 },
 *   { x: 6, correct: 24, n: 100 },
 *   { x: 7, correct: 10, n: 100 },
 * ]);
 * assert.equal(bp.point, 6);
 * assert.ok(Math.abs(bp.crossing! - (5 + 0.08 / 0.34)) < 1e-12);
 * assert.equal(bp.confirmed, 6);
 * assert.equal(breakingPoint([{ x: 2, correct: 9, n: 10 }]).point, null);
 * ```
 */
export function breakingPoint(
  points: readonly DimensionAccuracy[],
  options: BreakingPointOptions = {},
): BreakingPoint {
  const { threshold = 0.5, z = Z95 } = options;
  if (!(threshold > 0 && threshold <= 1)) {
    throw new RangeError(
      `Cannot find a breaking point: threshold must be in (0, 1], got ${threshold}`,
    );
  }
  // Written by hand: a first-crossing scan over a few points, which no
  // statistics library offers as such; the interval comes from wilsonInterval.
  const sorted = points.filter((p) => p.n > 0).sort((a, b) => a.x - b.x);
  let point: number | null = null;
  let crossing: number | null = null;
  let confirmed: number | null = null;
  for (let i = 0; i < sorted.length; i++) {
    const p = sorted[i]!;
    const acc = p.correct / p.n;
    if (point === null && acc < threshold) {
      point = p.x;
      const prev = i > 0 ? sorted[i - 1]! : null;
      if (prev === null) crossing = p.x;
      else {
        const a0 = prev.correct / prev.n;
        crossing = prev.x + (p.x - prev.x) * (a0 - threshold) / (a0 - acc);
      }
    }
    if (
      confirmed === null && wilsonInterval(p.correct, p.n, z).hi < threshold
    ) {
      confirmed = p.x;
    }
  }
  return { point, crossing, confirmed };
}

/** Options for {@linkcode breakingPoints}. */
export interface BreakingPointsOptions extends BreakingPointOptions {
  /** One breaking point per group of these columns. @default {["model"]} */
  by?: readonly string[];
  /** The numeric column of difficulty. @default {"digits"} */
  dimension?: string;
}

/**
 * Each group's breaking point (see {@linkcode breakingPoint}) from a result
 * frame: accuracy per digit count, pooled over everything not in `by`.
 *
 * @param frame A frame from {@linkcode loadRuns} (filter it first, e.g. to one template).
 * @param options Groups, dimension, threshold, interval level.
 * @returns Columns `...by`, `breaking_point`, `crossing`, `confirmed`,
 *   `tested` (the largest x measured), `n` (rows).
 * @throws {RangeError} When a column is missing or the threshold is out of range.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import pl from "nodejs-polars";
 * import { breakingPoints } from "./report.ts";
 *
 * const frame = pl.DataFrame({
 *   model: ["a", "a", "a", "a", "b", "b"],
 *   digits: [2, 2, 4, 4, 2, 4],
 *   correct: [true, true, true, false, true, true],
 * });
 * const rows = breakingPoints(frame).toRecords();
 * assert.deepEqual(rows.map((r) => [r.model, r.breaking_point]), [["a", null], ["b", null]]);
 * assert.deepEqual(breakingPoints(frame).columns.slice(0, 2), ["model", "breaking_point"]);
 * const strict = breakingPoints(frame, { threshold: 0.6 }).toRecords();
 * assert.equal(strict[0]!.breaking_point, 4);
 * ```
 */
export function breakingPoints(
  frame: pl.DataFrame,
  options: BreakingPointsOptions = {},
): pl.DataFrame {
  const { by = ["model"], dimension = "digits", ...rest } = options;
  requireColumns(frame, [...by, dimension, "correct"], "breaking points");
  const data = summarize(
    frame.filter(pl.col(dimension).isNotNull()),
    [...by, dimension],
  ).select(...by, dimension, "n", "correct").toRecords();
  const groups = new Map<string, { keys: Row; points: DimensionAccuracy[] }>();
  for (const d of data) {
    const key = JSON.stringify(by.map((c) => d[c]));
    let g = groups.get(key);
    if (g === undefined) {
      g = { keys: Object.fromEntries(by.map((c) => [c, d[c]])), points: [] };
      groups.set(key, g);
    }
    g.points.push({
      x: Number(d[dimension]),
      correct: Number(d.correct),
      n: Number(d.n),
    });
  }
  const rows = [...groups.values()].map(({ keys, points }) => {
    const bp = breakingPoint(points, rest);
    return {
      ...keys,
      breaking_point: bp.point,
      crossing: bp.crossing,
      confirmed: bp.confirmed,
      tested: Math.max(...points.map((p) => p.x)),
      n: points.reduce((s, p) => s + p.n, 0),
    };
  });
  const schema: Record<string, pl.DataType> = {
    breaking_point: pl.Float64,
    crossing: pl.Float64,
    confirmed: pl.Float64,
    tested: pl.Float64,
    n: pl.Int64,
  };
  for (const c of by) schema[c] = frame.getColumn(c).dtype;
  const order = [...by, ...Object.keys(schema).filter((c) => !by.includes(c))];
  if (rows.length === 0) {
    return pl.DataFrame(
      Object.fromEntries(Object.keys(schema).map((c) => [c, []])),
      { schema },
    ).select(...order);
  }
  return pl.DataFrame(rows, { schema }).select(...order);
}

/** Options for {@linkcode breakingPointMatrix}. */
export interface BreakingPointMatrixOptions extends BreakingPointOptions {
  /** The row column. @default {"model"} */
  rows?: string;
  /** One column per value of this column. @default {"family"} */
  across?: string;
  /** The numeric column of difficulty. @default {"digits"} */
  dimension?: string;
}

/**
 * Breaking points as a readable rows × columns table (model × family by
 * default): each cell is the first digit count below the threshold, or
 * `> N` when accuracy never fell below it up to the largest N tested, or
 * `–` when the pair has no rows.
 *
 * @param frame A frame from {@linkcode loadRuns} (filter it first, e.g. to one template).
 * @param options Row and column columns, dimension, threshold.
 * @returns Columns `rows`, then one string column per value of `across` (sorted).
 * @throws {RangeError} When a column is missing or the threshold is out of range.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import pl from "nodejs-polars";
 * import { breakingPointMatrix } from "./report.ts";
 *
 * const frame = pl.DataFrame({
 *   model: ["a", "a", "a", "a", "b", "b"],
 *   family: ["add", "add", "mul", "mul", "add", "add"],
 *   digits: [2, 8, 2, 8, 2, 8],
 *   correct: [true, true, true, false, true, true],
 * });
 * const m = breakingPointMatrix(frame);
 * assert.deepEqual(m.columns, ["model", "add", "mul"]);
 * assert.deepEqual(m.row(0), ["a", "> 8", "8"]);
 * assert.deepEqual(m.row(1), ["b", "> 8", "–"]);
 * ```
 */
export function breakingPointMatrix(
  frame: pl.DataFrame,
  options: BreakingPointMatrixOptions = {},
): pl.DataFrame {
  const { rows = "model", across = "family", dimension = "digits", ...rest } =
    options;
  const long = breakingPoints(frame, {
    ...rest,
    by: [rows, across],
    dimension,
  }).toRecords();
  // Pivoted by hand, not with DataFrame.pivot: a cell must tell "never broke
  // up to N" from "not measured", which a numeric pivot turns into one null.
  const keys = [...new Set(long.map((r) => String(r[rows])))].sort();
  const cols = [...new Set(long.map((r) => String(r[across])))].sort();
  const out: Record<string, string[]> = { [rows]: keys };
  for (const c of cols) {
    out[c] = keys.map((k) => {
      const hit = long.find((r) =>
        String(r[rows]) === k && String(r[across]) === c
      );
      if (!hit) return "–";
      return hit.breaking_point === null
        ? `> ${hit.tested}`
        : String(hit.breaking_point);
    });
  }
  return pl.DataFrame(out);
}

/**
 * One sentence on a calibration from {@linkcode llmmathCalibration}: how
 * many published averages fall inside the measured 95% intervals, and the
 * largest gap.
 *
 * @param calibration The calibration frame.
 * @param model The model's name, for the sentence. @default {"sim-average"}
 * @returns The sentence.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import pl from "nodejs-polars";
 * import { calibrationSummary } from "./report.ts";
 *
 * const c = pl.DataFrame({
 *   product: ["12×12", "123×456"], accuracy: [0.9, 0.5], diff_rate: [-0.06, -0.36],
 *   published_inside: [true, false], n: [100, 100],
 * });
 * assert.equal(calibrationSummary(c), "sim-average: 1 of 2 published averages lie inside its 95% interval (n = 100 per size); largest gap 123×456: 36 points below.");
 * ```
 */
export function calibrationSummary(
  calibration: pl.DataFrame,
  model = "sim-average",
): string {
  const rows = calibration.toRecords().filter((r) => r.accuracy !== null);
  if (rows.length === 0) {
    return `${model}: no generated n×n products to compare with the published averages.`;
  }
  const inside = rows.filter((r) => r.published_inside === true).length;
  const worst = rows.reduce((a, b) =>
    Math.abs(Number(b.diff_rate)) > Math.abs(Number(a.diff_rate)) ? b : a
  );
  const gap = Number(worst.diff_rate);
  const ns = [...new Set(rows.map((r) => Number(r.n)))];
  const nText = ns.length === 1
    ? `${ns[0]}`
    : `${Math.min(...ns)}–${Math.max(...ns)}`;
  return `${model}: ${inside} of ${rows.length} published averages lie inside its 95% interval (n = ${nText} per size); largest gap ${worst.product}: ${
    Math.round(Math.abs(gap) * 100)
  } points ${gap < 0 ? "below" : "above"}.`;
}

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
 * import { accuracyByDigits } from "./report.ts";
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
  frame: pl.DataFrame,
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
  requireColumns(frame, [facet, series, dimension, "correct"], "the chart");
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
 * import { accuracyAgainstTokens } from "./report.ts";
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
  frame: pl.DataFrame,
  options: AccuracyAgainstTokensOptions = {},
): Chart {
  const { templates = ["direct", "cot"], series = "model", width = 720 } =
    options;
  requireColumns(
    frame,
    [series, "template", "correct", "completion_tokens"],
    "the chart",
  );
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

/** Options for {@linkcode bareVsTool}. */
export interface BareVsToolOptions {
  /** Templates counted as bare. @default {["direct"]} */
  bare?: readonly string[];
  /** Templates counted as tool-assisted. @default {["calculator"]} */
  tool?: readonly string[];
  /** Group rows by this column as well as the model; null pools them. @default {"digits"} */
  group?: string | null;
}

/**
 * Bare and calculator accuracy side by side per model (and group), with
 * Wilson 95% intervals, from {@linkcode compareBareAndTool}.
 *
 * @param frame A frame from {@linkcode loadRuns}.
 * @param options Which templates are bare and which use the tool; grouping.
 * @returns Columns `model`, the group column (when grouped), `bare_n`,
 *   `bare_accuracy`, `bare_lo`, `bare_hi`, `tool_n`, `tool_accuracy`,
 *   `tool_lo`, `tool_hi`, `gain` (tool − bare).
 * @throws {RangeError} When a column is missing.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import pl from "nodejs-polars";
 * import { bareVsTool } from "./report.ts";
 *
 * const frame = pl.DataFrame({
 *   model: ["m", "m", "m", "m"], digits: [8, 8, 8, 8],
 *   template: ["direct", "direct", "calculator", "calculator"],
 *   correct: [false, true, true, true],
 * });
 * const [row] = bareVsTool(frame).toRecords();
 * assert.equal(row!.digits, 8);
 * assert.equal(row!.bare_accuracy, 0.5);
 * assert.equal(row!.gain, 0.5);
 * ```
 */
export function bareVsTool(
  frame: pl.DataFrame,
  options: BareVsToolOptions = {},
): pl.DataFrame {
  const { bare = ["direct"], tool = ["calculator"], group = "digits" } =
    options;
  requireColumns(
    frame,
    ["model", "template", "correct", ...(group ? [group] : [])],
    "the bare-vs-tool table",
  );
  const cols = ["model", "template", "correct", ...(group ? [group] : [])];
  const outcomes = frame.select(...cols).toRecords().map((r) => ({
    model: String(r.model),
    template: String(r.template),
    correct: r.correct === true,
    group: group ? r[group] as string | number | null : null,
  }));
  // Numeric groups (digits) come back as numbers; others stay text.
  const numericGroup = group !== null &&
    outcomes.every((o) => o.group === null || typeof o.group === "number");
  const rows = compareBareAndTool(outcomes, { bare, tool }).map((r) => {
    const b = r.bare.n ? wilsonInterval(r.bare.correct, r.bare.n) : null;
    const t = r.tool.n ? wilsonInterval(r.tool.correct, r.tool.n) : null;
    const g = numericGroup && r.group !== "" ? Number(r.group) : r.group;
    return {
      model: r.model,
      ...(group ? { [group]: r.group === "" ? null : g } : {}),
      bare_n: r.bare.n,
      bare_accuracy: r.bare.accuracy,
      bare_lo: b?.lo ?? null,
      bare_hi: b?.hi ?? null,
      tool_n: r.tool.n,
      tool_accuracy: r.tool.accuracy,
      tool_lo: t?.lo ?? null,
      tool_hi: t?.hi ?? null,
      gain: r.gain,
    };
  });
  const schema: Record<string, pl.DataType> = {
    model: pl.Utf8,
    ...(group ? { [group]: numericGroup ? pl.Float64 : pl.Utf8 } : {}),
    bare_n: pl.Int64,
    bare_accuracy: pl.Float64,
    bare_lo: pl.Float64,
    bare_hi: pl.Float64,
    tool_n: pl.Int64,
    tool_accuracy: pl.Float64,
    tool_lo: pl.Float64,
    tool_hi: pl.Float64,
    gain: pl.Float64,
  };
  if (rows.length === 0) {
    return pl.DataFrame(
      Object.fromEntries(Object.keys(schema).map((c) => [c, []])),
      { schema },
    );
  }
  return pl.DataFrame(rows, { schema });
}

/** Options for {@linkcode bareVsToolChart}. */
export interface BareVsToolChartOptions extends BareVsToolOptions {
  /** Chart title. @default a description of the chart */
  title?: string;
  /** Width in pixels. @default {720} */
  width?: number;
}

/**
 * Bare (solid) and calculator (dashed) accuracy against digits, one colour
 * per model: how much of the failure a tool removes.
 *
 * @param frame A frame from {@linkcode loadRuns}.
 * @param options Templates, numeric group column (default `digits`), title, width.
 * @returns The chart.
 * @throws {RangeError} When a column is missing.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import pl from "nodejs-polars";
 * import { bareVsToolChart } from "./report.ts";
 *
 * const frame = pl.DataFrame({
 *   model: ["m", "m", "m", "m"], digits: [2, 8, 2, 8],
 *   template: ["direct", "direct", "calculator", "calculator"],
 *   correct: [true, false, true, true],
 * });
 * const html = bareVsToolChart(frame).html;
 * assert.equal(html.match(/<circle/g)?.length, 4);
 * assert.match(html, /stroke-dasharray="5 3"/);
 * ```
 */
export function bareVsToolChart(
  frame: pl.DataFrame,
  options: BareVsToolChartOptions = {},
): Chart {
  const { width = 720, group = "digits", ...rest } = options;
  const dim = group ?? "digits";
  const data = bareVsTool(frame, { ...rest, group: dim }).toRecords()
    .filter((d) => d[dim] !== null);
  const x = (d: Row) => Number(d[dim]);
  const bare = data.filter((d) => d.bare_accuracy !== null);
  const tool = data.filter((d) => d.tool_accuracy !== null);
  return renderPlot(
    options.title ??
      `Bare (solid) against calculator (dashed) accuracy by ${dim}`,
    {
      width,
      height: 340,
      x: { label: dim, ticks: [...new Set(data.map(x))] },
      y: ACCURACY_Y,
      color: {
        legend: true,
        type: "ordinal",
        scheme: "tableau10",
        label: "model",
      },
      marks: [
        Plot.lineY(bare, { x, y: "bare_accuracy", stroke: "model" }),
        Plot.dot(bare, { x, y: "bare_accuracy", fill: "model", r: 3 }),
        Plot.lineY(tool, {
          x,
          y: "tool_accuracy",
          stroke: "model",
          strokeDasharray: "5 3",
        }),
        Plot.dot(tool, {
          x,
          y: "tool_accuracy",
          stroke: "model",
          fill: "white",
          r: 3,
        }),
      ],
    },
  );
}

/** The outcome label of a row that is not correct: its error class, else its status. */
function outcomeExpr(frame: pl.DataFrame): pl.Expr {
  return frame.columns.includes("error_class")
    ? pl.when(pl.col("error_class").isNotNull()).then(pl.col("error_class"))
      .otherwise(pl.col("status"))
    : pl.col("status");
}

/**
 * Sixteen distinguishable colours (Tableau 10 and six more): the error
 * labels outnumber any 10-colour scheme, and repeated colours would merge
 * classes in the stacked bars.
 */
const ERROR_PALETTE = [
  "#4e79a7",
  "#f28e2c",
  "#e15759",
  "#76b7b2",
  "#59a14f",
  "#edc949",
  "#af7aa1",
  "#ff9da7",
  "#9c755f",
  "#bab0ab",
  "#1f1f1f",
  "#8cd17d",
  "#b6992d",
  "#d37295",
  "#499894",
  "#86bcb6",
];

/** The order error labels are shown in: the forensic classes, then the statuses. */
export const ARITHMETIC_ERROR_ORDER: readonly string[] = Object.freeze([
  ...NUMERIC_ERROR_CLASSES,
  "wrong",
  "parse_error",
  "truncated",
  "error",
]);

/**
 * Error classes of the rows that are not correct, per value of a column
 * (digits by default): each class's count and its share of that value's
 * failures. A wrong answer counts under its forensic class (carry,
 * transposition, place value...); a reply with no number as `parse_error`;
 * a reply cut at the token limit as `truncated`; a failed request as
 * `error`.
 *
 * @param frame A frame from {@linkcode loadRuns}.
 * @param by The grouping column. @default {"digits"}
 * @returns Columns `by`, `error_class`, `errors`, `share`, sorted by `by`
 *   and the order of {@linkcode ARITHMETIC_ERROR_ORDER}.
 * @throws {RangeError} When a column is missing.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import pl from "nodejs-polars";
 * import { errorClassShares } from "./report.ts";
 *
 * const frame = pl.DataFrame({
 *   digits: [2, 6, 6, 6],
 *   status: ["correct", "wrong", "wrong", "parse_error"],
 *   error_class: [null, "carry", "carry", null],
 * });
 * const rows = errorClassShares(frame).toRecords();
 * assert.deepEqual(rows.map((r) => [r.digits, r.error_class, r.errors]), [[6, "carry", 2], [6, "parse_error", 1]]);
 * assert.ok(Math.abs(Number(rows[0]!.share) - 2 / 3) < 1e-12);
 * ```
 */
export function errorClassShares(
  frame: pl.DataFrame,
  by = "digits",
): pl.DataFrame {
  requireColumns(frame, [by, "status"], "error classes");
  const order = new Map(ARITHMETIC_ERROR_ORDER.map((c, i) => [c, i]));
  const counts = frame
    .filter(pl.col("status").neq(pl.lit("correct")))
    .select(pl.col(by), outcomeExpr(frame).cast(pl.Utf8).alias("error_class"))
    .groupBy([by, "error_class"]).agg(pl.len().cast(pl.Int64).alias("errors"));
  const rows = counts.toRecords().map((r) => ({ ...r }));
  const totals = new Map<string, number>();
  for (const r of rows) {
    const k = String(r[by]);
    totals.set(k, (totals.get(k) ?? 0) + Number(r.errors));
  }
  const rank = (c: unknown) => order.get(String(c)) ?? order.size;
  rows.sort((a, b) => {
    const va = a[by], vb = b[by];
    const byCmp = typeof va === "number" && typeof vb === "number"
      ? va - vb
      : String(va).localeCompare(String(vb));
    return byCmp || rank(a.error_class) - rank(b.error_class);
  });
  return pl.DataFrame({
    [by]: pl.Series(by, rows.map((r) => r[by]), frame.getColumn(by).dtype),
    error_class: pl.Series(
      "error_class",
      rows.map((r) => String(r.error_class)),
      pl.Utf8,
    ),
    errors: pl.Series("errors", rows.map((r) => Number(r.errors)), pl.Int64),
    share: pl.Series(
      "share",
      rows.map((r) => Number(r.errors) / totals.get(String(r[by]))!),
      pl.Float64,
    ),
  });
}

/**
 * Error classes per model as a wide table: `failures` (rows not correct),
 * then one count column per class present, in the order of
 * {@linkcode ARITHMETIC_ERROR_ORDER}.
 *
 * @param frame A frame from {@linkcode loadRuns}.
 * @param by The row column. @default {"model"}
 * @returns One row per value of `by`.
 * @throws {RangeError} When a column is missing.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import pl from "nodejs-polars";
 * import { errorClassTable } from "./report.ts";
 *
 * const frame = pl.DataFrame({
 *   model: ["a", "a", "b"],
 *   status: ["wrong", "wrong", "parse_error"],
 *   error_class: ["carry", "sign", null],
 * });
 * const t = errorClassTable(frame);
 * assert.deepEqual(t.columns, ["model", "failures", "sign", "carry", "parse_error"]);
 * assert.deepEqual(t.row(0), ["a", 2, 1, 1, 0]);
 * ```
 */
export function errorClassTable(
  frame: pl.DataFrame,
  by = "model",
): pl.DataFrame {
  const long = errorClassShares(frame, by).toRecords();
  const classes = ARITHMETIC_ERROR_ORDER.filter((c) =>
    long.some((r) => r.error_class === c)
  );
  const others = [...new Set(long.map((r) => String(r.error_class)))]
    .filter((c) => !classes.includes(c)).sort();
  const all = [...classes, ...others];
  const keys = [...new Set(long.map((r) => String(r[by])))].sort();
  const rows = keys.map((k) => {
    const mine = long.filter((r) => String(r[by]) === k);
    const row: Record<string, string | number> = {
      [by]: k,
      failures: mine.reduce((s, r) => s + Number(r.errors), 0),
    };
    for (const c of all) {
      row[c] = Number(mine.find((r) => r.error_class === c)?.errors ?? 0);
    }
    return row;
  });
  return rows.length
    ? pl.DataFrame(rows)
    : pl.DataFrame({ [by]: [] as string[], failures: [] as number[] });
}

/** Options for {@linkcode errorClassChart}. */
export interface ErrorClassChartOptions {
  /** The x column. @default {"digits"} */
  by?: string;
  /** Chart title. @default a description of the chart */
  title?: string;
  /** Width in pixels. @default {720} */
  width?: number;
}

/**
 * Stacked bars of error-class shares per digit count (models pooled): how
 * the kind of mistake changes as numbers grow.
 *
 * @param frame A frame from {@linkcode loadRuns}.
 * @param options x column, title, width.
 * @returns The chart.
 * @throws {RangeError} When a column is missing.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import pl from "nodejs-polars";
 * import { errorClassChart } from "./report.ts";
 *
 * const frame = pl.DataFrame({ digits: [4, 8], status: ["wrong", "wrong"], error_class: ["carry", "dropped_digit"] });
 * const bars = errorClassChart(frame).html.split('aria-label="bar"')[1]!.split("</g>")[0]!;
 * assert.equal(bars.match(/<rect/g)?.length, 2);
 * ```
 */
export function errorClassChart(
  frame: pl.DataFrame,
  options: ErrorClassChartOptions = {},
): Chart {
  const { by = "digits", width = 720 } = options;
  const data = errorClassShares(frame, by).toRecords();
  const present = new Set(data.map((d) => String(d.error_class)));
  const domain = [
    ...ARITHMETIC_ERROR_ORDER.filter((c) => present.has(c)),
    ...[...present].filter((c) => !ARITHMETIC_ERROR_ORDER.includes(c)).sort(),
  ];
  const xs = [...new Set(data.map((d) => d[by]))].sort((a, b) =>
    typeof a === "number" && typeof b === "number"
      ? a - b
      : String(a).localeCompare(String(b))
  ).map(String);
  return renderPlot(
    options.title ??
      `Error classes by ${by} (share of failures, models pooled)`,
    {
      width,
      height: 360,
      x: { label: by, type: "band", domain: xs },
      y: { label: "share of failures", tickFormat: pct, domain: [0, 1] },
      color: {
        legend: true,
        domain,
        range: ERROR_PALETTE.slice(0, Math.max(1, domain.length)),
        label: "class",
      },
      marks: [
        Plot.barY(data, {
          x: str(by),
          y: "share",
          fill: "error_class",
          order: domain,
          title: (d: Row) =>
            `${d.error_class}: ${d.errors} (${pct(Number(d.share))})`,
        }),
        Plot.ruleY([0]),
      ],
    },
  );
}

/** The llmmath rows of a frame (preset `llmmath`, or question ids of its items). */
function llmmathRows(frame: pl.DataFrame): pl.DataFrame {
  requireColumns(frame, ["model", "question_id", "correct"], "llmmath tables");
  return frame.filter(
    pl.col("question_id").str.startsWith("arithmetic/llmmath/"),
  );
}

/**
 * The llmmath per-item pass rates, laid out the way sanand0/llmmath
 * reports them: one row per model with `win` (the mean pass rate over the
 * seven items) and `Q1`…`Q7` (each item's pass rate over its repeats),
 * best model first, then an `Average` row over the models. `runs` is the
 * fewest repeats any item of that row had.
 *
 * @param frame A frame holding llmmath-preset rows (other rows are ignored).
 * @returns Columns `model`, `win`, `Q1`…`Q7`, `runs`; null where an item has no rows.
 * @throws {RangeError} When a column is missing.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import pl from "nodejs-polars";
 * import { llmmathTable } from "./report.ts";
 *
 * const ids = ["12x12", "123x456"].map((p) => `arithmetic/llmmath/${p}`);
 * const frame = pl.DataFrame({
 *   model: ["m", "m", "m", "m"],
 *   question_id: [ids[0], ids[0], ids[1], ids[1]],
 *   correct: [true, true, true, false],
 * });
 * const [m, avg] = llmmathTable(frame).toRecords();
 * assert.equal(m!.Q1, 1);
 * assert.equal(m!.Q2, 0.5);
 * assert.equal(m!.Q3, null);
 * assert.equal(m!.win, 0.75);
 * assert.equal(avg!.model, "Average");
 * ```
 */
export function llmmathTable(frame: pl.DataFrame): pl.DataFrame {
  const rows = llmmathRows(frame).select("model", "question_id", "correct")
    .toRecords();
  const report = llmmathReport(rows.map((r) => ({
    model: String(r.model),
    questionId: String(r.question_id),
    correct: r.correct === true,
  })));
  const items = LLMMATH_ITEMS.map((_, i) => `Q${i + 1}`);
  const models = [...new Set(report.map((r) => r.model))];
  const line = (model: string, rates: (number | null)[], runs: number) => {
    const seen = rates.filter((r): r is number => r !== null);
    const row: Record<string, string | number | null> = {
      model,
      win: seen.length ? seen.reduce((s, r) => s + r, 0) / seen.length : null,
    };
    items.forEach((q, i) => row[q] = rates[i] ?? null);
    row.runs = runs;
    return row;
  };
  const body = models.map((model) => {
    const mine = report.filter((r) => r.model === model);
    const rates = items.map((_, i) =>
      mine.find((r) => r.item === i + 1)?.rate ?? null
    );
    return line(model, rates, Math.min(...mine.map((r) => r.runs)));
  }).sort((a, b) =>
    Number(b.win) - Number(a.win) ||
    String(a.model).localeCompare(String(b.model))
  );
  const schema: Record<string, pl.DataType> = {
    model: pl.Utf8,
    win: pl.Float64,
  };
  for (const q of items) schema[q] = pl.Float64;
  schema.runs = pl.Int64;
  if (body.length === 0) {
    return pl.DataFrame(
      Object.fromEntries(Object.keys(schema).map((c) => [c, []])),
      { schema },
    );
  }
  const averages = items.map((q) => {
    const vals = body.map((r) => r[q]).filter((v): v is number =>
      typeof v === "number"
    );
    return vals.length ? vals.reduce((s, v) => s + v, 0) / vals.length : null;
  });
  const average = line(
    "Average",
    averages,
    Math.min(...body.map((r) => Number(r.runs))),
  );
  return pl.DataFrame([...body, average], { schema });
}

/** Options for {@linkcode llmmathCalibration}. */
export interface LlmmathCalibrationOptions {
  /** The model compared with the published averages. @default {"sim-average"} */
  model?: string;
  /** Template of the generated n×n products to use; null takes every template. @default {null} */
  template?: string | null;
}

/**
 * A model's figures beside the published sanand0/llmmath averages, one
 * row per item: the pass rate on the llmmath item itself (5 repeats, so
 * coarse) and the accuracy on generated n×n-digit products (family `mul`,
 * same n) with its Wilson 95% interval, the difference from the published
 * average, and whether the published figure lies inside the interval.
 *
 * @param frame A frame holding llmmath-preset rows and/or generated `mul` rows.
 * @param options The model and the template of the generated rows.
 * @returns Columns `item`, `product`, `digits`, `published_rate`,
 *   `llmmath_rate`, `llmmath_runs`, `n`, `accuracy`, `acc_lo`, `acc_hi`,
 *   `diff_rate` (accuracy − published), `published_inside`.
 * @throws {RangeError} When a column is missing.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import pl from "nodejs-polars";
 * import { llmmathCalibration } from "./report.ts";
 *
 * const frame = pl.DataFrame({
 *   model: Array(4).fill("sim-average"),
 *   suite: Array(4).fill("arithmetic"),
 *   question_id: ["arithmetic/llmmath/12x12", "g1", "g2", "g3"],
 *   family: ["mul", "mul", "mul", "mul"],
 *   digits: [2, 2, 2, 2],
 *   preset: ["llmmath", null, null, null],
 *   template: ["llmmath", "llmmath", "llmmath", "llmmath"],
 *   correct: [true, true, true, false],
 * });
 * const [q1, q2] = llmmathCalibration(frame).toRecords();
 * assert.equal(q1!.published_rate, 0.96);
 * assert.equal(q1!.llmmath_rate, 1);
 * assert.equal(q1!.n, 3);
 * assert.ok(Math.abs(Number(q1!.diff_rate) - (2 / 3 - 0.96)) < 1e-12);
 * assert.equal(q1!.published_inside, false); // 2 of 3: the interval ends at 0.94
 * assert.equal(q2!.accuracy, null); // no generated 3×3 products
 * ```
 */
export function llmmathCalibration(
  frame: pl.DataFrame,
  options: LlmmathCalibrationOptions = {},
): pl.DataFrame {
  const { model = "sim-average", template = null } = options;
  requireColumns(frame, ["model", "question_id", "correct"], "the calibration");
  const mine = frame.filter(pl.col("model").eq(pl.lit(model)));
  const items = llmmathTable(mine).toRecords()[0] ?? null;
  const runs = llmmathReport(
    llmmathRows(mine).select("model", "question_id", "correct").toRecords()
      .map((r) => ({
        model: String(r.model),
        questionId: String(r.question_id),
        correct: r.correct === true,
      })),
  );
  const generated = new Map<number, { n: number; correct: number }>();
  if (["family", "digits"].every((c) => frame.columns.includes(c))) {
    let g = generatedArithmetic(mine).filter(
      pl.col("family").eq(pl.lit("mul")).and(pl.col("digits").isNotNull()),
    );
    if (template !== null) {
      g = g.filter(pl.col("template").eq(pl.lit(template)));
    }
    for (const r of summarize(g, ["digits"]).toRecords()) {
      generated.set(Number(r.digits), {
        n: Number(r.n),
        correct: Number(r.correct),
      });
    }
  }
  const rows = LLMMATH_ITEMS.map(([a, b], i) => {
    const digits = Math.max(a.length, b.length);
    const published = LLMMATH_PUBLISHED_AVERAGE[i]!;
    const gen = generated.get(digits);
    const ci = gen ? wilsonInterval(gen.correct, gen.n) : null;
    const accuracy = gen ? gen.correct / gen.n : null;
    return {
      item: i + 1,
      product: `${a}×${b}`,
      digits,
      published_rate: published,
      llmmath_rate: (items?.[`Q${i + 1}`] as number | null | undefined) ?? null,
      llmmath_runs: runs.find((r) => r.item === i + 1)?.runs ?? 0,
      n: gen?.n ?? 0,
      accuracy,
      acc_lo: ci?.lo ?? null,
      acc_hi: ci?.hi ?? null,
      diff_rate: accuracy === null ? null : accuracy - published,
      published_inside: ci ? ci.lo <= published && published <= ci.hi : null,
    };
  });
  return pl.DataFrame(rows, {
    schema: {
      item: pl.Int64,
      product: pl.Utf8,
      digits: pl.Int64,
      published_rate: pl.Float64,
      llmmath_rate: pl.Float64,
      llmmath_runs: pl.Int64,
      n: pl.Int64,
      accuracy: pl.Float64,
      acc_lo: pl.Float64,
      acc_hi: pl.Float64,
      diff_rate: pl.Float64,
      published_inside: pl.Bool,
    },
  });
}

/**
 * The calibration as a chart: the published llmmath averages (grey,
 * dashed), the model's accuracy on generated n×n products with its Wilson
 * band, and its pass rate on the seven llmmath items (open circles).
 *
 * @param calibration A frame from {@linkcode llmmathCalibration}.
 * @param options Title and width.
 * @returns The chart.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import pl from "nodejs-polars";
 * import { llmmathCalibration, llmmathCalibrationChart } from "./report.ts";
 *
 * const frame = pl.DataFrame({ model: ["sim-average"], question_id: ["arithmetic/llmmath/12x12"], correct: [true] });
 * const html = llmmathCalibrationChart(llmmathCalibration(frame)).html;
 * assert.equal(html.match(/<circle/g)?.length, 1 + 7);
 * ```
 */
export function llmmathCalibrationChart(
  calibration: pl.DataFrame,
  options: { title?: string; width?: number } = {},
): Chart {
  const data = calibration.toRecords();
  const x = (d: Row) => Number(d.digits);
  const measured = data.filter((d) => d.accuracy !== null);
  const items = data.filter((d) => d.llmmath_rate !== null);
  const series = (name: string) => () => name;
  return renderPlot(
    options.title ??
      "Calibration: published llmmath averages against the sim (band: Wilson 95%)",
    {
      width: options.width ?? 720,
      height: 340,
      x: {
        label: "digits (n×n product)",
        ticks: data.map(x),
        tickFormat: (d: number) => String(d),
      },
      y: { domain: [0, 1], tickFormat: pct, label: "pass rate", grid: true },
      color: {
        legend: true,
        domain: [
          "published average",
          "sim: generated n×n",
          "sim: llmmath item",
        ],
        range: ["#888", "#4e79a7", "#e15759"],
      },
      marks: [
        Plot.areaY(measured, {
          x,
          y1: "acc_lo",
          y2: "acc_hi",
          fill: "#4e79a7",
          fillOpacity: 0.15,
        }),
        Plot.lineY(data, {
          x,
          y: "published_rate",
          stroke: series("published average"),
          strokeDasharray: "4 3",
        }),
        Plot.dot(data, {
          x,
          y: "published_rate",
          fill: series("published average"),
          r: 3,
        }),
        Plot.lineY(measured, {
          x,
          y: "accuracy",
          stroke: series("sim: generated n×n"),
        }),
        Plot.dot(items, {
          x,
          y: "llmmath_rate",
          stroke: series("sim: llmmath item"),
          r: 5,
        }),
      ],
    },
  );
}

/**
 * Whether a column of the frames in this module reads as a percentage:
 * accuracies, rates, interval ends, shares, gains, `win` and `Q1`…`Q7`.
 * Pass it to {@linkcode table} as `percent`.
 *
 * @param column A column name.
 * @returns True for percentage columns.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { arithmeticPercent } from "./report.ts";
 *
 * assert.equal(arithmeticPercent("bare_accuracy"), true);
 * assert.equal(arithmeticPercent("Q3"), true);
 * assert.equal(arithmeticPercent("bare_n"), false);
 * assert.equal(arithmeticPercent("digits"), false);
 * ```
 */
export function arithmeticPercent(column: string): boolean {
  return /(^|_)(accuracy|rate|lo|hi|share|gain|win)$|^acc_|^Q\d+$/.test(
    column,
  );
}
