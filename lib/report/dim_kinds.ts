/**
 * The dims of rows from a suite the report was not told about, sorted into
 * those worth plotting against a number and those worth a category chart.
 *
 * @module
 */
import type { DataFrame } from "./frame.ts";
import { distinct } from "./_distinct.ts";

/**
 * Sorts dims columns into the ones worth plotting: numeric ones (digits,
 * size) for lines against a dimension, and categorical ones (family,
 * subject) with 2 to 30 values for category charts. Columns with a single
 * value say nothing and are left out, as are id-like ones with many values.
 * Used for rows of a suite the report was not told about.
 *
 * @param frame A frame from `loadRuns`.
 * @param dims Its dims columns.
 * @returns The numeric and the categorical dims, in the given order.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import pl from "nodejs-polars";
 * import { dimKinds } from "./mod.ts";
 *
 * const frame = pl.DataFrame({ digits: [2, 4], family: ["add", "mul"], language: ["en", "en"] });
 * assert.deepEqual(dimKinds(frame, ["digits", "family", "language"]), {
 *   numeric: ["digits"],
 *   categorical: ["family"],
 * });
 * ```
 */
export function dimKinds(
  frame: DataFrame,
  dims: readonly string[],
): { numeric: string[]; categorical: string[] } {
  const present = dims.filter((d) => frame.columns.includes(d));
  const numeric = present.filter((d) =>
    frame.getColumn(d).isNumeric() && distinct(frame, d).length > 1
  );
  const categorical = present.filter((d) => {
    const k = distinct(frame, d).length;
    return !frame.getColumn(d).isNumeric() && k > 1 && k <= 30;
  });
  return { numeric, categorical };
}
