/**
 * Bare vs calculator: the same questions answered with and without the
 * calculator tool, as a table and a chart.
 *
 * @module
 */
import * as Plot from "@observablehq/plot";
import pl from "nodejs-polars";
import type { DataFrame, DataType } from "../../../report/mod.ts";
import { compareBareAndTool } from "./calculator_control.ts";
import { ACCURACY_Y, type Chart, renderPlot } from "../../../report/plot.ts";
import { wilsonInterval } from "../../../report/wilson.ts";
import { requireColumns } from "../../../report/columns.ts";
import type { Row } from "./_columns.ts";

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
 * import { bareVsTool } from "./mod.ts";
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
  frame: DataFrame,
  options: BareVsToolOptions = {},
): DataFrame {
  const { bare = ["direct"], tool = ["calculator"], group = "digits" } =
    options;
  requireColumns(frame, [
    "model",
    "template",
    "correct",
    ...(group ? [group] : []),
  ], { action: "build the bare-vs-tool table", suite: "arithmetic" });
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
  const schema: Record<string, DataType> = {
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
 * import { bareVsToolChart } from "./mod.ts";
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
  frame: DataFrame,
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
