/**
 * Generic judging: numeric comparison of exact rationals with tolerances,
 * and aggregates over samples (maj@k, pass@k, agreement). Each suite's
 * own scoring and forensics live in its folder under `lib/suites/`.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { compareNumeric, passAtK } from "./mod.ts";
 * assert.equal(compareNumeric("56088", "56088").equal, true);
 * assert.equal(passAtK(2, 1, 1), 0.5);
 * ```
 *
 * @module
 */
export * from "./numeric.ts";
export * from "./aggregate.ts";
export * from "./status.ts";
