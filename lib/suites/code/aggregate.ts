/**
 * Aggregation of the algorithm-code suite's rows (a frame from `loadRuns`):
 * unbiased pass@k per problem and its mean, the first-attempt pass rate,
 * the four score components (correctness, complexity, robustness,
 * performance) and their weighted score, the score under other weightings
 * with how much the model ranking moves, and the required × measured
 * complexity matrix. Pure functions over a frame.
 *
 * @module
 */
import pl from "nodejs-polars";
import type { DataFrame } from "../../report/mod.ts";
import { passAtK } from "../../judge/aggregate.ts";
import type { ComplexityClass } from "../../sandbox/mod.ts";
import { COMPLEXITY_CLASSES } from "./bank/mod.ts";

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

/**
 * Complexity classes from the simplest to the worst: the bank's classes,
 * then "unknown" (a measurement the sandbox could not decide).
 */
export const COMPLEXITY_ORDER: readonly ComplexityClass[] = [
  ...COMPLEXITY_CLASSES,
  "unknown",
];

type Row = Record<string, unknown>;

function requireColumns(
  frame: DataFrame,
  action: string,
  columns: readonly string[],
): void {
  const missing = columns.filter((c) => !frame.columns.includes(c));
  if (missing.length > 0) {
    throw new RangeError(
      `Cannot ${action}: the frame lacks ${
        missing.join(", ")
      }; load a run of the code suite with loadRuns`,
    );
  }
}

/** The code suite's rows only (when the frame carries a `suite` column). */
function codeOnly(frame: DataFrame): DataFrame {
  return frame.columns.includes("suite")
    ? frame.filter(pl.col("suite").eq(pl.lit("code")))
    : frame;
}

/** A column, or a typed null when the frame lacks it (synthetic frames). */
function col(frame: DataFrame, name: string, dtype: pl.DataType): pl.Expr {
  return frame.columns.includes(name)
    ? pl.col(name).cast(dtype)
    : pl.lit(null).cast(dtype);
}

/** Whether each row passed every functional test (falls back to `correct`). */
function functionalExpr(frame: DataFrame): pl.Expr {
  return frame.columns.includes("functional_pass_rate")
    ? pl.col("functional_pass_rate").cast(pl.Float64).eq(pl.lit(1))
      .fillNull(false)
    : pl.col("correct").cast(pl.Bool).fillNull(false);
}

/** The columns that identify one problem's samples, beside `by`. */
function unitColumns(frame: DataFrame, by: readonly string[]): string[] {
  const extra = ["source", "problem", "language", "template"].filter((c) =>
    frame.columns.includes(c)
  );
  return [...new Set([...by, ...extra])];
}

/**
 * Unbiased pass@k per problem (n samples, c correct; null when n < k), its
 * mean per `by` group, and the first-attempt pass rate (sample 0). A
 * problem is one (`by`…, source, problem, language, template) — whichever
 * of those columns the frame has.
 *
 * @param frame Code-suite rows with `model`, `problem`, `correct` (and `sample` for the first attempt).
 * @param ks The k values. @default {[1, 2, 5]}
 * @param by Grouping columns. @default {["model"]}
 * @returns Columns `by`…, `problems`, `samples_min`, `pass@<k>` per k, `first_attempt_rate`.
 * @throws {RangeError} When a needed column is missing or a k is not a positive integer.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import pl from "nodejs-polars";
 * import { passAtKTable } from "./aggregate.ts";
 * const frame = pl.DataFrame({
 *   model: ["m", "m", "m", "m", "m"], problem: ["p", "p", "p", "p", "p"],
 *   sample: [0, 1, 2, 3, 4], correct: [false, true, false, true, false],
 * });
 * const [row] = passAtKTable(frame).toRecords();
 * assert.ok(Math.abs(Number(row!["pass@1"]) - 0.4) < 1e-12);
 * assert.ok(Math.abs(Number(row!["pass@2"]) - 0.7) < 1e-12);
 * assert.equal(row!["pass@5"], 1);
 * assert.equal(row!.first_attempt_rate, 0);
 * ```
 */
export function passAtKTable(
  frame: DataFrame,
  ks: readonly number[] = [1, 2, 5],
  by: readonly string[] = ["model"],
): DataFrame {
  for (const k of ks) {
    if (!Number.isInteger(k) || k < 1) {
      throw new RangeError(
        `Cannot compute pass@k: k must be a positive integer, got ${k}; pass ks like [1, 2, 5]`,
      );
    }
  }
  const units = perProblem(frame, by);
  const rows = units.map((u) => {
    const out: Row = {};
    for (const c of by) out[c] = u[c];
    for (const k of ks) {
      out[`pass@${k}`] = k <= u.n ? passAtK(u.n, u.c, k) : null;
    }
    out["first"] = u.first;
    out["n"] = u.n;
    return out;
  });
  const schema: Record<string, pl.DataType> = {
    n: pl.Int64,
    first: pl.Float64,
  };
  for (const k of ks) schema[`pass@${k}`] = pl.Float64;
  for (const c of by) schema[c] = frame.getColumn(c).dtype;
  const cols: Record<string, unknown[]> = {};
  for (const name of Object.keys(schema)) {
    cols[name] = rows.map((r) => r[name] ?? null);
  }
  const perUnit = pl.DataFrame(cols, { schema });
  const grouped = perUnit.groupBy([...by]).agg(
    pl.len().alias("problems"),
    pl.col("n").min().alias("samples_min"),
    ...ks.map((k) => pl.col(`pass@${k}`).mean().alias(`pass@${k}`)),
    pl.col("first").mean().alias("first_attempt_rate"),
  );
  return by.length > 0 ? grouped.sort([...by]) : grouped;
}

/** Samples and correct samples per problem. */
function perProblem(
  frame: DataFrame,
  by: readonly string[],
): (Row & { n: number; c: number; first: number | null })[] {
  requireColumns(frame, "compute pass@k", [...by, "problem", "correct"]);
  const f = codeOnly(frame);
  const units = unitColumns(f, by);
  const correct = pl.col("correct").cast(pl.Bool).fillNull(false)
    .cast(pl.Int64);
  const first = f.columns.includes("sample")
    ? correct.filter(pl.col("sample").eq(pl.lit(0))).cast(pl.Float64).mean()
    : pl.lit(null).cast(pl.Float64);
  return f.groupBy(units).agg(
    pl.len().alias("__n"),
    correct.sum().alias("__c"),
    first.alias("__first"),
  ).toRecords().map((r) => ({
    ...r,
    n: Number(r["__n"]),
    c: Number(r["__c"]),
    first: r["__first"] === null || r["__first"] === undefined
      ? null
      : Number(r["__first"]),
  }));
}

/**
 * pass@k for k = 1..n (the largest sample count), per `by` group, in long
 * form for a curve: only problems with at least k samples count at k.
 *
 * @param frame Code-suite rows with `model`, `problem`, `correct`.
 * @param by Grouping columns. @default {["model"]}
 * @returns Columns `by`…, `k`, `pass_at_k`, `problems`.
 * @throws {RangeError} When a needed column is missing.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import pl from "nodejs-polars";
 * import { passAtKCurve } from "./aggregate.ts";
 * const frame = pl.DataFrame({ model: ["m", "m"], problem: ["p", "p"], correct: [true, false] });
 * const curve = passAtKCurve(frame).toRecords();
 * assert.deepEqual(curve.map((r) => [r.k, r.pass_at_k]), [[1, 0.5], [2, 1]]);
 * ```
 */
export function passAtKCurve(
  frame: DataFrame,
  by: readonly string[] = ["model"],
): DataFrame {
  const units = perProblem(frame, by);
  const maxN = Math.max(0, ...units.map((u) => u.n));
  const groups = new Map<string, { key: Row; units: typeof units }>();
  for (const u of units) {
    const key: Row = {};
    for (const c of by) key[c] = u[c];
    const id = JSON.stringify(by.map((c) => u[c]));
    const g = groups.get(id) ?? { key, units: [] };
    g.units.push(u);
    groups.set(id, g);
  }
  const rows: Row[] = [];
  for (const { key, units: us } of groups.values()) {
    for (let k = 1; k <= maxN; k++) {
      const ok = us.filter((u) => u.n >= k);
      if (ok.length === 0) continue;
      const mean = ok.reduce((s, u) => s + passAtK(u.n, u.c, k), 0) /
        ok.length;
      rows.push({ ...key, k, pass_at_k: mean, problems: ok.length });
    }
  }
  // Polars names columns by the schema's key order: keep it the data's order.
  const schema: Record<string, pl.DataType> = {};
  for (const c of by) schema[c] = frame.getColumn(c).dtype;
  schema["k"] = pl.Int64;
  schema["pass_at_k"] = pl.Float64;
  schema["problems"] = pl.Int64;
  const names = Object.keys(schema);
  const cols: Record<string, unknown[]> = {};
  for (const name of names) cols[name] = rows.map((r) => r[name] ?? null);
  const out = pl.DataFrame(cols, { schema });
  return out.sort([...by, "k"]);
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
 * @param by Grouping columns. @default {["model"]}
 * @param weights Component weights. @default {DEFAULT_WEIGHTS}
 * @returns One row per group: `rows`, the rates above, `correctness`, `complexity`, `score`.
 * @throws {RangeError} When a grouping column or `correct` is missing, or the weights are negative or all 0.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import pl from "nodejs-polars";
 * import { codeScores } from "./aggregate.ts";
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
  by: readonly string[] = ["model"],
  weights: CodeWeights = DEFAULT_WEIGHTS,
): DataFrame {
  requireColumns(frame, "score code rows", [...by, "correct"]);
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

/**
 * The score under several weightings: each model's score and rank under
 * each, the mean score across weightings, and how much the ranking changes
 * (Kendall tau-b of each ranking against the reference one, and each
 * model's largest rank change).
 *
 * @param frame Code-suite rows (see {@linkcode codeScores}).
 * @param weightings Named weightings. @default {ALTERNATIVE_WEIGHTINGS}
 * @param by The column ranked. @default {"model"}
 * @returns Long scores, a per-model table and a per-weighting table.
 * @throws {RangeError} When there are no weightings or {@linkcode codeScores} throws.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import pl from "nodejs-polars";
 * import { weightingSensitivity } from "./aggregate.ts";
 * // "a" is right but slow; "b" is wrong half the time but optimal when right.
 * const frame = pl.DataFrame({
 *   model: ["a", "a", "b", "b"], correct: [true, true, true, false],
 *   functional_pass_rate: [1, 1, 1, 0], complexity_met: [false, false, true, null],
 *   edge_pass_rate: [1, 1, 1, 0], large_pass: [false, false, true, false], perf_ratio: [null, null, 1, null],
 * });
 * const s = weightingSensitivity(frame, {
 *   default: { correctness: 1, complexity: 0, robustness: 0, performance: 0 },
 *   speed: { correctness: 0, complexity: 1, robustness: 0, performance: 1 },
 * });
 * const tau = s.weightings.toRecords().map((r) => r.kendall_tau);
 * assert.deepEqual(tau, [1, -1]);
 * assert.deepEqual(s.models.getColumn("max_rank_change").toArray(), [1, 1]);
 * ```
 */
export function weightingSensitivity(
  frame: DataFrame,
  weightings: Readonly<Record<string, CodeWeights>> = ALTERNATIVE_WEIGHTINGS,
  by = "model",
): WeightingSensitivity {
  const names = Object.keys(weightings);
  if (names.length === 0) {
    throw new RangeError(
      "Cannot compare weightings: none given; pass e.g. ALTERNATIVE_WEIGHTINGS",
    );
  }
  const reference = names.includes("default") ? "default" : names[0]!;
  const base = codeScores(frame, [by], DEFAULT_WEIGHTS).toRecords();
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

/**
 * Competition ranks, 1 = highest score; ties share the best rank; null
 * scores rank last.
 *
 * @param scores Scores in model order.
 * @returns Ranks in the same order.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { ranks } from "./aggregate.ts";
 * assert.deepEqual(ranks([0.5, 0.9, 0.5, null]), [2, 1, 2, 4]);
 * ```
 */
export function ranks(scores: readonly (number | null)[]): number[] {
  const v = scores.map((s) => s ?? -Infinity);
  return v.map((s) => 1 + v.filter((o) => o > s).length);
}

/**
 * Kendall's tau-b between two rankings (ties handled); 1 = same order,
 * −1 = reversed. Written here because it is a dozen lines over a handful
 * of models; no statistics dependency is pulled in for it.
 *
 * @param a First ranking (or scores).
 * @param b Second ranking, same length.
 * @returns Tau-b in [−1, 1]; 1 when fewer than two items or either side is all tied.
 * @throws {RangeError} When the lengths differ.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { kendallTauB } from "./aggregate.ts";
 * assert.equal(kendallTauB([1, 2, 3], [1, 2, 3]), 1);
 * assert.equal(kendallTauB([1, 2, 3], [3, 2, 1]), -1);
 * assert.ok(Math.abs(kendallTauB([1, 2, 3], [1, 3, 2]) - 1 / 3) < 1e-12);
 * ```
 */
export function kendallTauB(
  a: readonly number[],
  b: readonly number[],
): number {
  if (a.length !== b.length) {
    throw new RangeError(
      `Cannot compute Kendall tau: rankings differ in length (${a.length} vs ${b.length}); rank the same items`,
    );
  }
  let concordant = 0;
  let discordant = 0;
  let tiesA = 0;
  let tiesB = 0;
  for (let i = 0; i < a.length; i++) {
    for (let j = i + 1; j < a.length; j++) {
      const da = Math.sign(a[i]! - a[j]!);
      const db = Math.sign(b[i]! - b[j]!);
      if (da === 0 && db === 0) continue;
      if (da === 0) tiesA++;
      else if (db === 0) tiesB++;
      else if (da === db) concordant++;
      else discordant++;
    }
  }
  const denom = Math.sqrt(
    (concordant + discordant + tiesA) * (concordant + discordant + tiesB),
  );
  return denom === 0 ? 1 : (concordant - discordant) / denom;
}

/**
 * Required complexity class × measured class over functionally correct
 * rows with a required class, with each cell's share of its required
 * class's rows. Classes sort from simplest to worst.
 *
 * @param frame Code-suite rows with `complexity` (required) and `complexity_measured`.
 * @returns Columns `required`, `measured`, `rows`, `share`, `met` (measured no worse than required).
 * @throws {RangeError} When `complexity` or `complexity_measured` is missing.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import pl from "nodejs-polars";
 * import { complexityMatrix } from "./aggregate.ts";
 * const frame = pl.DataFrame({
 *   correct: [true, true, true, false],
 *   complexity: ["O(n)", "O(n)", "O(n)", "O(n)"],
 *   complexity_measured: ["O(n)", "O(n^2)", "O(n)", null],
 * });
 * const rows = complexityMatrix(frame).toRecords();
 * assert.deepEqual(rows.map((r) => [r.measured, r.rows, r.met]), [["O(n)", 2, true], ["O(n^2)", 1, false]]);
 * ```
 */
export function complexityMatrix(frame: DataFrame): DataFrame {
  requireColumns(frame, "build the complexity matrix", [
    "complexity",
    "complexity_measured",
  ]);
  const f = codeOnly(frame);
  const counts = f.filter(
    functionalExpr(f).and(pl.col("complexity").isNotNull())
      .and(pl.col("complexity_measured").isNotNull()),
  ).groupBy(["complexity", "complexity_measured"]).agg(pl.len().alias("rows"))
    .toRecords();
  const totals = new Map<string, number>();
  for (const r of counts) {
    const k = String(r["complexity"]);
    totals.set(k, (totals.get(k) ?? 0) + Number(r["rows"]));
  }
  const order = (c: string) => {
    const i = (COMPLEXITY_ORDER as readonly string[]).indexOf(c);
    return i < 0 ? COMPLEXITY_ORDER.length : i;
  };
  const rows = counts.map((r) => {
    const required = String(r["complexity"]);
    const measured = String(r["complexity_measured"]);
    return {
      required,
      measured,
      rows: Number(r["rows"]),
      share: Number(r["rows"]) / totals.get(required)!,
      met: measured !== "unknown" && order(measured) <= order(required),
    };
  }).sort((x, y) =>
    order(x.required) - order(y.required) ||
    order(x.measured) - order(y.measured) ||
    x.measured.localeCompare(y.measured)
  );
  return pl.DataFrame(
    {
      required: rows.map((r) => r.required),
      measured: rows.map((r) => r.measured),
      rows: rows.map((r) => r.rows),
      share: rows.map((r) => r.share),
      met: rows.map((r) => r.met),
    },
    {
      schema: {
        required: pl.Utf8,
        measured: pl.Utf8,
        rows: pl.Int64,
        share: pl.Float64,
        met: pl.Bool,
      },
    },
  );
}
