/**
 * Prompt templates: the generic factories every suite builds its templates
 * from (an instruction after the question, few-shot turns).
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { instructionTemplate } from "./mod.ts";
 * const t = instructionTemplate({ id: "direct", description: "", instruction: "Answer with the number only." });
 * const [m] = t.render({ id: "q", suite: "s", text: "2+2?", answer: { kind: "rational", value: "4" }, dims: {} });
 * assert.equal(m?.content, "2+2?\nAnswer with the number only.");
 * ```
 *
 * @module
 */
export * from "./template.ts";
