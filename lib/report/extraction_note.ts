/**
 * What the report says about extraction: how many replies the rules found
 * ambiguous, and, when an extraction judge was configured, how many
 * unread replies it was asked about, how many it answered and how often
 * its answer was one of an ambiguous reply's candidates.
 *
 * @module
 */
import pl from "nodejs-polars";
import type { DataFrame } from "./frame.ts";

/**
 * The overview's note on extraction, per model: ambiguous replies, and
 * the extraction judge's work when it ran; null when there is nothing to
 * say.
 *
 * @param frame Result rows (a frame from `loadRuns`).
 * @returns A sentence per model, or null.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import pl from "nodejs-polars";
 * import { extractionNote } from "./extraction_note.ts";
 * const frame = pl.DataFrame({
 *   model: ["m", "m", "m"], extract_rule: ["judge", "ambiguous", "bare"],
 *   judge_answer: ["42", "none", null], judge_agrees: [true, null, null], rule_extract: ["ambiguous: 42 | 43", "ambiguous: 1 | 2", null],
 * });
 * assert.equal(extractionNote(frame), "m: 2 replies ambiguous to the rules; the extraction judge was asked about 2 unread replies and answered 1 (decided by it: 1); on ambiguous replies it chose one of the candidates in 1 of 1.");
 * ```
 */
export function extractionNote(frame: DataFrame): string | null {
  if (
    !frame.columns.includes("extract_rule") || !frame.columns.includes("model")
  ) {
    return null;
  }
  const has = (c: string) => frame.columns.includes(c);
  const col = (c: string) => has(c) ? pl.col(c) : pl.lit(null);
  const per = frame.groupBy("model").agg(
    col("rule_extract").cast(pl.Utf8).str.startsWith("ambiguous").fillNull(
      false,
    )
      .or(pl.col("extract_rule").eq(pl.lit("ambiguous"))).cast(pl.Int64)
      .sum().alias("ambiguous"),
    col("judge_answer").isNotNull().cast(pl.Int64).sum().alias("asked"),
    col("judge_answer").cast(pl.Utf8).neq(pl.lit("none")).fillNull(false)
      .cast(pl.Int64).sum().alias("answered"),
    pl.col("extract_rule").eq(pl.lit("judge")).cast(pl.Int64).sum().alias(
      "decided",
    ),
    col("judge_agrees").cast(pl.Bool).fillNull(false).cast(pl.Int64).sum()
      .alias("agrees"),
    col("judge_agrees").isNotNull().cast(pl.Int64).sum().alias("compared"),
  ).sort("model").toRecords();
  const lines = per.filter((r) =>
    Number(r.ambiguous) > 0 || Number(r.asked) > 0
  )
    .map((r) => {
      const judge = Number(r.asked) > 0
        ? `; the extraction judge was asked about ${r.asked} unread replies and answered ${r.answered} (decided by it: ${r.decided}); on ambiguous replies it chose one of the candidates in ${r.agrees} of ${r.compared}`
        : "";
      return `${r.model}: ${r.ambiguous} replies ambiguous to the rules${judge}.`;
    });
  return lines.length === 0 ? null : lines.join(" ");
}
