/**
 * The scored rows of a frame, by the one rule of `lib/judge/status.ts`
 * ({@linkcode isScored}).
 *
 * @module
 */
import pl from "nodejs-polars";
import type { DataFrame } from "./frame.ts";
import { isScored } from "../judge/status.ts";

/**
 * The rows of a frame that are scored, decided by {@linkcode isScored}:
 * the rule is asked once for each kind of row present (each status, with
 * an empty or a non-empty key), and the rows of the kinds it accepts are
 * kept. A frame without `status` and `expected` columns is all scored.
 *
 * @param frame Result rows.
 * @returns The scored rows, in their order.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import pl from "nodejs-polars";
 * import { scoredRows } from "./scored.ts";
 * const frame = pl.DataFrame({
 *   status: ["correct", "unscored", "error", "error", null],
 *   expected: ["A", "", "", "B", null],
 * });
 * assert.deepEqual(scoredRows(frame).getColumn("expected").toArray(), ["A", "B", null]);
 * ```
 */
export function scoredRows(frame: DataFrame): DataFrame {
  const has = (c: string) => frame.columns.includes(c);
  if ((!has("status") && !has("expected")) || frame.height === 0) return frame;
  const status = has("status")
    ? pl.col("status").cast(pl.Utf8)
    : pl.lit(null).cast(pl.Utf8);
  // Whether the key is empty; a missing one (null) is not.
  const keyless = has("expected")
    ? pl.col("expected").cast(pl.Utf8).eq(pl.lit("")).fillNull(false)
    : pl.lit(false);
  const kinds = frame.select(status.alias("s"), keyless.alias("k")).unique()
    .toRecords() as { s: string | null; k: boolean }[];
  const kept = kinds.filter((kind) =>
    isScored({ status: kind.s, expected: kind.k ? "" : null })
  );
  if (kept.length === kinds.length) return frame;
  if (kept.length === 0) return frame.head(0);
  const of = (kind: { s: string | null; k: boolean }) =>
    (kind.s === null ? status.isNull() : status.eq(pl.lit(kind.s)))
      .and(keyless.eq(pl.lit(kind.k)));
  return frame.filter(
    kept.slice(1).reduce((any, kind) => any.or(of(kind)), of(kept[0]!)),
  );
}
