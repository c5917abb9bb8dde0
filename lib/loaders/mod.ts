/**
 * Dataset loaders: C-Eval layouts and the LinAlg-Bench CSVs.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { loadLinalgBench } from "./mod.ts";
 * const rows = await loadLinalgBench("data/linalgbench");
 * assert.equal(rows.length, 660);
 * ```
 *
 * @module
 */
export * from "./ceval.ts";
export * from "./ceval_subjects.ts";
export * from "./linalgbench.ts";
