/**
 * Private helpers of the arithmetic analysis: column checks and row
 * accessors.
 *
 * @module
 */
import type { DataFrame } from "../../../report/mod.ts";

export type Row = Record<string, unknown>;

export const str = (c: string) => (d: Row) => String(d[c]);

export function requireColumns(
  frame: DataFrame,
  columns: readonly string[],
  what: string,
): void {
  const missing = columns.filter((c) => !frame.columns.includes(c));
  if (missing.length > 0) {
    throw new RangeError(
      `Cannot build ${what}: the frame lacks ${
        missing.join(", ")
      } (load a run of the arithmetic suite with loadRuns)`,
    );
  }
}
