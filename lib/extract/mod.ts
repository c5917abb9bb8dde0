/**
 * Answer extractors: find the answer in a model's free-form reply.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { extractNumber } from "./mod.ts";
 * assert.equal(extractNumber("Final answer: 1,234")?.exact, "1234");
 * ```
 *
 * @module
 */
export * from "./number.ts";
export type { NumberKind } from "./_scan.ts";
export * from "./choice.ts";
export * from "./matrix.ts";
export * from "./suite_extract.ts";
export * from "./reasoning.ts";
