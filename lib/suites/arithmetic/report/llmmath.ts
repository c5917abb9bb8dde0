/**
 * The sanand0/llmmath comparison: the published per-size averages (the
 * same figures the sim is calibrated on), the per-item table and the
 * calibration of a run against them.
 *
 * @module
 */
import * as Plot from "@observablehq/plot";
import pl from "nodejs-polars";
import type { DataFrame, DataType } from "../../../report/mod.ts";
import { llmmathReport } from "../llmmath/stats.ts";
import { LLMMATH_ITEMS } from "../llmmath/questions.ts";
import { LLMMATH_AVERAGE } from "../../../providers/sim/calibration.ts";
import { type Chart, pct, renderPlot } from "../../../report/plot.ts";
import { summarize } from "../../../report/summarize.ts";
import { wilsonInterval } from "../../../report/wilson.ts";
import { requireColumns } from "../../../report/columns.ts";
import type { Row } from "./_columns.ts";
import { generatedArithmetic } from "./frame.ts";

/**
 * The published sanand0/llmmath average pass rates (about 50 models, no
 * tools), in item order: 12×12, 123×456, 1234×5678, 12345×6789,
 * 123456×789012, 1234567×8901234, 987654321×123456789. Read from the
 * figures the sim is calibrated on (`LLMMATH_AVERAGE`), so they are typed
 * once.
 */
export const LLMMATH_PUBLISHED_AVERAGE: readonly number[] = Object.freeze(
  LLMMATH_ITEMS.map(([a, b]) => {
    const digits = Math.max(a.length, b.length);
    const point = LLMMATH_AVERAGE.find(([d]) => d === digits);
    if (point === undefined) {
      throw new RangeError(
        `Cannot find the published llmmath average for ${digits} digits`,
      );
    }
    return point[1];
  }),
);

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
 * import { calibrationSummary } from "./mod.ts";
 *
 * const c = pl.DataFrame({
 *   product: ["12×12", "123×456"], accuracy: [0.9, 0.5], diff_rate: [-0.06, -0.36],
 *   published_inside: [true, false], n: [100, 100],
 * });
 * assert.equal(calibrationSummary(c), "sim-average: 1 of 2 published averages lie inside its 95% interval (n = 100 per size); largest gap 123×456: 36 points below.");
 * ```
 */
export function calibrationSummary(
  calibration: DataFrame,
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

/** The llmmath rows of a frame (preset `llmmath`, or question ids of its items). */
function llmmathRows(frame: DataFrame): DataFrame {
  requireColumns(frame, ["model", "question_id", "correct"], {
    action: "build llmmath tables",
    suite: "arithmetic",
  });
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
 * import { llmmathTable } from "./mod.ts";
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
export function llmmathTable(frame: DataFrame): DataFrame {
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
  const schema: Record<string, DataType> = {
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
 * import { llmmathCalibration } from "./mod.ts";
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
  frame: DataFrame,
  options: LlmmathCalibrationOptions = {},
): DataFrame {
  const { model = "sim-average", template = null } = options;
  requireColumns(frame, ["model", "question_id", "correct"], {
    action: "build the calibration",
    suite: "arithmetic",
  });
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
 * import { llmmathCalibration, llmmathCalibrationChart } from "./mod.ts";
 *
 * const frame = pl.DataFrame({ model: ["sim-average"], question_id: ["arithmetic/llmmath/12x12"], correct: [true] });
 * const html = llmmathCalibrationChart(llmmathCalibration(frame)).html;
 * assert.equal(html.match(/<circle/g)?.length, 1 + 7);
 * ```
 */
export function llmmathCalibrationChart(
  calibration: DataFrame,
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
