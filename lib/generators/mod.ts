/**
 * Seeded, pure question generators and frozen question sets.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { generateArithmetic } from "./mod.ts";
 * const [q] = generateArithmetic({ seed: 0, families: ["sub"], digits: [5], count: 1, language: "zh" });
 * assert.match(q!.text, /^计算 \d{5} - \d{5}。$/);
 * ```
 *
 * @module
 */
export * from "./rng.ts";
export * from "./arithmetic.ts";
export * from "./llmmath.ts";
export * from "./frozen.ts";
export * from "./linalg.ts";
