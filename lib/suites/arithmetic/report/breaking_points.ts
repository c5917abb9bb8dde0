/**
 * Breaking points: the digit count where a model's accuracy falls below a
 * threshold, per group and as a model × family matrix.
 *
 * @module
 */
import pl from "nodejs-polars";
import type { DataFrame, DataType } from "../../../report/mod.ts";
import { countsBySize, crossingColumns } from "../../../report/crossing.ts";
import { wilsonInterval, Z95 } from "../../../report/wilson.ts";
import { requireColumns } from "../../../report/columns.ts";

/** Accuracy at one value of a numeric dimension (e.g. a digit count). */
export interface DimensionAccuracy {
  /** The dimension value (digits). */
  x: number;
  /** Correct answers at this value. */
  correct: number;
  /** Answers at this value (error rows excluded). */
  n: number;
}

/** Options for {@linkcode breakingPoint}. */
export interface BreakingPointOptions {
  /** Accuracy below which a model counts as broken. @default {0.5} */
  threshold?: number;
  /** Normal quantile of the Wilson interval for `confirmed`. @default {Z95} */
  z?: number;
}

/** Where a model breaks. */
export interface BreakingPoint {
  /** The smallest x whose accuracy is below the threshold, or null when none is. */
  point: number | null;
  /**
   * Where the accuracy line crosses the threshold: linear interpolation
   * between the last x at or above it and `point`; `point` itself when the
   * first x measured is already below; null when none is.
   */
  crossing: number | null;
  /** The smallest x whose whole Wilson interval is below the threshold, or null. */
  confirmed: number | null;
}

/**
 * The breaking point of one accuracy curve: the digit count where accuracy
 * first falls below the threshold (50%), the interpolated crossing, and the
 * first digit count where even the interval's upper end is below it (so
 * noise cannot explain the drop).
 *
 * @param points Accuracy counts per x, in any order; x with n = 0 are ignored.
 * @param options Threshold and interval level.
 * @returns The breaking point, crossing and confirmed point.
 * @throws {RangeError} When the threshold is not in (0, 1].
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { breakingPoint } from "./mod.ts";
 *
 * const bp = breakingPoint([
 *   { x: 2, correct: 96, n: 100 },
 *   { x: 5, correct: 58, n: 100 },
 *   { x: 6, correct: 24, n: 100 },
 *   { x: 7, correct: 10, n: 100 },
 * ]);
 * assert.equal(bp.point, 6);
 * assert.ok(Math.abs(bp.crossing! - (5 + 0.08 / 0.34)) < 1e-12);
 * assert.equal(bp.confirmed, 6);
 * assert.equal(breakingPoint([{ x: 2, correct: 9, n: 10 }]).point, null);
 * ```
 */
export function breakingPoint(
  points: readonly DimensionAccuracy[],
  options: BreakingPointOptions = {},
): BreakingPoint {
  const { threshold = 0.5, z = Z95 } = options;
  if (!(threshold > 0 && threshold <= 1)) {
    throw new RangeError(
      `Cannot find a breaking point: threshold must be in (0, 1], got ${threshold}`,
    );
  }
  // Written by hand: a first-crossing scan over a few points, which no
  // statistics library offers as such; the interval comes from wilsonInterval.
  const sorted = points.filter((p) => p.n > 0).sort((a, b) => a.x - b.x);
  let point: number | null = null;
  let crossing: number | null = null;
  let confirmed: number | null = null;
  for (let i = 0; i < sorted.length; i++) {
    const p = sorted[i]!;
    const acc = p.correct / p.n;
    if (point === null && acc < threshold) {
      point = p.x;
      const prev = i > 0 ? sorted[i - 1]! : null;
      if (prev === null) crossing = p.x;
      else {
        const a0 = prev.correct / prev.n;
        crossing = prev.x + (p.x - prev.x) * (a0 - threshold) / (a0 - acc);
      }
    }
    if (
      confirmed === null && wilsonInterval(p.correct, p.n, { z }).hi < threshold
    ) {
      confirmed = p.x;
    }
  }
  return { point, crossing, confirmed };
}

/** Options for {@linkcode breakingPoints}. */
export interface BreakingPointsOptions extends BreakingPointOptions {
  /** One breaking point per group of these columns. @default {["model"]} */
  by?: readonly string[];
  /** The numeric column of difficulty. @default {"digits"} */
  dimension?: string;
}

/**
 * Each group's breaking point (see {@linkcode breakingPoint}) from a result
 * frame: accuracy per digit count, pooled over everything not in `by`.
 *
 * @param frame A frame from {@linkcode loadRuns} (filter it first, e.g. to one template).
 * @param options Groups, dimension, threshold, interval level.
 * @returns Columns `...by`, `breaking_point`, `crossing`, `confirmed`,
 *   `tested` (the largest x measured), `n` (rows), and the posterior
 *   crossing with its 95% interval, `fit`, `low`, `high` (see
 *   {@linkcode crossingTable}; null when accuracy never goes below, or
 *   never above, the threshold).
 * @throws {RangeError} When a column is missing or the threshold is out of range.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import pl from "nodejs-polars";
 * import { breakingPoints } from "./mod.ts";
 *
 * const frame = pl.DataFrame({
 *   model: ["a", "a", "a", "a", "b", "b"],
 *   digits: [2, 2, 4, 4, 2, 4],
 *   correct: [true, true, true, false, true, true],
 * });
 * const rows = breakingPoints(frame).toRecords();
 * assert.deepEqual(rows.map((r) => [r.model, r.breaking_point]), [["a", null], ["b", null]]);
 * assert.deepEqual(breakingPoints(frame).columns.slice(0, 2), ["model", "breaking_point"]);
 * const strict = breakingPoints(frame, { threshold: 0.6 }).toRecords();
 * assert.equal(strict[0]!.breaking_point, 4);
 * assert.ok((strict[0]!.low as number) <= (strict[0]!.fit as number));
 * ```
 */
export function breakingPoints(
  frame: DataFrame,
  options: BreakingPointsOptions = {},
): DataFrame {
  const { by = ["model"], dimension = "digits", ...rest } = options;
  requireColumns(frame, [...by, dimension, "correct"], {
    action: "build breaking points",
    suite: "arithmetic",
  });
  const rows = countsBySize(frame, { by, dimension }).map(
    ({ keys, points }) => {
      const bp = breakingPoint(points, rest);
      const target = rest.threshold ?? 0.5;
      // The curve's smallest lapse (1%) leaves no crossing of 99% or more.
      const { fit, low, high } = target < 0.99
        ? crossingColumns(points, { target }).columns
        : { fit: null, low: null, high: null };
      return {
        ...keys,
        breaking_point: bp.point,
        crossing: bp.crossing,
        confirmed: bp.confirmed,
        tested: Math.max(...points.map((p) => p.x)),
        n: points.reduce((s, p) => s + p.n, 0),
        fit,
        low,
        high,
      };
    },
  );
  const schema: Record<string, DataType> = {
    breaking_point: pl.Float64,
    crossing: pl.Float64,
    confirmed: pl.Float64,
    tested: pl.Float64,
    n: pl.Int64,
    fit: pl.Float64,
    low: pl.Float64,
    high: pl.Float64,
  };
  for (const c of by) schema[c] = frame.getColumn(c).dtype;
  const order = [...by, ...Object.keys(schema).filter((c) => !by.includes(c))];
  if (rows.length === 0) {
    return pl.DataFrame(
      Object.fromEntries(Object.keys(schema).map((c) => [c, []])),
      { schema },
    ).select(...order);
  }
  return pl.DataFrame(rows, { schema }).select(...order);
}

/** Options for {@linkcode breakingPointMatrix}. */
export interface BreakingPointMatrixOptions extends BreakingPointOptions {
  /** The row column. @default {"model"} */
  rows?: string;
  /** One column per value of this column. @default {"family"} */
  across?: string;
  /** The numeric column of difficulty. @default {"digits"} */
  dimension?: string;
}

/**
 * Breaking points as a readable rows × columns table (model × family by
 * default): each cell is the first digit count below the threshold, or
 * `> N` when accuracy never fell below it up to the largest N tested, or
 * `–` when the pair has no rows.
 *
 * @param frame A frame from {@linkcode loadRuns} (filter it first, e.g. to one template).
 * @param options Row and column columns, dimension, threshold.
 * @returns Columns `rows`, then one string column per value of `across` (sorted).
 * @throws {RangeError} When a column is missing or the threshold is out of range.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import pl from "nodejs-polars";
 * import { breakingPointMatrix } from "./mod.ts";
 *
 * const frame = pl.DataFrame({
 *   model: ["a", "a", "a", "a", "b", "b"],
 *   family: ["add", "add", "mul", "mul", "add", "add"],
 *   digits: [2, 8, 2, 8, 2, 8],
 *   correct: [true, true, true, false, true, true],
 * });
 * const m = breakingPointMatrix(frame);
 * assert.deepEqual(m.columns, ["model", "add", "mul"]);
 * assert.deepEqual(m.row(0), ["a", "> 8", "8"]);
 * assert.deepEqual(m.row(1), ["b", "> 8", "–"]);
 * ```
 */
export function breakingPointMatrix(
  frame: DataFrame,
  options: BreakingPointMatrixOptions = {},
): DataFrame {
  const { rows = "model", across = "family", dimension = "digits", ...rest } =
    options;
  const long = breakingPoints(frame, {
    ...rest,
    by: [rows, across],
    dimension,
  }).toRecords();
  // Pivoted by hand, not with DataFrame.pivot: a cell must tell "never broke
  // up to N" from "not measured", which a numeric pivot turns into one null.
  const keys = [...new Set(long.map((r) => String(r[rows])))].sort();
  const cols = [...new Set(long.map((r) => String(r[across])))].sort();
  const out: Record<string, string[]> = { [rows]: keys };
  for (const c of cols) {
    out[c] = keys.map((k) => {
      const hit = long.find((r) =>
        String(r[rows]) === k && String(r[across]) === c
      );
      if (!hit) return "–";
      return hit.breaking_point === null
        ? `> ${hit.tested}`
        : String(hit.breaking_point);
    });
  }
  return pl.DataFrame(out);
}
