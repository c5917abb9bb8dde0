/**
 * Prompt templates: generic builders and the arithmetic templates.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { ARITHMETIC_TEMPLATES } from "./mod.ts";
 * const q = { id: "q", suite: "arithmetic", text: "计算 2 + 2。", answer: { kind: "rational" as const, value: "4" }, dims: {} };
 * assert.equal(ARITHMETIC_TEMPLATES.direct_zh!.render(q)[0]!.content, "计算 2 + 2。\n只输出数字。");
 * ```
 *
 * @module
 */
export * from "./template.ts";
export * from "./arithmetic.ts";
export * from "./ceval.ts";
export * from "./linalg.ts";
