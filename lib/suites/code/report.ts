/**
 * Charts and tables of the algorithm-code suite over the result frame of
 * `loadRuns`: pass@k curves, the required × measured complexity heatmap,
 * Python against JavaScript per model, robustness (edge and large-input
 * pass rates), the weighted score's breakdown and its ranks under other
 * weightings. The numbers come from `aggregate.ts`.
 *
 * @module
 */
import * as Plot from "@observablehq/plot";
import pl from "nodejs-polars";
import type { DataFrame } from "../../report/mod.ts";
import {
  ACCURACY_Y,
  type Chart,
  pct,
  renderPlot,
  seriesColor,
} from "../../report/plot.ts";
import { summarize } from "../../report/summarize.ts";
import {
  ALTERNATIVE_WEIGHTINGS,
  codeScores,
  type CodeWeights,
  COMPLEXITY_ORDER,
  complexityMatrix,
  DEFAULT_WEIGHTS,
  passAtKCurve,
  weightingSensitivity,
} from "./aggregate.ts";

/** Title and width of a chart. */
export interface CodeChartOptions {
  /** Chart title. @default a description of the chart */
  title?: string;
  /** Width in pixels. @default {720} */
  width?: number;
}

type Row = Record<string, unknown>;
const str = (c: string) => (d: Row) => String(d[c]);

/**
 * pass@k against k (1..n samples), one line per model.
 *
 * @param frame Code-suite rows with `model`, `problem`, `correct`.
 * @param options Title and width.
 * @returns The chart.
 * @throws {RangeError} When a needed column is missing.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import pl from "nodejs-polars";
 * import { passAtKChart } from "./report.ts";
 * const frame = pl.DataFrame({ model: ["a", "a", "b", "b"], problem: ["p", "p", "p", "p"], correct: [true, false, false, false] });
 * assert.equal(passAtKChart(frame).html.match(/<circle/g)?.length, 4);
 * ```
 */
export function passAtKChart(
  frame: DataFrame,
  options: CodeChartOptions = {},
): Chart {
  const data = passAtKCurve(frame).toRecords();
  const ks = [...new Set(data.map((d) => Number(d["k"])))];
  return renderPlot(options.title ?? "pass@k against k (unbiased estimator)", {
    width: options.width ?? 720,
    height: 340,
    x: { label: "k", ticks: ks, tickFormat: "d" },
    y: { ...ACCURACY_Y, label: "pass@k" },
    color: seriesColor("model"),
    marks: [
      Plot.lineY(data, { x: "k", y: "pass_at_k", stroke: str("model") }),
      Plot.dot(data, { x: "k", y: "pass_at_k", fill: str("model"), r: 3 }),
    ],
  });
}

/**
 * Required complexity class (rows) × measured class (columns) over
 * functionally correct rows, each cell coloured by its share of the
 * required class's rows and labelled with its count; cells on or left of
 * the diagonal meet the requirement.
 *
 * @param frame Code-suite rows with `complexity` and `complexity_measured`.
 * @param options Title and width.
 * @returns The chart.
 * @throws {RangeError} When the complexity columns are missing.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import pl from "nodejs-polars";
 * import { complexityHeatmap } from "./report.ts";
 * const frame = pl.DataFrame({ correct: [true, true], complexity: ["O(n)", "O(n)"], complexity_measured: ["O(n)", "O(n^2)"] });
 * assert.equal(complexityHeatmap(frame).html.match(/<rect/g)?.length, 2);
 * ```
 */
export function complexityHeatmap(
  frame: DataFrame,
  options: CodeChartOptions = {},
): Chart {
  const data = complexityMatrix(frame).toRecords();
  const present = (key: string) => {
    const seen = new Set(data.map((d) => String(d[key])));
    const known = COMPLEXITY_ORDER.filter((c) => seen.has(c));
    const other = [...seen].filter((c) =>
      !(COMPLEXITY_ORDER as readonly string[]).includes(c)
    ).sort();
    return [...known, ...other];
  };
  return renderPlot(
    options.title ??
      "Complexity: required class × measured class (functionally correct rows)",
    {
      width: options.width ?? 620,
      marginLeft: 90,
      padding: 0.05,
      x: { label: "measured", type: "band", domain: present("measured") },
      y: { label: "required", type: "band", domain: present("required") },
      // No ramp legend: it draws on a canvas, which linkedom lacks; cells carry labels.
      color: { scheme: "Blues", domain: [0, 1], legend: false },
      marks: [
        Plot.cell(data, { x: "measured", y: "required", fill: "share" }),
        Plot.text(data, {
          x: "measured",
          y: "required",
          text: (d: Row) => `${d["rows"]} (${pct(Number(d["share"]))})`,
          fill: (d: Row) => Number(d["share"]) > 0.5 ? "white" : "black",
        }),
      ],
    },
  );
}

/**
 * Pass rate per model and language, with the gap between the two
 * languages (for the same model, on the same problems).
 *
 * @param frame Code-suite rows with `model`, `language`, `correct`.
 * @returns Columns model, one per language (accuracy), `gap` (first minus second language, alphabetical: javascript − python).
 * @throws {RangeError} When `language` is missing.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import pl from "nodejs-polars";
 * import { languageComparison } from "./report.ts";
 * const frame = pl.DataFrame({ model: ["a", "a", "a"], language: ["python", "python", "javascript"], correct: [true, false, true] });
 * const [row] = languageComparison(frame).toRecords();
 * assert.deepEqual([row!.python, row!.javascript, row!.gap], [0.5, 1, 0.5]);
 * ```
 */
export function languageComparison(frame: DataFrame): DataFrame {
  const data = summarize(frame, ["model", "language"]).toRecords();
  const languages = [...new Set(data.map((d) => String(d["language"])))]
    .sort();
  const models = [...new Set(data.map((d) => String(d["model"])))];
  const cols: Record<string, unknown[]> = { model: models };
  for (const lang of languages) {
    cols[lang] = models.map((m) => {
      const hit = data.find((d) => d["model"] === m && d["language"] === lang);
      return hit ? Number(hit["accuracy"]) : null;
    });
  }
  const [first, second] = languages;
  cols["gap"] = models.map((_, i) => {
    const a = first === undefined ? null : cols[first]![i] as number | null;
    const b = second === undefined ? null : cols[second]![i] as number | null;
    return a === null || b === null ? null : a - b;
  });
  const schema: Record<string, pl.DataType> = { model: pl.Utf8 };
  for (const lang of languages) schema[lang] = pl.Float64;
  schema["gap"] = pl.Float64;
  return pl.DataFrame(cols, { schema });
}

/**
 * Python against JavaScript for each model: one dot per language with its
 * Wilson 95% interval, joined by a line, so the gap is the line's length.
 *
 * @param frame Code-suite rows with `model`, `language`, `correct`.
 * @param options Title and width.
 * @returns The chart.
 * @throws {RangeError} When `language` is missing.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import pl from "nodejs-polars";
 * import { languageChart } from "./report.ts";
 * const frame = pl.DataFrame({ model: ["a", "a"], language: ["python", "javascript"], correct: [true, false] });
 * assert.equal(languageChart(frame).html.match(/<circle/g)?.length, 2);
 * ```
 */
export function languageChart(
  frame: DataFrame,
  options: CodeChartOptions = {},
): Chart {
  const data = summarize(frame, ["model", "language"]).toRecords();
  const languages = [...new Set(data.map((d) => String(d["language"])))]
    .sort();
  return renderPlot(
    options.title ?? "Python against JavaScript, per model (Wilson 95%)",
    {
      width: options.width ?? 720,
      marginLeft: 110,
      x: { ...ACCURACY_Y, label: "pass rate (all samples)" },
      y: { label: null },
      color: seriesColor("language"),
      marks: [
        Plot.ruleY(
          data,
          Plot.groupY({ x1: "min", x2: "max" }, {
            y: str("model"),
            x: "accuracy",
            stroke: "#bbb",
            strokeWidth: 3,
          }),
        ),
        // One interval mark per language, nudged apart so they do not overlap.
        ...languages.map((lang, i) =>
          Plot.ruleY(data.filter((d) => d["language"] === lang), {
            y: str("model"),
            x1: "acc_lo",
            x2: "acc_hi",
            stroke: str("language"),
            strokeOpacity: 0.6,
            dy: (i - (languages.length - 1) / 2) * 6,
          })
        ),
        Plot.dot(data, {
          y: str("model"),
          x: "accuracy",
          fill: str("language"),
          r: 5,
        }),
      ],
    },
  );
}

/**
 * Robustness per model: edge-case pass rate and large-input pass rate
 * (and their mean, the score's robustness component) as grouped bars.
 *
 * @param frame Code-suite rows (see `codeScores`).
 * @param options Title and width.
 * @returns The chart.
 * @throws {RangeError} When `model` or `correct` is missing.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import pl from "nodejs-polars";
 * import { robustnessChart } from "./report.ts";
 * const frame = pl.DataFrame({ model: ["a"], correct: [true], edge_pass_rate: [1], large_pass: [false] });
 * assert.match(robustnessChart(frame).html, /<rect/);
 * ```
 */
export function robustnessChart(
  frame: DataFrame,
  options: CodeChartOptions = {},
): Chart {
  const measures = [
    ["edge_pass_rate", "edge cases"],
    ["large_pass_rate", "large input"],
    ["robustness", "robustness (mean)"],
  ] as const;
  const data = codeScores(frame).toRecords().flatMap((r) =>
    measures.map(([key, measure]) => ({
      model: String(r["model"]),
      measure,
      rate: r[key] === null ? null : Number(r[key]),
    }))
  ).filter((d) => d.rate !== null);
  return renderPlot(
    options.title ?? "Robustness: edge-case and large-input pass rates",
    {
      width: options.width ?? 720,
      height: 320,
      fx: { label: null },
      x: { axis: null, domain: measures.map(([, m]) => m) },
      y: { ...ACCURACY_Y, label: "pass rate" },
      color: {
        legend: true,
        domain: measures.map(([, m]) => m),
        scheme: "tableau10",
      },
      marks: [
        Plot.barY(data, {
          fx: "model",
          x: "measure",
          y: "rate",
          fill: "measure",
        }),
        Plot.ruleY([0]),
      ],
    },
  );
}

/**
 * The weighted score per model as stacked bars of its four weighted
 * components (correctness, complexity, robustness, performance), so the
 * bar's length is the score.
 *
 * @param frame Code-suite rows (see `codeScores`).
 * @param weights Component weights. @default {DEFAULT_WEIGHTS}
 * @param options Title and width.
 * @returns The chart.
 * @throws {RangeError} When `model` or `correct` is missing.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import pl from "nodejs-polars";
 * import { scoreBreakdownChart } from "./report.ts";
 * const frame = pl.DataFrame({ model: ["a"], correct: [true], functional_pass_rate: [1], complexity_met: [true], edge_pass_rate: [1], large_pass: [true], perf_ratio: [1] });
 * const bars = scoreBreakdownChart(frame).html.split('aria-label="bar"')[1]!.split("</g>")[0]!;
 * assert.equal(bars.match(/<rect/g)?.length, 4);
 * ```
 */
export function scoreBreakdownChart(
  frame: DataFrame,
  weights: CodeWeights = DEFAULT_WEIGHTS,
  options: CodeChartOptions = {},
): Chart {
  const total = weights.correctness + weights.complexity +
    weights.robustness + weights.performance;
  const parts = [
    ["correctness", "functional_pass_rate"],
    ["complexity", "complexity_met_rate"],
    ["robustness", "robustness"],
    ["performance", "performance"],
  ] as const;
  const data = codeScores(frame, { by: ["model"], weights }).toRecords()
    .flatMap((r) =>
      parts.flatMap(([component, key]) =>
        r[key] === null ? [] : [{
          model: String(r["model"]),
          component,
          points: weights[component] / total * Number(r[key]),
        }]
      )
    );
  const w = (c: keyof CodeWeights) =>
    `${c} ${Math.round(weights[c] / total * 100)}%`;
  return renderPlot(
    options.title ??
      `Weighted score: ${w("correctness")}, ${w("complexity")}, ${
        w("robustness")
      }, ${w("performance")}`,
    {
      width: options.width ?? 720,
      marginLeft: 110,
      x: { domain: [0, 1], tickFormat: pct, label: "score", grid: true },
      y: { label: null },
      color: {
        legend: true,
        domain: parts.map(([c]) => c),
        scheme: "tableau10",
      },
      marks: [
        Plot.barX(data, {
          x: "points",
          y: "model",
          fill: "component",
          sort: { y: "x", reverse: true },
        }),
        Plot.ruleX([0]),
      ],
    },
  );
}

/**
 * Each model's rank under each weighting (1 = best), one line per model:
 * crossing lines are ranking changes.
 *
 * @param frame Code-suite rows (see `codeScores`).
 * @param weightings Named weightings. @default {ALTERNATIVE_WEIGHTINGS}
 * @param options Title and width.
 * @returns The chart.
 * @throws {RangeError} When `model` or `correct` is missing.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import pl from "nodejs-polars";
 * import { weightingRankChart } from "./report.ts";
 * const frame = pl.DataFrame({ model: ["a", "b"], correct: [true, false] });
 * assert.equal(weightingRankChart(frame).html.match(/<circle/g)?.length, 10);
 * ```
 */
export function weightingRankChart(
  frame: DataFrame,
  weightings: Readonly<Record<string, CodeWeights>> = ALTERNATIVE_WEIGHTINGS,
  options: CodeChartOptions = {},
): Chart {
  const { scores } = weightingSensitivity(frame, { weightings });
  const data = scores.toRecords();
  const maxRank = Math.max(1, ...data.map((d) => Number(d["rank"])));
  const names = Object.keys(weightings);
  return renderPlot(
    options.title ?? "Model rank under each weighting (1 = best)",
    {
      width: options.width ?? 720,
      height: 120 + 40 * maxRank,
      marginRight: 90,
      x: { type: "point", domain: names, label: "weighting", padding: 0.3 },
      y: {
        domain: [maxRank + 0.5, 0.5],
        ticks: Array.from({ length: maxRank }, (_, i) => i + 1),
        tickFormat: "d",
        label: "rank",
      },
      color: seriesColor("model"),
      marks: [
        Plot.line(data, {
          x: "weighting",
          y: "rank",
          stroke: str("model"),
          strokeWidth: 2,
        }),
        Plot.dot(data, {
          x: "weighting",
          y: "rank",
          fill: str("model"),
          r: 5,
          title: (d: Row) => `${d["model"]}: ${pct(Number(d["score"]))}`,
        }),
        Plot.text(
          data.filter((d) => d["weighting"] === names[names.length - 1]),
          {
            x: "weighting",
            y: "rank",
            text: str("model"),
            dx: 10,
            textAnchor: "start",
          },
        ),
      ],
    },
  );
}
