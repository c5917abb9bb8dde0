import pl from "nodejs-polars";
import type { DataFrame, Expr } from "./frame.ts";
import { type WilsonOptions, Z95 } from "./wilson.ts";
import { scoredRows } from "./scored.ts";

/** Options for {@linkcode summarize}. */
export interface SummarizeOptions {
  /** Normal quantile for the accuracy interval. @default {Z95} (95%) */
  z?: number;
  /** Sort the output by the grouping columns. @default {true} */
  sort?: boolean;
}

/**
 * Wilson interval bounds as Polars expressions over a successes column and
 * a trials column: the same formula as {@linkcode wilsonInterval}, computed
 * for every group at once.
 *
 * @param k Column of successes.
 * @param n Column of trials.
 * @param options `z`, the normal quantile. @default {Z95}
 * @returns `[lo, hi]` expressions (alias them yourself).
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import pl from "nodejs-polars";
 * import { wilsonExprs, wilsonInterval } from "./mod.ts";
 *
 * const [lo, hi] = wilsonExprs("k", "n");
 * const df = pl.DataFrame({ k: [0, 7], n: [10, 10] })
 *   .select(lo.alias("lo"), hi.alias("hi"));
 * assert.equal(df.getColumn("lo").get(0), 0);
 * assert.ok(Math.abs(df.getColumn("hi").get(1) - wilsonInterval(7, 10).hi) < 1e-12);
 * ```
 */
export function wilsonExprs(
  k: string,
  n: string,
  { z = Z95 }: WilsonOptions = {},
): [Expr, Expr] {
  const z2 = z * z;
  const kf = pl.col(k).cast(pl.Float64);
  const nf = pl.col(n).cast(pl.Float64);
  const p = kf.div(nf);
  const denom = pl.lit(1).add(pl.lit(z2).div(nf));
  const center = p.add(pl.lit(z2).div(nf.mul(2))).div(denom);
  const half = p.mul(pl.lit(1).sub(p)).div(nf)
    .add(pl.lit(z2).div(nf.mul(nf).mul(4)))
    .pow(0.5).mul(z).div(denom);
  const lo = pl.when(pl.col(k).eq(0)).then(pl.lit(0))
    .otherwise(center.sub(half).clip(0, 1));
  const hi = pl.when(pl.col(k).eq(pl.col(n))).then(pl.lit(1))
    .otherwise(center.add(half).clip(0, 1));
  return [lo, hi];
}

/**
 * Per-group statistics of a result frame's scored rows ({@linkcode scoredRows}):
 * `n`, `correct`, `accuracy` with a
 * Wilson interval (`acc_lo`, `acc_hi`), `format_valid_rate`,
 * `parse_error_rate` (`ambiguous_rate`: the share whose answer was
 * ambiguous, part of the parse errors), `error_rate`, `latency_mean`/`_p50`/`_p95` (ms),
 * `tokens_in`/`tokens_out` (totals) and their per-row means, and `cost`
 * (total, null when the run has no prices).
 *
 * @param frame A frame from {@linkcode loadRuns}.
 * @param by Grouping columns (model, suite, family, digits, template...).
 * @param options Interval level and sorting.
 * @returns One row per group.
 * @throws {RangeError} When a grouping column is not in the frame.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import pl from "nodejs-polars";
 * import { summarize } from "./mod.ts";
 *
 * const frame = pl.DataFrame({
 *   model: ["a", "a", "b", "b"],
 *   correct: [true, true, false, true],
 *   status: ["correct", "correct", "parse_error", "correct"],
 *   format_valid: [true, true, false, true],
 *   latency_ms: [10, 20, 30, 40],
 *   prompt_tokens: [5, 5, 5, 5],
 *   completion_tokens: [1, 2, 3, 4],
 * });
 * const s = summarize(frame, ["model"]).toRecords();
 * assert.equal(s[0]?.accuracy, 1);
 * assert.equal(s[0]?.acc_hi, 1);
 * assert.equal(s[1]?.parse_error_rate, 0.5);
 * assert.equal(s[1]?.tokens_out, 7);
 * ```
 */
export function summarize(
  frame: DataFrame,
  by: readonly string[],
  options: SummarizeOptions = {},
): DataFrame {
  const { z = Z95, sort = true } = options;
  for (const col of by) {
    if (!frame.columns.includes(col)) {
      throw new RangeError(
        `Cannot summarize by "${col}": no such column (have ${
          frame.columns.join(", ")
        })`,
      );
    }
  }
  const has = (c: string) => frame.columns.includes(c);
  const status = (s: string) =>
    has("status")
      ? pl.col("status").eq(pl.lit(s)).cast(pl.Float64).mean()
      : pl.lit(null).cast(pl.Float64);
  const num = (c: string) => has(c) ? pl.col(c) : pl.lit(null).cast(pl.Float64);
  const aggs = [
    pl.len().alias("n"),
    pl.col("correct").cast(pl.Int64).sum().alias("correct"),
    has("format_valid")
      ? pl.col("format_valid").cast(pl.Float64).mean().alias(
        "format_valid_rate",
      )
      : pl.lit(null).cast(pl.Float64).alias("format_valid_rate"),
    status("parse_error").alias("parse_error_rate"),
    // Of them, replies whose answer was ambiguous (a hedge, final answers
    // that disagree): counted apart, not guessed (docs/extraction.md).
    has("extract_rule")
      ? pl.col("extract_rule").eq(pl.lit("ambiguous")).fillNull(false)
        .cast(pl.Float64).mean().alias("ambiguous_rate")
      : pl.lit(null).cast(pl.Float64).alias("ambiguous_rate"),
    status("error").alias("error_rate"),
    num("latency_ms").mean().alias("latency_mean"),
    num("latency_ms").quantile(0.5).alias("latency_p50"),
    num("latency_ms").quantile(0.95).alias("latency_p95"),
    num("prompt_tokens").sum().alias("tokens_in"),
    num("completion_tokens").sum().alias("tokens_out"),
    num("prompt_tokens").mean().alias("tokens_in_mean"),
    num("completion_tokens").mean().alias("tokens_out_mean"),
    has("cost")
      ? pl.when(pl.col("cost").isNull().all()).then(pl.lit(null))
        .otherwise(pl.col("cost").sum()).cast(pl.Float64).alias("cost")
      : pl.lit(null).cast(pl.Float64).alias("cost"),
  ];
  const [lo, hi] = wilsonExprs("correct", "n", { z });
  // Rows without an answer key (C-Eval's withheld test split) say nothing
  // about accuracy: the one rule (`isScored`) leaves them out.
  const scored = scoredRows(frame);
  let out = scored.groupBy([...by]).agg(...aggs).withColumns(
    pl.col("correct").cast(pl.Float64).div(pl.col("n")).alias("accuracy"),
    lo.alias("acc_lo"),
    hi.alias("acc_hi"),
  ).select(
    ...by,
    "n",
    "correct",
    "accuracy",
    "acc_lo",
    "acc_hi",
    "format_valid_rate",
    "parse_error_rate",
    "ambiguous_rate",
    "error_rate",
    "latency_mean",
    "latency_p50",
    "latency_p95",
    "tokens_in",
    "tokens_out",
    "tokens_in_mean",
    "tokens_out_mean",
    "cost",
  );
  if (sort && by.length > 0) out = out.sort([...by]);
  return out;
}
