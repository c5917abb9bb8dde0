/**
 * Judges: exact rationals, numeric comparison with tolerances, error
 * forensics, and aggregates over samples (maj@k, pass@k, agreement).
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { classifyNumericError, compareNumeric, passAtK } from "./mod.ts";
 * assert.equal(compareNumeric("56088", "56088").equal, true);
 * assert.equal(classifyNumericError("56088", "5608.8").errorClass, "place_value");
 * assert.equal(passAtK(2, 1, 1), 0.5);
 * ```
 *
 * @module
 */
export * from "./rational.ts";
export * from "./numeric.ts";
export * from "./numeric_verdict.ts";
export * from "./forensics.ts";
export * from "./aggregate.ts";
export * from "./llmmath.ts";
export * from "./control.ts";
export * from "./choice.ts";
export * from "./linalg.ts";
export * from "./linalg_forensics.ts";
