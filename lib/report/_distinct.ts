/**
 * The distinct values of a frame's column, for the report's choices (which
 * dims to show, which suites and models are present).
 *
 * @module
 */
import pl from "nodejs-polars";
import type { DataFrame } from "./frame.ts";

/** Distinct non-null values of a column. */
export function distinct(frame: DataFrame, col: string): unknown[] {
  if (!frame.columns.includes(col)) return [];
  return frame.select(pl.col(col)).unique().dropNulls().getColumn(col)
    .toArray();
}
