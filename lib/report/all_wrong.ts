import pl from "nodejs-polars";
import type { DataFrame } from "./frame.ts";
import { scoredRows } from "./scored.ts";

/**
 * Questions that no model got right, with the answers the models gave: the
 * first place to look for a wrong answer key (when every model agrees on
 * one "wrong" answer, the key is the suspect). Only scored rows count
 * (`scoredRows`): a question without a key is never listed.
 *
 * @param frame A frame from {@linkcode loadRuns}.
 * @returns One row per question: `suite`, `question_id`, `question`,
 * `expected`, `models` (how many answered), `answers` (distinct extracted
 * answers, as text), `agreed` (whether all extracted answers were the same
 * non-null value); questions where all agree on one answer come first.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import pl from "nodejs-polars";
 * import { allWrong } from "./mod.ts";
 *
 * const frame = pl.DataFrame({
 *   suite: ["s", "s", "s", "s"],
 *   question_id: ["q1", "q1", "q2", "q2"],
 *   question: ["2+2", "2+2", "3+3", "3+3"],
 *   expected: ["5", "5", "6", "6"],
 *   model: ["a", "b", "a", "b"],
 *   correct: [false, false, true, false],
 *   extracted: ["4", "4", "6", "7"],
 * });
 * const rows = allWrong(frame).toRecords();
 * assert.equal(rows.length, 1);
 * assert.equal(rows[0]?.question_id, "q1");
 * assert.equal(rows[0]?.agreed, true);
 * const keyless = frame.withColumns(pl.lit("").alias("expected"), pl.lit("unscored").alias("status"));
 * assert.equal(allWrong(keyless).height, 0);
 * ```
 */
export function allWrong(rows: DataFrame): DataFrame {
  const frame = scoredRows(rows);
  const keys = ["suite", "question_id"].filter((k) =>
    frame.columns.includes(k)
  );
  const first = (c: string) =>
    frame.columns.includes(c)
      ? pl.col(c).first().alias(c)
      : pl.lit(null).cast(pl.Utf8).alias(c);
  const extracted = frame.columns.includes("extracted")
    ? pl.col("extracted")
    : pl.lit(null).cast(pl.Utf8);
  const grouped = frame.groupBy(keys).agg(
    first("question"),
    first("expected"),
    pl.col("model").nUnique().alias("models"),
    pl.col("correct").cast(pl.Int64).sum().alias("_right"),
    extracted.fillNull("∅").unique().sort().alias("_answers"),
  ).filter(pl.col("_right").eq(0));
  const answers = (grouped.getColumn("_answers").toArray() as unknown[]).map((
    v,
  ) => Array.isArray(v) ? v.map(String) : []);
  return grouped
    .withColumns(
      pl.Series("answers", answers.map((a) => a.join(" | "))),
      pl.Series(
        "agreed",
        answers.map((a) => a.length === 1 && a[0] !== "∅"),
      ),
    )
    .drop("_right", "_answers")
    .sort(["agreed", ...keys], [true, ...keys.map(() => false)]);
}
