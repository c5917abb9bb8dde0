/**
 * The arithmetic suite's own report sections: the same functions its
 * notebook (`notebooks/01-arithmetic.ipynb`) calls, over its rows.
 *
 * @module
 */
import pl from "nodejs-polars";
import type { DataFrame } from "../../../report/mod.ts";
import { escapeHtml } from "../../../report/plot.ts";
import { tableHtml } from "../../../report/table.ts";
import { crossingSectionParts } from "../../../report/crossing_section.ts";
import {
  guardedSection,
  presentSections,
  type ReportSection,
} from "../../../report/suite_view.ts";
import {
  accuracyAgainstTokens,
  accuracyByDigits,
  arithmeticPercent,
  bareVsTool,
  bareVsToolChart,
  carryEffectTable,
  errorClassChart,
  errorClassTable,
  generatedArithmetic,
  leastExpectedTable,
  llmmathTable,
  predictedAccuracyChart,
  templateEffectTable,
} from "./mod.ts";
import { fitErrorModels } from "../error_model.ts";

/** The calculator control's template, left out of the error model. */
const TOOL = "calculator";

function templates(frame: DataFrame): string[] {
  return frame.getColumn("template").unique().toArray().map(String);
}

/**
 * The arithmetic sections: accuracy by digits per family, breaking points,
 * the fitted error model (per-carry effect, predicted accuracy, least
 * expected questions), error classes, accuracy against tokens, bare vs calculator (when the
 * calculator template ran) and the llmmath table (when the preset ran).
 *
 * @param frame This suite's rows (from `loadRuns`).
 * @returns The sections that the rows can support.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import pl from "nodejs-polars";
 * import { arithmeticSections } from "./sections.ts";
 * const frame = pl.DataFrame({
 *   model: ["m", "m"], suite: ["arithmetic", "arithmetic"], template: ["direct", "direct"],
 *   status: ["correct", "wrong"], correct: [true, false], family: ["add", "add"], digits: [2, 4],
 *   error_class: [null, "carry"], completion_tokens: [3, 4], question_id: ["a", "b"], sample: [0, 0],
 * });
 * const titles = arithmeticSections(frame).map((s) => s.title);
 * assert.ok(titles.includes("Accuracy by digits per family (baseline template)"));
 * assert.ok(titles.includes("Error model"));
 * ```
 */
export function arithmeticSections(frame: DataFrame): ReportSection[] {
  const generated = generatedArithmetic(frame);
  const baseline = generated.filter(pl.col("template").eq(pl.lit("direct")));
  const direct = baseline.height > 0 ? baseline : generated;
  const present = templates(frame);
  return presentSections([
    guardedSection(
      "Accuracy by digits per family (baseline template)",
      () =>
        direct.height === 0 ? [] : [
          accuracyByDigits(direct, {
            title:
              "Accuracy by digits per family (bands: Wilson 95% interval; dashed: 50%)",
          }),
        ],
    ),
    guardedSection(
      "Breaking points",
      () =>
        generated.height === 0 ? [] : crossingSectionParts(generated, {
          by: ["model", "template", "family"],
          dimension: "digits",
          facet: "family",
          suite: "arithmetic",
          // The chart shows one template (the baseline when it ran): two
          // templates' dots would share a row.
          charted: (t) => {
            const direct = t.filter(pl.col("template").eq(pl.lit("direct")));
            return direct.height > 0 ? direct : t;
          },
          chartNote: baseline.height > 0 ? " (direct template)" : "",
        }),
    ),
    guardedSection("Error model", () => {
      // Unaided templates only: the calculator's accuracy does not follow
      // the digits, so it would bend the slopes the templates share.
      const unaided = generated.filter(pl.col("template").neq(pl.lit(TOOL)));
      if (unaided.height === 0) return [];
      const models = fitErrorModels(unaided.toRecords());
      const effects = templateEffectTable(models);
      const carries = carryEffectTable(models);
      const none = models.filter((m) => m.carry === null).map((m) => m.model);
      return [
        `<p>One logistic fit per model over its templates (without the ${TOOL} control): templates share every difficulty slope; the carry effect and the chart are under the baseline template (${
          escapeHtml([...new Set(models.map((m) => m.baseline))].join(", "))
        }).</p>`,
        ...(effects.height
          ? [tableHtml(effects, { percent: arithmeticPercent })]
          : []),
        ...(carries.height
          ? [tableHtml(carries, { percent: arithmeticPercent })]
          : []),
        ...(none.length
          ? [
            `<p>No per-carry effect for ${
              escapeHtml(none.join(", "))
            }: their additions and subtractions were all right, all wrong, or had no carries, so only the fit's ridge would bound it.</p>`,
          ]
          : []),
        predictedAccuracyChart(models),
        tableHtml(leastExpectedTable(models), { percent: arithmeticPercent }),
      ];
    }),
    guardedSection(
      "Error classes",
      () =>
        direct.filter(pl.col("status").neq(pl.lit("correct"))).height === 0
          ? []
          : [errorClassChart(direct), tableHtml(errorClassTable(generated))],
    ),
    guardedSection(
      "Accuracy against tokens",
      () => generated.height === 0 ? [] : [accuracyAgainstTokens(generated)],
    ),
    guardedSection(
      "Bare vs calculator",
      () =>
        present.includes("calculator")
          ? [
            bareVsToolChart(frame),
            tableHtml(bareVsTool(frame, { group: "family" }), {
              percent: arithmeticPercent,
              maxRows: 60,
            }),
          ]
          : [],
    ),
    guardedSection("llmmath items", () =>
      frame.columns.includes("preset") &&
        frame.filter(pl.col("preset").eq(pl.lit("llmmath"))).height > 0
        ? [tableHtml(llmmathTable(frame), { percent: arithmeticPercent })]
        : []),
  ]);
}
