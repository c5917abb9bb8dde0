/**
 * Error classes of wrong arithmetic answers: shares by a dimension, a
 * table per model and a stacked chart.
 *
 * @module
 */
import * as Plot from "@observablehq/plot";
import pl from "nodejs-polars";
import type { DataFrame, Expr } from "../../../report/mod.ts";
import { NUMERIC_ERROR_CLASSES } from "../forensics.ts";
import { FAILED_STATUSES } from "../../../judge/status.ts";
import { scoredRows } from "../../../report/scored.ts";
import { type Chart, pct, renderPlot } from "../../../report/plot.ts";
import { requireColumns } from "../../../report/columns.ts";
import { type Row, str } from "./_columns.ts";

/** The outcome label of a row that is not correct: its error class, else its status. */
function outcomeExpr(frame: DataFrame): Expr {
  return frame.columns.includes("error_class")
    ? pl.when(pl.col("error_class").isNotNull()).then(pl.col("error_class"))
      .otherwise(pl.col("status"))
    : pl.col("status");
}

/**
 * Sixteen distinguishable colours (Tableau 10 and six more): the error
 * labels outnumber any 10-colour scheme, and repeated colours would merge
 * classes in the stacked bars.
 */
const ERROR_PALETTE = [
  "#4e79a7",
  "#f28e2c",
  "#e15759",
  "#76b7b2",
  "#59a14f",
  "#edc949",
  "#af7aa1",
  "#ff9da7",
  "#9c755f",
  "#bab0ab",
  "#1f1f1f",
  "#8cd17d",
  "#b6992d",
  "#d37295",
  "#499894",
  "#86bcb6",
];

/**
 * The order error labels are shown in: the forensic classes, then the
 * failed statuses from the closest to an answer (wrong) to a failed
 * request (the ladder's order, reversed).
 */
export const ARITHMETIC_ERROR_ORDER: readonly string[] = Object.freeze([
  ...NUMERIC_ERROR_CLASSES,
  ...[...FAILED_STATUSES].reverse(),
]);

/**
 * Error classes of the rows that are not correct, per value of a column
 * (digits by default): each class's count and its share of that value's
 * failures. A wrong answer counts under its forensic class (carry,
 * transposition, place value...); a reply with no number as `parse_error`;
 * a reply cut at the token limit as `truncated`; a failed request as
 * `error`.
 *
 * @param frame A frame from {@linkcode loadRuns}.
 * @param by The grouping column. @default {"digits"}
 * @returns Columns `by`, `error_class`, `errors`, `share`, sorted by `by`
 *   and the order of {@linkcode ARITHMETIC_ERROR_ORDER}.
 * @throws {RangeError} When a column is missing.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import pl from "nodejs-polars";
 * import { errorClassShares } from "./mod.ts";
 *
 * const frame = pl.DataFrame({
 *   digits: [2, 6, 6, 6],
 *   status: ["correct", "wrong", "wrong", "parse_error"],
 *   error_class: [null, "carry", "carry", null],
 * });
 * const rows = errorClassShares(frame).toRecords();
 * assert.deepEqual(rows.map((r) => [r.digits, r.error_class, r.errors]), [[6, "carry", 2], [6, "parse_error", 1]]);
 * assert.ok(Math.abs(Number(rows[0]!.share) - 2 / 3) < 1e-12);
 * ```
 */
export function errorClassShares(
  frame: DataFrame,
  by = "digits",
): DataFrame {
  requireColumns(frame, [by, "status"], {
    action: "build error classes",
    suite: "arithmetic",
  });
  const order = new Map(ARITHMETIC_ERROR_ORDER.map((c, i) => [c, i]));
  const counts = scoredRows(frame)
    .filter(pl.col("status").neq(pl.lit("correct")))
    .select(pl.col(by), outcomeExpr(frame).cast(pl.Utf8).alias("error_class"))
    .groupBy([by, "error_class"]).agg(pl.len().cast(pl.Int64).alias("errors"));
  const rows = counts.toRecords().map((r) => ({ ...r }));
  const totals = new Map<string, number>();
  for (const r of rows) {
    const k = String(r[by]);
    totals.set(k, (totals.get(k) ?? 0) + Number(r.errors));
  }
  const rank = (c: unknown) => order.get(String(c)) ?? order.size;
  rows.sort((a, b) => {
    const va = a[by], vb = b[by];
    const byCmp = typeof va === "number" && typeof vb === "number"
      ? va - vb
      : String(va).localeCompare(String(vb));
    return byCmp || rank(a.error_class) - rank(b.error_class);
  });
  return pl.DataFrame({
    [by]: pl.Series(by, rows.map((r) => r[by]), frame.getColumn(by).dtype),
    error_class: pl.Series(
      "error_class",
      rows.map((r) => String(r.error_class)),
      pl.Utf8,
    ),
    errors: pl.Series("errors", rows.map((r) => Number(r.errors)), pl.Int64),
    share: pl.Series(
      "share",
      rows.map((r) => Number(r.errors) / totals.get(String(r[by]))!),
      pl.Float64,
    ),
  });
}

/**
 * Error classes per model as a wide table: `failures` (rows not correct),
 * then one count column per class present, in the order of
 * {@linkcode ARITHMETIC_ERROR_ORDER}.
 *
 * @param frame A frame from {@linkcode loadRuns}.
 * @param by The row column. @default {"model"}
 * @returns One row per value of `by`.
 * @throws {RangeError} When a column is missing.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import pl from "nodejs-polars";
 * import { errorClassTable } from "./mod.ts";
 *
 * const frame = pl.DataFrame({
 *   model: ["a", "a", "b"],
 *   status: ["wrong", "wrong", "parse_error"],
 *   error_class: ["carry", "sign", null],
 * });
 * const t = errorClassTable(frame);
 * assert.deepEqual(t.columns, ["model", "failures", "sign", "carry", "parse_error"]);
 * assert.deepEqual(t.row(0), ["a", 2, 1, 1, 0]);
 * ```
 */
export function errorClassTable(
  frame: DataFrame,
  by = "model",
): DataFrame {
  const long = errorClassShares(frame, by).toRecords();
  const classes = ARITHMETIC_ERROR_ORDER.filter((c) =>
    long.some((r) => r.error_class === c)
  );
  const others = [...new Set(long.map((r) => String(r.error_class)))]
    .filter((c) => !classes.includes(c)).sort();
  const all = [...classes, ...others];
  const keys = [...new Set(long.map((r) => String(r[by])))].sort();
  const rows = keys.map((k) => {
    const mine = long.filter((r) => String(r[by]) === k);
    const row: Record<string, string | number> = {
      [by]: k,
      failures: mine.reduce((s, r) => s + Number(r.errors), 0),
    };
    for (const c of all) {
      row[c] = Number(mine.find((r) => r.error_class === c)?.errors ?? 0);
    }
    return row;
  });
  return rows.length
    ? pl.DataFrame(rows)
    : pl.DataFrame({ [by]: [] as string[], failures: [] as number[] });
}

/** Options for {@linkcode errorClassChart}. */
export interface ErrorClassChartOptions {
  /** The x column. @default {"digits"} */
  by?: string;
  /** Chart title. @default a description of the chart */
  title?: string;
  /** Width in pixels. @default {720} */
  width?: number;
}

/**
 * Stacked bars of error-class shares per digit count (models pooled): how
 * the kind of mistake changes as numbers grow.
 *
 * @param frame A frame from {@linkcode loadRuns}.
 * @param options x column, title, width.
 * @returns The chart.
 * @throws {RangeError} When a column is missing.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import pl from "nodejs-polars";
 * import { errorClassChart } from "./mod.ts";
 *
 * const frame = pl.DataFrame({ digits: [4, 8], status: ["wrong", "wrong"], error_class: ["carry", "dropped_digit"] });
 * const bars = errorClassChart(frame).html.split('aria-label="bar"')[1]!.split("</g>")[0]!;
 * assert.equal(bars.match(/<rect/g)?.length, 2);
 * ```
 */
export function errorClassChart(
  frame: DataFrame,
  options: ErrorClassChartOptions = {},
): Chart {
  const { by = "digits", width = 720 } = options;
  const data = errorClassShares(frame, by).toRecords();
  const present = new Set(data.map((d) => String(d.error_class)));
  const domain = [
    ...ARITHMETIC_ERROR_ORDER.filter((c) => present.has(c)),
    ...[...present].filter((c) => !ARITHMETIC_ERROR_ORDER.includes(c)).sort(),
  ];
  const xs = [...new Set(data.map((d) => d[by]))].sort((a, b) =>
    typeof a === "number" && typeof b === "number"
      ? a - b
      : String(a).localeCompare(String(b))
  ).map(String);
  return renderPlot(
    options.title ??
      `Error classes by ${by} (share of failures, models pooled)`,
    {
      width,
      height: 360,
      x: { label: by, type: "band", domain: xs },
      y: { label: "share of failures", tickFormat: pct, domain: [0, 1] },
      color: {
        legend: true,
        domain,
        range: ERROR_PALETTE.slice(0, Math.max(1, domain.length)),
        label: "class",
      },
      marks: [
        Plot.barY(data, {
          x: str(by),
          y: "share",
          fill: "error_class",
          order: domain,
          title: (d: Row) =>
            `${d.error_class}: ${d.errors} (${pct(Number(d.share))})`,
        }),
        Plot.ruleY([0]),
      ],
    },
  );
}
