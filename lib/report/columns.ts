/**
 * The check every analysis function makes first: does the frame have the
 * columns it reads?
 *
 * @module
 */
import type { DataFrame } from "./frame.ts";

/** Options of {@linkcode requireColumns}. */
export interface RequireColumnsOptions {
  /**
   * The suite whose rows carry the columns, named in the advice ("load a
   * run of the code suite with loadRuns"). @default none (the advice names no suite)
   */
  suite?: string;
}

/**
 * Throws unless the frame has every one of `columns`, naming those it
 * lacks: "Cannot <action>: the frame lacks <columns>; load a run of the
 * <suite> suite with loadRuns".
 *
 * @param frame The frame (only its column names are read).
 * @param columns The columns needed.
 * @param action What needs them, as a verb phrase ("compute pass@k").
 * @param options The suite whose rows carry them, for the advice.
 * @throws {RangeError} When a column is missing.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import pl from "nodejs-polars";
 * import { requireColumns } from "./columns.ts";
 * const frame = pl.DataFrame({ model: ["m"], correct: [true] });
 * requireColumns(frame, ["model", "correct"], "score rows");
 * assert.throws(
 *   () => requireColumns(frame, ["model", "problem"], "compute pass@k", { suite: "code" }),
 *   { name: "RangeError", message: "Cannot compute pass@k: the frame lacks problem; load a run of the code suite with loadRuns" },
 * );
 * ```
 */
export function requireColumns(
  frame: Pick<DataFrame, "columns">,
  columns: readonly string[],
  action: string,
  options: RequireColumnsOptions = {},
): void {
  const { suite } = options;
  const missing = columns.filter((c) => !frame.columns.includes(c));
  if (missing.length > 0) {
    throw new RangeError(
      `Cannot ${action}: the frame lacks ${missing.join(", ")}; load a run ${
        suite === undefined ? "" : `of the ${suite} suite `
      }with loadRuns`,
    );
  }
}
