/**
 * The algorithm-code suite's own report sections: the same functions its
 * notebook (`notebooks/04-code.ipynb`) calls, over its rows.
 *
 * @module
 */
import type { DataFrame } from "../../report/mod.ts";
import { accuracyByCategory } from "../../report/standard_charts.ts";
import { tableHtml } from "../../report/table.ts";
import {
  guardedSection,
  presentSections,
  type ReportSection,
} from "../../report/suite_view.ts";
import {
  codeScores,
  complexityMatrix,
  passAtKTable,
  weightingSensitivity,
} from "./aggregate.ts";
import {
  complexityHeatmap,
  languageChart,
  languageComparison,
  passAtKChart,
  robustnessChart,
  scoreBreakdownChart,
  weightingRankChart,
} from "./report.ts";

/** Rates, pass@k, shares, scores and Kendall tau read best as percentages. */
const percent = (c: string) =>
  /(_rate$|^pass@|^share$|^score|^mean_score$|^robustness$|^performance$|^complexity_met_given_correct$|^python$|^javascript$|^gap$|^accuracy|^acc_)/
    .test(c);

/**
 * The code sections: pass@k, accuracy by topic and difficulty, the
 * complexity matrix, Python against JavaScript, robustness, and the
 * weighted score with its weighting sensitivity.
 *
 * @param frame This suite's rows (from `loadRuns`).
 * @returns The sections the rows can support (a section whose columns are
 *   missing says so instead).
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import pl from "nodejs-polars";
 * import { codeSections } from "./sections.ts";
 * const frame = pl.DataFrame({ model: ["m"], suite: ["code"], status: ["correct"], correct: [true] });
 * // Without problem, topic or complexity columns each section says what it lacks.
 * assert.ok(codeSections(frame).every((s) => s.parts.length > 0));
 * ```
 */
export function codeSections(frame: DataFrame): ReportSection[] {
  const has = (c: string) => frame.columns.includes(c);
  return presentSections([
    guardedSection("pass@k (unbiased, per problem)", () => [
      passAtKChart(frame),
      tableHtml(passAtKTable(frame, { ks: passKs(frame) }), { percent }),
    ]),
    guardedSection(
      "Accuracy by topic and difficulty",
      () => [
        ...(has("topic") ? [accuracyByCategory(frame, "topic")] : []),
        ...(has("difficulty") ? [accuracyByCategory(frame, "difficulty")] : []),
      ],
    ),
    guardedSection(
      "Complexity: required × measured",
      () =>
        complexityMatrix(frame).height === 0 ? [] : [
          complexityHeatmap(frame),
          tableHtml(complexityMatrix(frame), { percent }),
        ],
    ),
    guardedSection("Python against JavaScript", () => {
      if (!has("language")) return [];
      const table = languageComparison(frame);
      return table.columns.length < 4
        ? []
        : [languageChart(frame), tableHtml(table, { percent })];
    }),
    guardedSection("Robustness: edge cases and large inputs", () => [
      robustnessChart(frame),
    ]),
    guardedSection("Weighted score and weighting sensitivity", () => {
      const s = weightingSensitivity(frame);
      return [
        scoreBreakdownChart(frame),
        tableHtml(codeScores(frame), { percent }),
        weightingRankChart(frame),
        tableHtml(s.models, { percent }),
        tableHtml(s.weightings, { percent: (c) => c !== "models_moved" }),
      ];
    }),
  ]);
}

/** 1, 2, 5 and n (the largest sample count), those ≤ n. */
function passKs(frame: DataFrame): number[] {
  const n = frame.columns.includes("sample")
    ? Number(frame.getColumn("sample").max() ?? 0) + 1
    : 1;
  return [...new Set([1, 2, 5, n])].filter((k) => k <= Math.max(n, 1))
    .sort((a, b) => a - b);
}
