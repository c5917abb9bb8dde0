/**
 * The fitted error model in tables and a chart: per model, what each
 * template does against the baseline at equal difficulty; what one more
 * carry does to its errors; the questions whose outcome the fit least
 * expected; and predicted accuracy by digits, asked or not, under the
 * baseline template.
 *
 * @module
 */
import * as Plot from "@observablehq/plot";
import pl from "nodejs-polars";
import type { DataFrame } from "../../../report/mod.ts";
import {
  ACCURACY_Y,
  type Chart,
  renderPlot,
  seriesColor,
} from "../../../report/plot.ts";
import type { ErrorModel } from "../error_model.ts";
import { str } from "./_columns.ts";

/**
 * One row per model with a carry effect: the baseline template the rates
 * are stated under (`baseline`), rows fitted (all templates), the error
 * odds ratio per extra carry or borrow with its 95% interval
 * (`odds_ratio`, `odds_low`, `odds_high`; shared by the templates), the
 * error rate at the model's mean addition/subtraction question under the
 * baseline (`mean_error_rate`), and the change in that rate for one more
 * carry with its interval (`per_carry_rate`, `per_carry_lo`,
 * `per_carry_hi`).
 *
 * @param models Fits from {@linkcode fitErrorModels}.
 * @returns The table (models without carries are left out).
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { carryEffectTable, fitErrorModels } from "../mod.ts";
 *
 * const rows = Array.from({ length: 200 }, (_, i) => ({
 *   model: "m", template: "direct", question_id: `q${i}`, status: i % 10 < i % 7 ? "wrong" : "correct",
 *   family: "add", digits: 8, carries: i % 7,
 * }));
 * const table = carryEffectTable(fitErrorModels(rows));
 * assert.deepEqual(table.columns.slice(0, 4), ["model", "baseline", "n", "odds_ratio"]);
 * assert.ok(table.getColumn("odds_ratio").get(0) > 1);
 * ```
 */
export function carryEffectTable(models: readonly ErrorModel[]): DataFrame {
  const rows = models.filter((m) => m.carry !== null).map((m) => ({
    model: m.model,
    baseline: m.baseline,
    n: m.n,
    odds_ratio: m.carry!.oddsRatio,
    odds_low: m.carry!.oddsRatioLo,
    odds_high: m.carry!.oddsRatioHi,
    mean_error_rate: m.carry!.errorRateAtMean,
    per_carry_rate: m.carry!.errorRateChange,
    per_carry_lo: m.carry!.errorRateChangeLo,
    per_carry_hi: m.carry!.errorRateChangeHi,
  }));
  return rows.length ? pl.DataFrame(rows) : pl.DataFrame({});
}

/**
 * One row per model and template other than its baseline: what the
 * template adds at equal difficulty (same family, digits and carries), as
 * log odds of a correct answer (`log_odds`, `log_odds_low`, `log_odds_high`)
 * and as the odds ratio against the baseline with its 95% interval
 * (`odds_ratio`, `odds_low`, `odds_high`); `n` is the template's rows.
 * Models that ran one template have no row.
 *
 * @param models Fits from {@linkcode fitErrorModels}.
 * @returns The table.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { fitErrorModels, templateEffectTable } from "../mod.ts";
 *
 * // cot is right one digit further than direct.
 * const rows = Array.from({ length: 400 }, (_, i) => {
 *   const template = i % 2 ? "cot" : "direct", digits = 1 + (i % 10);
 *   const limit = template === "cot" ? 6 : 5;
 *   return {
 *     model: "m", template, question_id: `q${i}`, family: "mul", digits,
 *     status: digits < limit || (digits === limit && i % 3 === 0) ? "correct" : "wrong",
 *   };
 * });
 * const table = templateEffectTable(fitErrorModels(rows));
 * assert.deepEqual(table.getColumn("template").toArray(), ["cot"]);
 * assert.equal(table.getColumn("baseline").get(0), "direct");
 * assert.ok(table.getColumn("odds_low").get(0) > 1);
 * ```
 */
export function templateEffectTable(models: readonly ErrorModel[]): DataFrame {
  const rows = models.flatMap((m) =>
    m.templateEffects.map((t) => ({
      model: m.model,
      template: t.template,
      baseline: m.baseline,
      n: t.n,
      log_odds: t.logOdds,
      log_odds_low: t.logOddsLo,
      log_odds_high: t.logOddsHi,
      odds_ratio: t.oddsRatio,
      odds_low: t.oddsRatioLo,
      odds_high: t.oddsRatioHi,
    }))
  );
  return rows.length ? pl.DataFrame(rows) : pl.DataFrame({});
}

/**
 * The rows the fits least expected, over every model, largest |Pearson
 * residual| first: right answers the fit gave little chance, wrong ones
 * it thought near certain (a wrong key or a bad extraction shows here).
 *
 * @param models Fits from {@linkcode fitErrorModels}.
 * @param limit Rows to keep.
 * @returns The table.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { fitErrorModels, leastExpectedTable } from "../mod.ts";
 *
 * const rows = Array.from({ length: 100 }, (_, i) => ({
 *   model: "m", template: "direct", question_id: `q${i}`,
 *   status: i === 3 ? "wrong" : "correct", family: "add", digits: 2, carries: 0,
 * }));
 * const table = leastExpectedTable(fitErrorModels(rows), 5);
 * assert.equal(table.height, 5);
 * assert.equal(table.getColumn("question_id").get(0), "q3");
 * ```
 */
export function leastExpectedTable(
  models: readonly ErrorModel[],
  limit = 20,
): DataFrame {
  const rows = models.flatMap((m) =>
    m.surprises.map((s) => ({
      model: m.model,
      template: s.template,
      question_id: s.question_id,
      family: s.family,
      digits: s.digits,
      carries: s.carries,
      status: s.status,
      predicted_accuracy: s.predicted,
      residual: s.residual,
    }))
  ).sort((a, b) => Math.abs(b.residual) - Math.abs(a.residual))
    .slice(0, limit);
  return rows.length ? pl.DataFrame(rows) : pl.DataFrame({});
}

/**
 * Predicted accuracy against digits under each model's baseline template
 * (the others differ by their template effect, see
 * {@linkcode templateEffectTable}), one panel per family, one line per
 * model with its 95% interval as a band; sizes that were asked are dots.
 *
 * @param models Fits from {@linkcode fitErrorModels}.
 * @returns The chart.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { fitErrorModels, predictedAccuracyChart } from "../mod.ts";
 *
 * const rows = Array.from({ length: 120 }, (_, i) => ({
 *   model: "m", template: "direct", question_id: `q${i}`,
 *   status: i % 4 < (i % 3) + 1 ? "correct" : "wrong", family: "mul", digits: 2 + (i % 3),
 * }));
 * const chart = predictedAccuracyChart(fitErrorModels(rows, { sizes: [1, 2, 3, 4, 5, 6] }));
 * assert.equal(chart.html.match(/<circle/g)?.length, 3);
 * ```
 */
export function predictedAccuracyChart(models: readonly ErrorModel[]): Chart {
  const data = models.flatMap((m) =>
    m.predictions.filter((p) => p.template === m.baseline).map((p) => ({
      ...p,
      series: models.some((o) => o.baseline !== m.baseline)
        ? `${m.model} (${m.baseline})`
        : m.model,
    }))
  );
  return renderPlot(
    "Predicted accuracy by digits, baseline template (error model; bands: 95% interval; dots: sizes asked)",
    {
      width: 900,
      height: 260,
      marginTop: 24,
      fx: { label: null },
      x: { label: "digits" },
      y: ACCURACY_Y,
      color: seriesColor("series"),
      marks: [
        Plot.frame({ stroke: "#ddd" }),
        Plot.areaY(data, {
          fx: "family",
          x: "digits",
          y1: "lo",
          y2: "hi",
          fill: str("series"),
          fillOpacity: 0.12,
        }),
        Plot.lineY(data, {
          fx: "family",
          x: "digits",
          y: "accuracy",
          stroke: str("series"),
        }),
        Plot.dot(data.filter((d) => d.asked), {
          fx: "family",
          x: "digits",
          y: "accuracy",
          fill: str("series"),
          r: 2.5,
        }),
      ],
    },
  );
}
