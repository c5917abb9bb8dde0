/**
 * The algorithm-code suite's headline metrics: pass@1, the number of
 * samples per problem `k`, pass@k at that k (the unbiased estimate, as
 * `passAtKTable` computes it) and the weighted score (`codeScores`: 40 %
 * correctness, 25 % complexity, 20 % robustness, 15 % performance). The
 * aggregation module loads (with Polars) only when a table shows them, so
 * the suite itself stays light; each group's figures are computed once.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { CODE_METRICS } from "./metrics.ts";
 * assert.deepEqual(CODE_METRICS.map((m) => m.name), ["pass@1", "k", "pass@k", "score"]);
 * ```
 *
 * @module
 */
import type { Metric, MetricRows } from "../../judge/metric.ts";
import { importLazily } from "../../lazy.ts";

type Aggregate = typeof import("./aggregate.ts");

/** The row fields pass@k (a problem's samples) and the weighted score read. */
const FIELDS = [
  "model",
  "source",
  "problem",
  "language",
  "template",
  "sample",
  "correct",
  "functional_pass_rate",
  "complexity",
  "complexity_met",
  "complexity_optimal",
  "edge_pass_rate",
  "large_pass",
  "perf_ratio",
];

/** One group's headline figures. */
interface Figures {
  pass1: number | null;
  k: number | null;
  passK: number | null;
  score: number | null;
}

const figures = new WeakMap<MetricRows, Promise<Figures>>();

const num = (x: unknown) =>
  x === null || x === undefined || !Number.isFinite(Number(x))
    ? null
    : Number(x);

/**
 * pass@1, k, pass@k and the score of a group's rows, computed once: k is
 * the fewest samples any problem of the group has, so every problem
 * counts at k.
 */
function figuresOf(rows: MetricRows): Promise<Figures> {
  let out = figures.get(rows);
  if (out === undefined) {
    out = (async () => {
      const { codeScores, passAtKTable } = await importLazily<Aggregate>(
        "./aggregate.ts",
        import.meta.url,
      );
      const frame = await rows.frame();
      const first = passAtKTable(frame, { ks: [1], by: [] }).toRecords()[0] ??
        {};
      const k = num(first.samples_min);
      const atK = k === null || k <= 1
        ? first
        : passAtKTable(frame, { ks: [k], by: [] }).toRecords()[0] ?? {};
      const scores = codeScores(frame, { by: [] }).toRecords()[0] ?? {};
      return {
        pass1: num(first["pass@1"]),
        k,
        passK: k === null ? null : num(atK[`pass@${k}`]),
        score: num(scores.score),
      };
    })();
    figures.set(rows, out);
  }
  return out;
}

/** A metric that is one of a group's figures. */
function figure(
  key: keyof Figures,
  metric: Pick<Metric, "name" | "label" | "description" | "kind">,
): Metric {
  return {
    ...metric,
    columns: FIELDS,
    value: async (rows) => ({ value: (await figuresOf(rows))[key] }),
  };
}

/** pass@1: per problem, the share of its samples that are correct; the mean over problems. */
export const PASS_AT_1: Metric = figure("pass1", {
  name: "pass@1",
  label: "pass@1",
  description:
    "the mean over problems of the share of their samples that are correct",
});

/** k: the samples per problem (the fewest any problem of the group has). */
export const SAMPLES_K: Metric = figure("k", {
  name: "k",
  label: "k",
  description: "samples per problem, the k of pass@k",
  kind: "number",
});

/** pass@k at the sampled k: the unbiased chance that one of k samples passes. */
export const PASS_AT_K: Metric = figure("passK", {
  name: "pass@k",
  label: "pass@k",
  description:
    "the unbiased estimate that at least one of k samples passes, k the samples per problem",
});

/** The weighted score of correctness, complexity, robustness and performance. */
export const WEIGHTED_SCORE: Metric = figure("score", {
  name: "score",
  label: "score",
  description:
    "the weighted score: 40% correctness, 25% complexity, 20% robustness, 15% performance",
});

/** The code suite's headline metrics, in the order the tables show them. */
export const CODE_METRICS: readonly Metric[] = [
  PASS_AT_1,
  SAMPLES_K,
  PASS_AT_K,
  WEIGHTED_SCORE,
];
