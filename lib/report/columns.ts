/**
 * The check every analysis function makes first: does the frame have the
 * columns it reads?
 *
 * @module
 */
import type { DataFrame } from "./frame.ts";

/** Options of {@linkcode requireColumns}. */
export interface RequireColumnsOptions {
  /** What needs the columns, as a verb phrase ("compute pass@k"). */
  action: string;
  /**
   * The suite whose rows carry the columns, named in the advice ("load a
   * run of the code suite with loadRuns"). @default none (the advice names no suite)
   */
  suite?: string;
}

/**
 * A frame lacks columns an analysis reads: a report section skips the part
 * and says which columns the rows do not have (a run of a suite whose
 * questions came from a dataset without those dims is not broken).
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { MissingColumnsError } from "./columns.ts";
 * const e = new MissingColumnsError("Cannot x: the frame lacks a", ["a"]);
 * assert.ok(e instanceof RangeError);
 * assert.deepEqual(e.missing, ["a"]);
 * ```
 */
export class MissingColumnsError extends RangeError {
  /** Always `"MissingColumnsError"`. */
  override name = "MissingColumnsError";
  /** The columns the frame lacks. */
  readonly missing: readonly string[];

  /**
   * Makes the error.
   *
   * @param message "Cannot <action>: the frame lacks <columns>; ...".
   * @param missing The columns it lacks.
   */
  constructor(message: string, missing: readonly string[]) {
    super(message);
    this.missing = missing;
  }
}

/**
 * Throws unless the frame has every one of `columns`, naming those it
 * lacks: "Cannot <action>: the frame lacks <columns>; load a run of the
 * <suite> suite with loadRuns".
 *
 * @param frame The frame (only its column names are read).
 * @param columns The columns needed.
 * @param options What needs them (`action`, a verb phrase such as
 *   "compute pass@k") and the suite whose rows carry them, for the advice.
 * @throws {MissingColumnsError} (a RangeError) When a column is missing.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import pl from "nodejs-polars";
 * import { requireColumns } from "./columns.ts";
 * const frame = pl.DataFrame({ model: ["m"], correct: [true] });
 * requireColumns(frame, ["model", "correct"], { action: "score rows" });
 * assert.throws(
 *   () => requireColumns(frame, ["model", "problem"], { action: "compute pass@k", suite: "code" }),
 *   { name: "MissingColumnsError", message: "Cannot compute pass@k: the frame lacks problem; load a run of the code suite with loadRuns" },
 * );
 * ```
 */
export function requireColumns(
  frame: Pick<DataFrame, "columns">,
  columns: readonly string[],
  options: RequireColumnsOptions,
): void {
  const { action, suite } = options;
  const missing = columns.filter((c) => !frame.columns.includes(c));
  if (missing.length > 0) {
    throw new MissingColumnsError(
      `Cannot ${action}: the frame lacks ${missing.join(", ")}; load a run ${
        suite === undefined ? "" : `of the ${suite} suite `
      }with loadRuns`,
      missing,
    );
  }
}
