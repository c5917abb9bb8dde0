/**
 * The code suite's weighted score: the four components (correctness,
 * complexity, robustness, performance) per group, their weighted score,
 * and how much the model ranking moves under other weightings.
 *
 * @module
 */
import pl from "nodejs-polars";
import type { DataFrame } from "../../report/mod.ts";
import { requireColumns } from "../../report/columns.ts";
import { kendallTauB, ranks } from "../../report/rank.ts";
import { codeOnly, col, functionalExpr, type Row } from "./_rows.ts";

/** Weights of the four score components; they need not sum to 1 (they are normalised). */
export interface CodeWeights {
  /** Functional pass rate. */
  correctness: number;
  /** Complexity-met rate (rows not functionally correct count 0). */
  complexity: number;
  /** Mean of the edge-case pass rate and the large-input pass rate. */
  robustness: number;
  /** Mean perf_ratio (0 when missing). */
  performance: number;
}

/** The suite's published weighting: 40 / 25 / 20 / 15. */
export const DEFAULT_WEIGHTS: Readonly<CodeWeights> = Object.freeze({
  correctness: 0.4,
  complexity: 0.25,
  robustness: 0.2,
  performance: 0.15,
});

/** Named weightings the sensitivity analysis compares (`default` is the reference). */
export const ALTERNATIVE_WEIGHTINGS: Readonly<Record<string, CodeWeights>> =
  Object.freeze({
    default: DEFAULT_WEIGHTS,
    equal: {
      correctness: 0.25,
      complexity: 0.25,
      robustness: 0.25,
      performance: 0.25,
    },
    correctness_heavy: {
      correctness: 0.7,
      complexity: 0.1,
      robustness: 0.1,
      performance: 0.1,
    },
    complexity_heavy: {
      correctness: 0.3,
      complexity: 0.5,
      robustness: 0.1,
      performance: 0.1,
    },
    robustness_heavy: {
      correctness: 0.3,
      complexity: 0.1,
      robustness: 0.5,
      performance: 0.1,
    },
  });

const COMPONENTS = [
  "correctness",
  "complexity",
  "robustness",
  "performance",
] as const;

/** Options of {@linkcode codeScores}. */
export interface CodeScoresOptions {
  /** Grouping columns. @default {["model"]} */
  by?: readonly string[];
  /** Component weights. @default {DEFAULT_WEIGHTS} */
  weights?: CodeWeights;
}

/**
 * The four score components and the weighted score per `by` group.
 *
 * - `functional_pass_rate`: share of rows passing every functional test.
 * - `complexity_met_rate`: share of rows that are functionally correct and
 *   meet the required class (others count 0) — the score's component;
 *   `complexity_met_given_correct` is the same among functionally correct
 *   rows only.
 * - `optimal_rate`: share of rows whose measured class is no worse than required.
 * - `edge_pass_rate` (mean share of edge tests passed), `large_pass_rate`,
 *   `robustness` (their mean), `performance` (mean perf_ratio, 0 when missing).
 *
 * Complexity, edge, large and performance apply to rows whose problem has a
 * required class (`complexity` dim not null; HumanEval rows have none):
 * there a missing metric counts 0. A group without such rows gets null for
 * those components and its score is normalised over the weights present.
 *
 * @param frame Code-suite rows (`correct`, and the verdict metrics as columns).
 * @param options The grouping columns (`by`) and the component weights
 *   (`weights`).
 * @returns One row per group: `rows`, the rates above, `correctness`, `complexity`, `score`.
 * @throws {RangeError} When a grouping column or `correct` is missing, or the weights are negative or all 0.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import pl from "nodejs-polars";
 * import { codeScores } from "./weighted_score.ts";
 * const frame = pl.DataFrame({
 *   model: ["m", "m"], correct: [true, false],
 *   functional_pass_rate: [1, 0.5], complexity_met: [true, null],
 *   complexity_optimal: [true, null], edge_pass_rate: [1, 0],
 *   large_pass: [true, false], perf_ratio: [0.8, null],
 * });
 * const [row] = codeScores(frame).toRecords();
 * assert.equal(row!.functional_pass_rate, 0.5);
 * assert.equal(row!.robustness, 0.5);
 * // 0.4·0.5 + 0.25·0.5 + 0.2·0.5 + 0.15·0.4
 * assert.ok(Math.abs(Number(row!.score) - 0.485) < 1e-12);
 * ```
 */
export function codeScores(
  frame: DataFrame,
  { by = ["model"], weights = DEFAULT_WEIGHTS }: CodeScoresOptions = {},
): DataFrame {
  requireColumns(frame, [...by, "correct"], {
    action: "score code rows",
    suite: "code",
  });
  checkWeights(weights);
  const f = codeOnly(frame);
  const applies = f.columns.includes("complexity")
    ? pl.col("complexity").isNotNull()
    : pl.lit(true);
  const functional = functionalExpr(f);
  const flag = (name: string) =>
    col(f, name, pl.Bool).fillNull(false).cast(pl.Float64);
  const bankOnly = (value: pl.Expr) =>
    pl.when(applies).then(value).otherwise(pl.lit(null).cast(pl.Float64));
  const complexityMet = functional.and(col(f, "complexity_met", pl.Bool))
    .fillNull(false).cast(pl.Float64);
  const grouped = f.groupBy([...by]).agg(
    pl.len().alias("rows"),
    functional.cast(pl.Float64).mean().alias("functional_pass_rate"),
    bankOnly(complexityMet).mean().alias("complexity_met_rate"),
    bankOnly(complexityMet).filter(functional).mean().alias(
      "complexity_met_given_correct",
    ),
    bankOnly(flag("complexity_optimal")).mean().alias("optimal_rate"),
    bankOnly(col(f, "edge_pass_rate", pl.Float64).fillNull(0)).mean()
      .alias("edge_pass_rate"),
    bankOnly(flag("large_pass")).mean().alias("large_pass_rate"),
    bankOnly(col(f, "perf_ratio", pl.Float64).fillNull(0)).mean()
      .alias("performance"),
  );
  const rows = grouped.toRecords().map((r) => {
    const num = (k: string) =>
      r[k] === null || r[k] === undefined ? null : Number(r[k]);
    const edge = num("edge_pass_rate");
    const large = num("large_pass_rate");
    const components: Components = {
      correctness: num("functional_pass_rate"),
      complexity: num("complexity_met_rate"),
      robustness: edge === null || large === null ? null : (edge + large) / 2,
      performance: num("performance"),
    };
    return {
      ...r,
      robustness: components.robustness,
      score: weightedScore(components, weights),
    };
  });
  const order = [
    ...by,
    "rows",
    "functional_pass_rate",
    "complexity_met_rate",
    "complexity_met_given_correct",
    "optimal_rate",
    "edge_pass_rate",
    "large_pass_rate",
    "robustness",
    "performance",
    "score",
  ];
  const schema: Record<string, pl.DataType> = {};
  for (const name of order) {
    schema[name] = by.includes(name)
      ? f.getColumn(name).dtype
      : name === "rows"
      ? pl.Int64
      : pl.Float64;
  }
  const cols: Record<string, unknown[]> = {};
  for (const name of order) {
    cols[name] = rows.map((r) => (r as Row)[name] ?? null);
  }
  const out = pl.DataFrame(cols, { schema });
  return by.length > 0 ? out.sort([...by]) : out;
}

type Components = Record<(typeof COMPONENTS)[number], number | null>;

function checkWeights(weights: CodeWeights): void {
  const values = COMPONENTS.map((c) => weights[c]);
  if (
    values.some((v) => !Number.isFinite(v) || v < 0) ||
    values.every((v) => v === 0)
  ) {
    throw new RangeError(
      `Cannot weight the code score: weights must be finite, non-negative and not all 0, got ${
        JSON.stringify(weights)
      }; pass e.g. DEFAULT_WEIGHTS`,
    );
  }
}

/** The weighted score over the components present (weights renormalised). */
function weightedScore(c: Components, w: CodeWeights): number | null {
  let sum = 0;
  let total = 0;
  for (const name of COMPONENTS) {
    const v = c[name];
    if (v === null) continue;
    sum += w[name] * v;
    total += w[name];
  }
  return total === 0 ? null : sum / total;
}

/** What {@linkcode weightingSensitivity} returns. */
export interface WeightingSensitivity {
  /** One row per (model, weighting): `score`, `rank` (1 = best; ties share the best rank). */
  scores: DataFrame;
  /** One row per model: `score_<w>` and `rank_<w>` per weighting, `mean_score`, `mean_rank`, `max_rank_change` (largest rank difference from the reference weighting). */
  models: DataFrame;
  /** One row per weighting: `kendall_tau` (tau-b against the reference ranking), `models_moved` (models whose rank differs from the reference). */
  weightings: DataFrame;
  /** The reference weighting: `default` when given, else the first. */
  reference: string;
}

/** Options of {@linkcode weightingSensitivity}. */
export interface WeightingSensitivityOptions {
  /** Named weightings. @default {ALTERNATIVE_WEIGHTINGS} */
  weightings?: Readonly<Record<string, CodeWeights>>;
  /** The column ranked. @default {"model"} */
  by?: string;
}

/**
 * The score under several weightings: each model's score and rank under
 * each, the mean score across weightings, and how much the ranking changes
 * (Kendall tau-b of each ranking against the reference one, and each
 * model's largest rank change).
 *
 * @param frame Code-suite rows (see {@linkcode codeScores}).
 * @param options The named `weightings` and the column ranked (`by`).
 * @returns Long scores, a per-model table and a per-weighting table.
 * @throws {RangeError} When there are no weightings or {@linkcode codeScores} throws.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import pl from "nodejs-polars";
 * import { weightingSensitivity } from "./weighted_score.ts";
 * // "a" is right but slow; "b" is wrong half the time but optimal when right.
 * const frame = pl.DataFrame({
 *   model: ["a", "a", "b", "b"], correct: [true, true, true, false],
 *   functional_pass_rate: [1, 1, 1, 0], complexity_met: [false, false, true, null],
 *   edge_pass_rate: [1, 1, 1, 0], large_pass: [false, false, true, false], perf_ratio: [null, null, 1, null],
 * });
 * const s = weightingSensitivity(frame, {
 *   weightings: {
 *     default: { correctness: 1, complexity: 0, robustness: 0, performance: 0 },
 *     speed: { correctness: 0, complexity: 1, robustness: 0, performance: 1 },
 *   },
 * });
 * const tau = s.weightings.toRecords().map((r) => r.kendall_tau);
 * assert.deepEqual(tau, [1, -1]);
 * assert.deepEqual(s.models.getColumn("max_rank_change").toArray(), [1, 1]);
 * ```
 */
export function weightingSensitivity(
  frame: DataFrame,
  { weightings = ALTERNATIVE_WEIGHTINGS, by = "model" }:
    WeightingSensitivityOptions = {},
): WeightingSensitivity {
  const names = Object.keys(weightings);
  if (names.length === 0) {
    throw new RangeError(
      "Cannot compare weightings: none given; pass e.g. ALTERNATIVE_WEIGHTINGS",
    );
  }
  const reference = names.includes("default") ? "default" : names[0]!;
  const base = codeScores(frame, { by: [by], weights: DEFAULT_WEIGHTS })
    .toRecords();
  const models = base.map((r) => String(r[by]));
  const components: Components[] = base.map((r) => {
    const num = (k: string) =>
      r[k] === null || r[k] === undefined ? null : Number(r[k]);
    return {
      correctness: num("functional_pass_rate"),
      complexity: num("complexity_met_rate"),
      robustness: num("robustness"),
      performance: num("performance"),
    };
  });
  const scoreOf = new Map<string, (number | null)[]>();
  const rankOf = new Map<string, number[]>();
  for (const name of names) {
    checkWeights(weightings[name]!);
    const scores = components.map((c) => weightedScore(c, weightings[name]!));
    scoreOf.set(name, scores);
    rankOf.set(name, ranks(scores));
  }
  const refRanks = rankOf.get(reference)!;
  const long: Row[] = [];
  for (const name of names) {
    models.forEach((m, i) =>
      long.push({
        [by]: m,
        weighting: name,
        score: scoreOf.get(name)![i] ?? null,
        rank: rankOf.get(name)![i]!,
      })
    );
  }
  const perModel: Record<string, unknown[]> = { [by]: models };
  for (const name of names) {
    perModel[`score_${name}`] = scoreOf.get(name)!;
  }
  for (const name of names) perModel[`rank_${name}`] = rankOf.get(name)!;
  perModel["mean_score"] = models.map((_, i) => {
    const s = names.map((n) => scoreOf.get(n)![i]).filter((v) =>
      typeof v === "number"
    ) as number[];
    return s.length ? s.reduce((a, b) => a + b, 0) / s.length : null;
  });
  perModel["mean_rank"] = models.map((_, i) =>
    names.reduce((a, n) => a + rankOf.get(n)![i]!, 0) / names.length
  );
  perModel["max_rank_change"] = models.map((_, i) =>
    Math.max(...names.map((n) => Math.abs(rankOf.get(n)![i]! - refRanks[i]!)))
  );
  const weightingRows = names.map((name) => ({
    weighting: name,
    ...weightings[name]!,
    kendall_tau: kendallTauB(refRanks, rankOf.get(name)!),
    models_moved: rankOf.get(name)!.filter((r, i) => r !== refRanks[i]).length,
  }));
  const floatCols = (keys: string[]) =>
    Object.fromEntries(keys.map((k) => [k, pl.Float64]));
  return {
    reference,
    scores: pl.DataFrame(
      {
        [by]: long.map((r) => r[by]),
        weighting: long.map((r) => r["weighting"]),
        score: long.map((r) => r["score"]),
        rank: long.map((r) => r["rank"]),
      },
      {
        schema: {
          [by]: pl.Utf8,
          weighting: pl.Utf8,
          score: pl.Float64,
          rank: pl.Int64,
        },
      },
    ),
    models: pl.DataFrame(perModel, {
      schema: {
        [by]: pl.Utf8,
        ...floatCols(names.map((n) => `score_${n}`)),
        ...Object.fromEntries(names.map((n) => [`rank_${n}`, pl.Int64])),
        mean_score: pl.Float64,
        mean_rank: pl.Float64,
        max_rank_change: pl.Int64,
      },
    }),
    weightings: pl.DataFrame(
      Object.fromEntries(
        [
          "weighting",
          ...COMPONENTS,
          "kendall_tau",
          "models_moved",
        ].map((k) => [k, weightingRows.map((r) => (r as Row)[k] ?? null)]),
      ),
      {
        schema: {
          weighting: pl.Utf8,
          ...floatCols([...COMPONENTS, "kendall_tau"]),
          models_moved: pl.Int64,
        },
      },
    ),
  };
}
