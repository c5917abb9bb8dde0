/**
 * Breaking points with intervals over a result frame: per group, where
 * accuracy crosses a target as an ordered size grows, fitted from the
 * group's counts per size with the adaptive design's posterior
 * (`lib/adaptive/fit.ts`), so a full grid and an adaptive run are read the
 * same way; and what the full grid would need for an interval as narrow.
 *
 * @module
 */
import pl from "nodejs-polars";
import type { DataFrame, DataType } from "./frame.ts";
import { summarize } from "./summarize.ts";
import { requireColumns } from "./columns.ts";
import {
  type CrossingFit,
  fitCrossing,
  type FitCrossingOptions,
  type SizeCounts,
} from "../adaptive/fit.ts";
import { gridRequests } from "../adaptive/grid.ts";

export type {
  CrossingEstimate,
  CrossingOptions,
} from "../adaptive/crossing.ts";
export type {
  CrossingFit,
  CrossingPosition,
  FitCrossingOptions,
  SizeCounts,
} from "../adaptive/fit.ts";

/** `breaks_at` of a group at or above the target at every size asked. */
export const ABOVE_ALL_SIZES = "above all sizes asked";
/** `breaks_at` of a group below the target at every size asked. */
export const BELOW_ALL_SIZES = "below all sizes";

/** Options for {@linkcode crossingTable}. */
export interface CrossingTableOptions extends FitCrossingOptions {
  /** One crossing per group of these columns. @default {["model"]} */
  by?: readonly string[];
  /** The numeric column of size. @default {"digits"} */
  dimension?: string;
  /** Add `grid_requests` (simulated; slower). @default {false} */
  grid?: boolean;
  /** The suite named in a missing-column error. @default {"this suite"} */
  suite?: string;
}

/** The crossing columns of one group (see {@linkcode crossingTable}). */
export interface CrossingColumns {
  /** Scored rows the fit used. */
  rows: number;
  /** Posterior mean crossing; null when the data never cross the target. */
  fit: number | null;
  /** The 95% interval's lower end; null as `fit`. */
  low: number | null;
  /** The 95% interval's upper end; null as `fit`. */
  high: number | null;
  /** The crossing as text: `5.3 [4.9, 5.8]`, or where it lies outside the sizes. */
  breaks_at: string;
}

/**
 * One group's crossing columns from its counts per size, and the fit.
 *
 * @param points Counts per size.
 * @param options Target, width and the curve's grid.
 * @returns The columns and the fit behind them.
 * @throws {RangeError} when no size has answers.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { crossingColumns } from "./crossing.ts";
 * const { columns } = crossingColumns([
 *   { x: 2, correct: 19, n: 20 }, { x: 4, correct: 12, n: 20 }, { x: 6, correct: 1, n: 20 },
 * ]);
 * assert.ok(columns.fit! > 4 && columns.fit! < 6);
 * assert.match(columns.breaks_at, /^\d\.\d \[\d\.\d, \d\.\d\]$/);
 * const never = crossingColumns([{ x: 2, correct: 9, n: 10 }, { x: 4, correct: 8, n: 10 }]);
 * assert.equal(never.columns.fit, null);
 * assert.equal(never.columns.breaks_at, "above all sizes asked");
 * ```
 */
export function crossingColumns(
  points: readonly SizeCounts[],
  options: FitCrossingOptions = {},
): { columns: CrossingColumns; fit: CrossingFit } {
  const fit = fitCrossing(points, options);
  const inside = fit.position === "inside";
  const f = (x: number) => x.toFixed(1);
  return {
    fit,
    columns: {
      rows: fit.trials,
      fit: inside ? fit.mean : null,
      low: inside ? fit.low : null,
      high: inside ? fit.high : null,
      breaks_at: inside
        ? `${f(fit.mean)} [${f(fit.low)}, ${f(fit.high)}]`
        : fit.position === "above"
        ? ABOVE_ALL_SIZES
        : BELOW_ALL_SIZES,
    },
  };
}

/**
 * Counts per size for each group of `by`, over the frame's scored rows:
 * the input of {@linkcode crossingColumns}.
 *
 * @param frame A result frame.
 * @param options `by`, the group columns, and `dimension`, the numeric size column.
 * @returns One entry per group: its key values and counts per size.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import pl from "nodejs-polars";
 * import { countsBySize } from "./crossing.ts";
 * const frame = pl.DataFrame({ model: ["a", "a", "a"], digits: [2, 2, 4], correct: [true, false, true] });
 * const [g] = countsBySize(frame, { by: ["model"], dimension: "digits" });
 * assert.deepEqual(g!.keys, { model: "a" });
 * assert.deepEqual(g!.points, [{ x: 2, correct: 1, n: 2 }, { x: 4, correct: 1, n: 1 }]);
 * ```
 */
export function countsBySize(
  frame: DataFrame,
  options: { by: readonly string[]; dimension: string },
): { keys: Record<string, unknown>; points: SizeCounts[] }[] {
  const { by, dimension } = options;
  const data = summarize(
    frame.filter(pl.col(dimension).isNotNull()),
    [...by, dimension],
  ).select(...by, dimension, "n", "correct").toRecords();
  const groups = new Map<
    string,
    { keys: Record<string, unknown>; points: SizeCounts[] }
  >();
  for (const d of data) {
    const key = JSON.stringify(by.map((c) => d[c]));
    let g = groups.get(key);
    if (g === undefined) {
      g = { keys: Object.fromEntries(by.map((c) => [c, d[c]])), points: [] };
      groups.set(key, g);
    }
    g.points.push({
      x: Number(d[dimension]),
      correct: Number(d.correct),
      n: Number(d.n),
    });
  }
  return [...groups.values()];
}

/**
 * Each group's crossing of the target with its 95% credible interval,
 * fitted from its scored rows (a full grid or an adaptive run alike), and
 * optionally the requests the full grid (the same number of questions at
 * every size asked) would need for an interval as narrow, simulated from
 * the fitted curve (so an estimate; null when 80 a size is not enough).
 *
 * @param frame A result frame (filter it first, e.g. to one template).
 * @param options Groups, size column, target, width, whether to price the grid.
 * @returns Columns `...by`, `rows`, `fit`, `low`, `high`, `breaks_at`
 *   (and `grid_requests` with `grid`). `fit`, `low` and `high` are null
 *   when the group's accuracy never goes below (or never above) the target.
 * @throws {RangeError} When a column is missing.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import pl from "nodejs-polars";
 * import { crossingTable } from "./crossing.ts";
 * const digits = [2, 3, 4, 5, 6].flatMap((d) => Array(20).fill(d));
 * const frame = pl.DataFrame({
 *   model: digits.map(() => "m"),
 *   digits,
 *   correct: digits.map((d, i) => i % 20 < 24 - 4 * d),
 * });
 * const [row] = crossingTable(frame, { grid: true }).toRecords();
 * assert.equal(row!.rows, 100);
 * assert.ok((row!.low as number) < 4 && (row!.high as number) > 4, JSON.stringify(row));
 * assert.ok((row!.grid_requests as number) % 5 === 0);
 * ```
 */
export function crossingTable(
  frame: DataFrame,
  options: CrossingTableOptions = {},
): DataFrame {
  const {
    by = ["model"],
    dimension = "digits",
    grid = false,
    suite = "this suite",
    ...fitOptions
  } = options;
  requireColumns(frame, [...by, dimension, "correct"], {
    action: "build breaking points",
    suite,
  });
  const rows = countsBySize(frame, { by, dimension }).map(
    ({ keys, points }) => {
      const { columns, fit } = crossingColumns(points, fitOptions);
      if (!grid) return { ...keys, ...columns };
      const sizes = [...new Set(points.filter((p) => p.n > 0).map((p) => p.x))];
      const grid_requests = columns.fit === null || sizes.length < 2
        ? null
        : gridRequests({
          ...fitOptions,
          sizes,
          // The grid's step (0.05) is the narrowest width the posterior has.
          width: Math.max(fit.high - fit.low, 0.05),
          curve: fit.predicted,
        });
      return { ...keys, ...columns, grid_requests };
    },
  );
  const schema: Record<string, DataType> = {
    rows: pl.Int64,
    fit: pl.Float64,
    low: pl.Float64,
    high: pl.Float64,
    breaks_at: pl.Utf8,
    ...(grid ? { grid_requests: pl.Int64 } : {}),
  };
  for (const c of by) schema[c] = frame.getColumn(c).dtype;
  const order = [...by, ...Object.keys(schema).filter((c) => !by.includes(c))];
  if (rows.length === 0) {
    return pl.DataFrame(
      Object.fromEntries(order.map((c) => [c, []])),
      { schema },
    ).select(...order);
  }
  return pl.DataFrame(rows, { schema }).select(...order);
}
