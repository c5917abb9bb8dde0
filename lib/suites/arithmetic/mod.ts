/**
 * The bare-arithmetic suite, everything it knows in one folder: params and
 * generators (`generate/`), the llmmath preset (`llmmath/`), templates and
 * the calculator tool, numeric scoring with error forensics, report
 * sections (`report/`) and the sim's arithmetic skill (`sim/`).
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { arithmeticSuite } from "./mod.ts";
 * assert.equal(arithmeticSuite.baseline, "direct");
 * assert.ok(arithmeticSuite.dims.some((d) => d.name === "digits" && d.kind === "numeric"));
 * ```
 *
 * @module
 */
export * from "./suite.ts";
export * from "./templates.ts";
export * from "./calculator.ts";
export * from "./score.ts";
export * from "./error_model.ts";
export * from "./forensics.ts";
export * from "./generate/mod.ts";
export * from "./llmmath/mod.ts";
export * from "./report/mod.ts";
export * from "./sim/mod.ts";
