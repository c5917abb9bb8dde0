/**
 * The reviewed list of equivalent mutants: survivors that no input allowed
 * by the problem's statement can tell from the reference. They are run
 * (a listed mutant that the tests kill is reported, because the listing is
 * then wrong) but left out of the score's denominator, and every report
 * shows them with their reason. Keep this list short: a stronger test is
 * always the first answer to a survivor.
 *
 * @module
 */

/** One listed mutant: where it is and why it cannot be killed. */
export interface EquivalentMutant {
  /** Problem id. */
  problem: string;
  /** The reference's language. */
  language: "python" | "javascript";
  /** The mutant's description, e.g. "comparison > → >= at 12:16". */
  mutant: string;
  /** One line: why no valid input can observe the change. */
  reason: string;
}

/**
 * The reviewed equivalent mutants of the bank (see the module doc).
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { EQUIVALENT_MUTANTS } from "./equivalent.ts";
 * assert.ok(EQUIVALENT_MUTANTS.every((e) => e.reason.length > 0));
 * ```
 */
export const EQUIVALENT_MUTANTS: readonly EquivalentMutant[] = [
  {
    problem: "running_median",
    language: "javascript",
    mutant: "comparison > → >= at 40:34",
    reason:
      "tie-break of the max-heap's order: it only swaps equal numbers, so every heap top, and every median, is the same value",
  },
  {
    problem: "running_median",
    language: "javascript",
    mutant: "comparison < → <= at 41:35",
    reason:
      "tie-break of the min-heap's order: it only swaps equal numbers, so every heap top, and every median, is the same value",
  },
];
