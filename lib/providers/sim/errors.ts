/**
 * Errors callers of the simulated model are meant to catch.
 *
 * @module
 */

/**
 * Thrown when a request names a model no sim profile has. A
 * `RangeError`: the model name is outside the known set. The HTTP server
 * maps it to a 404 `model_not_found`.
 *
 * @example Catching an unknown model
 * ```ts
 * import assert from "node:assert/strict";
 * import { SimModelError } from "./mod.ts";
 *
 * const error = new SimModelError("gpt-x", ["sim-strong"]);
 * assert.ok(error instanceof RangeError);
 * assert.deepEqual(error.known, ["sim-strong"]);
 * ```
 */
export class SimModelError extends RangeError {
  /** The model name that was asked for. */
  readonly model: string;
  /** The profile names that exist. */
  readonly known: readonly string[];

  /**
   * The error for a model name the sim has no profile of.
   *
   * @param model The unknown model name.
   * @param known The known profile names.
   */
  constructor(model: string, known: readonly string[]) {
    super(
      `Cannot simulate model "${model}": unknown profile; known profiles: ${
        known.join(", ")
      }`,
    );
    this.name = "SimModelError";
    this.model = model;
    this.known = known;
  }
}
