/**
 * Names for the Polars types the report API takes and returns, so callers
 * (and the docs) can refer to them without importing `nodejs-polars`.
 *
 * @module
 */
import type pl from "nodejs-polars";

/** A `nodejs-polars` DataFrame: one row per result, one column per field. */
export type DataFrame = pl.DataFrame;
/** A `nodejs-polars` column expression (as passed to `select`/`agg`). */
export type Expr = pl.Expr;
/** A `nodejs-polars` column data type (e.g. `pl.Utf8`, `pl.Float64`). */
export type DataType = pl.DataType;
