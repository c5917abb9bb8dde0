/**
 * C-Eval reports over the result frame of {@linkcode loadRuns}: accuracy
 * per subject, category and level, the C-Eval average (unweighted over
 * subjects, as the benchmark reports it) beside the average over
 * questions, C-Eval HARD, extraction failures per subject, the
 * test-split submission file, and two charts (categories; HARD against
 * all).
 *
 * The tables (per subject, per fact, the headline summary) are in
 * `tables.ts` and re-exported here. Rows without a known key (the
 * withheld test split) are left out of every accuracy by the one rule
 * (`isScored`); they only feed the submission.
 *
 * @module
 */
import * as Plot from "@observablehq/plot";
import pl from "nodejs-polars";
import type { DataFrame } from "../../report/mod.ts";
import { requireColumns } from "../../report/columns.ts";
import {
  ACCURACY_Y,
  type Chart,
  pct,
  renderPlot,
  seriesColor,
} from "../../report/plot.ts";
import { cevalByFact, cevalSummary } from "./tables.ts";

export {
  cevalByFact,
  cevalBySubject,
  type CevalReportOptions,
  cevalScored,
  cevalSummary,
} from "./tables.ts";

/** The column check's advice: these rows come from a ceval run. */
const CEVAL = { suite: "ceval" } as const;

/** A C-Eval test-split submission: subject → question id → letter. */
export type CevalSubmission = Record<string, Record<string, string>>;

/** Options for {@linkcode cevalSubmission}. */
export interface CevalSubmissionOptions {
  /** Only rows of this model (required when the frame holds several). */
  model?: string;
  /** Only rows of this template (required when the frame holds several). */
  template?: string;
}

/**
 * Builds the official submission file `{ "<subject>": { "<id>": "<letter>" } }`
 * from the extracted letters of test-split rows (sample 0 when there are
 * several samples). Questions without an extracted letter are left out.
 *
 * @param frame A result frame with `question_id`, `extracted` and the ceval dims.
 * @param options The model and template to take.
 * @returns The submission object (JSON.stringify it to a file).
 * @throws {RangeError} when the rows mix several models or templates.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import pl from "nodejs-polars";
 * import { cevalSubmission } from "./report.ts";
 * const f = pl.DataFrame({
 *   model: ["m", "m"], template: ["few_shot", "few_shot"], sample: [0, 0], split: ["test", "test"],
 *   subject: ["law", "law"], question_id: ["ceval/law/test/0", "ceval/law/test/1"], extracted: ["C", null],
 * });
 * assert.deepEqual(cevalSubmission(f), { law: { "0": "C" } });
 * ```
 */
export function cevalSubmission(
  frame: DataFrame,
  options: CevalSubmissionOptions = {},
): CevalSubmission {
  requireColumns(frame, ["question_id", "extracted", "subject", "split"], {
    action: "build C-Eval report",
    ...CEVAL,
  });
  let f = frame.filter(pl.col("split").eq(pl.lit("test")));
  if (f.columns.includes("suite")) {
    f = f.filter(pl.col("suite").eq(pl.lit("ceval")));
  }
  if (options.model !== undefined) {
    f = f.filter(pl.col("model").eq(pl.lit(options.model)));
  }
  if (options.template !== undefined) {
    f = f.filter(pl.col("template").eq(pl.lit(options.template)));
  }
  if (f.columns.includes("sample")) f = f.filter(pl.col("sample").eq(0));
  for (const col of ["model", "template"]) {
    if (!f.columns.includes(col)) continue;
    const values = f.getColumn(col).unique().toArray();
    if (values.length > 1) {
      throw new RangeError(
        `Cannot build C-Eval submission: rows of several ${col}s (${
          values.join(", ")
        }); pass { ${col}: "..." }`,
      );
    }
  }
  const out: CevalSubmission = {};
  for (
    const row of f.select("subject", "question_id", "extracted").toRecords()
  ) {
    const letter = row.extracted;
    if (typeof letter !== "string" || letter === "") continue;
    const subject = String(row.subject);
    const id = String(row.question_id).split("/").pop() ?? "";
    (out[subject] ??= {})[id] = letter;
  }
  return out;
}

/** Options of the C-Eval charts. */
export interface CevalChartOptions {
  /** Column that tells bars apart (colour). @default {"model"} */
  series?: string;
  /** Chart title. @default a description of the chart */
  title?: string;
  /** Width in pixels. @default {720} */
  width?: number;
}

type Row = Record<string, unknown>;

function groupedBars(
  title: string,
  data: Row[],
  facet: string,
  series: string,
  y: string,
  width: number,
): Chart {
  const key = (c: string) => (d: Row) => String(d[c]);
  return renderPlot(title, {
    width,
    height: 320,
    marginBottom: 40,
    fx: { label: facet, padding: 0.15 },
    x: { axis: null, padding: 0.1 },
    y: ACCURACY_Y,
    color: seriesColor(series),
    marks: [
      Plot.barY(data, { fx: key(facet), x: key(series), y, fill: key(series) }),
      Plot.text(data, {
        fx: key(facet),
        x: key(series),
        y,
        text: (d: Row) => pct(Number(d[y])),
        dy: -6,
        fontSize: 9,
      }),
      Plot.ruleY([0.25], { stroke: "gray", strokeDasharray: "4 3" }),
    ],
  });
}

/**
 * Bars of accuracy per C-Eval category (the mean of subject accuracies,
 * as C-Eval reports it), one bar per series; a dashed line marks chance
 * (25%).
 *
 * @param frame A result frame with the ceval dims.
 * @param options Series column, title, width.
 * @returns The chart.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import pl from "nodejs-polars";
 * import { cevalCategoryChart } from "./report.ts";
 * const f = pl.DataFrame({
 *   model: ["a", "b"], expected: ["A", "A"], correct: [true, false], status: ["correct", "wrong"],
 *   subject: ["logic", "logic"], subject_zh: ["逻辑学", "逻辑学"], category: ["Humanities", "Humanities"],
 *   level: ["college", "college"], hard: [false, false],
 * });
 * const html = cevalCategoryChart(f).html;
 * assert.match(html, /aria-label="bar"/);
 * assert.match(html, />100%</);
 * assert.match(html, />0%</);
 * ```
 */
export function cevalCategoryChart(
  frame: DataFrame,
  options: CevalChartOptions = {},
): Chart {
  const { series = "model", width = 720 } = options;
  const data = cevalByFact(frame, "category", { by: [series] }).toRecords();
  return groupedBars(
    options.title ?? "C-Eval accuracy by category (mean over subjects)",
    data,
    "category",
    series,
    "accuracy",
    width,
  );
}

/**
 * Bars of the C-Eval average over all subjects beside the C-Eval HARD
 * average, per series.
 *
 * @param frame A result frame with the ceval dims.
 * @param options Series column, title, width.
 * @returns The chart.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import pl from "nodejs-polars";
 * import { cevalHardChart } from "./report.ts";
 * const f = pl.DataFrame({
 *   model: ["a", "a"], expected: ["A", "A"], correct: [true, false], status: ["correct", "wrong"],
 *   subject: ["logic", "college_physics"], subject_zh: ["逻辑学", "大学物理"], category: ["Humanities", "STEM"],
 *   level: ["college", "college"], hard: [false, true],
 * });
 * assert.match(cevalHardChart(f).html, /HARD/);
 * ```
 */
export function cevalHardChart(
  frame: DataFrame,
  options: CevalChartOptions = {},
): Chart {
  const { series = "model", width = 720 } = options;
  const data: Row[] = [];
  for (const r of cevalSummary(frame, { by: [series] }).toRecords()) {
    data.push({
      [series]: r[series],
      subset: "all subjects",
      accuracy: r.average,
    });
    if (r.hard_average !== null) {
      data.push({
        [series]: r[series],
        subset: "C-Eval HARD",
        accuracy: r.hard_average,
      });
    }
  }
  return groupedBars(
    options.title ?? "C-Eval average against C-Eval HARD",
    data,
    series,
    "subset",
    "accuracy",
    width,
  );
}
