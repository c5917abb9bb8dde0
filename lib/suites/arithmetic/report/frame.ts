/**
 * Which rows the arithmetic analysis reads (generated questions, not
 * presets), and which table columns are percentages.
 *
 * @module
 */
import pl from "nodejs-polars";
import type { DataFrame } from "../../../report/mod.ts";

/**
 * The rows of generated arithmetic questions: the `arithmetic` suite (when
 * the frame has a `suite` column) without preset items such as llmmath's.
 *
 * @param frame A frame from {@linkcode loadRuns}.
 * @returns The matching rows.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import pl from "nodejs-polars";
 * import { generatedArithmetic } from "./mod.ts";
 *
 * const frame = pl.DataFrame({
 *   suite: ["arithmetic", "arithmetic", "linalg"],
 *   preset: [null, "llmmath", null],
 * });
 * assert.equal(generatedArithmetic(frame).height, 1);
 * ```
 */
export function generatedArithmetic(frame: DataFrame): DataFrame {
  let out = frame;
  if (out.columns.includes("suite")) {
    out = out.filter(pl.col("suite").eq(pl.lit("arithmetic")));
  }
  if (out.columns.includes("preset")) {
    out = out.filter(pl.col("preset").isNull());
  }
  return out;
}

/**
 * Whether a column of the frames in this module reads as a percentage:
 * accuracies, rates, interval ends, shares, gains, `win` and `Q1`…`Q7`.
 * Pass it to {@linkcode table} as `percent`.
 *
 * @param column A column name.
 * @returns True for percentage columns.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { arithmeticPercent } from "./mod.ts";
 *
 * assert.equal(arithmeticPercent("bare_accuracy"), true);
 * assert.equal(arithmeticPercent("Q3"), true);
 * assert.equal(arithmeticPercent("bare_n"), false);
 * assert.equal(arithmeticPercent("digits"), false);
 * ```
 */
export function arithmeticPercent(column: string): boolean {
  return /(^|_)(accuracy|rate|lo|hi|share|gain|win)$|^acc_|^Q\d+$/.test(
    column,
  );
}
