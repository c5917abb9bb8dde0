/**
 * The code suite's rows in a result frame, as its aggregations read them:
 * only the suite's rows, a column or a typed null, and whether a row
 * passed every functional test.
 *
 * @module
 */
import pl from "nodejs-polars";
import type { DataFrame } from "../../report/mod.ts";

/** A frame's row as a record. */
export type Row = Record<string, unknown>;

/** The code suite's rows only (when the frame carries a `suite` column). */
export function codeOnly(frame: DataFrame): DataFrame {
  return frame.columns.includes("suite")
    ? frame.filter(pl.col("suite").eq(pl.lit("code")))
    : frame;
}

/** A column, or a typed null when the frame lacks it (synthetic frames). */
export function col(
  frame: DataFrame,
  name: string,
  dtype: pl.DataType,
): pl.Expr {
  return frame.columns.includes(name)
    ? pl.col(name).cast(dtype)
    : pl.lit(null).cast(dtype);
}

/** Whether each row passed every functional test (falls back to `correct`). */
export function functionalExpr(frame: DataFrame): pl.Expr {
  return frame.columns.includes("functional_pass_rate")
    ? pl.col("functional_pass_rate").cast(pl.Float64).eq(pl.lit(1))
      .fillNull(false)
    : pl.col("correct").cast(pl.Bool).fillNull(false);
}
