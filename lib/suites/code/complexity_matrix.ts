/**
 * The code suite's required × measured complexity matrix.
 *
 * @module
 */
import pl from "nodejs-polars";
import type { DataFrame } from "../../report/mod.ts";
import { requireColumns } from "../../report/columns.ts";
import type { ComplexityClass } from "../../sandbox/mod.ts";
import { COMPLEXITY_CLASSES } from "./bank/mod.ts";
import { codeOnly, functionalExpr } from "./_rows.ts";

/**
 * Complexity classes from the simplest to the worst: the bank's classes,
 * then "unknown" (a measurement the sandbox could not decide).
 */
export const COMPLEXITY_ORDER: readonly ComplexityClass[] = [
  ...COMPLEXITY_CLASSES,
  "unknown",
];

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
 * import { complexityMatrix } from "./complexity_matrix.ts";
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
  requireColumns(frame, ["complexity", "complexity_measured"], {
    action: "build the complexity matrix",
    suite: "code",
  });
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
