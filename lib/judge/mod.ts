/**
 * Generic judging: numeric comparison of exact rationals with tolerances,
 * aggregates over samples (maj@k, pass@k, agreement), the status ladder
 * with the one rule for which rows are scored, the Wilson interval, and
 * the headline metrics a suite declares (`metric.ts`). Each suite's
 * own scoring and forensics live in its folder under `lib/suites/`.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { compareNumeric, passAtK } from "./mod.ts";
 * assert.equal(compareNumeric("56088", "56088").equal, true);
 * assert.equal(passAtK({ n: 2, c: 1, k: 1 }), 0.5);
 * ```
 *
 * @module
 */
export * from "./numeric.ts";
export * from "./aggregate.ts";
export * from "./status.ts";
export * from "./wilson.ts";
export * from "./metric.ts";
export * from "./number_judge.ts";
