/**
 * The llmmath preset: the seven multiplication items of sanand0/llmmath.
 *
 * @module
 */
import type { Question } from "../../../types.ts";

/** The seven items, as (a, b) digit strings. */
export const LLMMATH_ITEMS: readonly (readonly [string, string])[] = [
  ["12", "12"],
  ["123", "456"],
  ["1234", "5678"],
  ["12345", "6789"],
  ["123456", "789012"],
  ["1234567", "8901234"],
  ["987654321", "123456789"],
];

/** Repeats per item in the study (use as the sweep's `samples`). */
export const LLMMATH_REPEATS = 5;

/**
 * The llmmath questions. Ids are `arithmetic/llmmath/<a>x<b>`; dims hold the
 * digit counts; render them with the `llmmath` template ("Calculate {a}
 * times {b}. Reply without commas.") and 5 samples.
 *
 * @returns Seven questions with exact BigInt products.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { llmmathQuestions } from "./questions.ts";
 * const qs = llmmathQuestions();
 * assert.equal(qs.length, 7);
 * assert.equal(qs[1]!.answer.value, "56088");
 * ```
 */
export function llmmathQuestions(): Question[] {
  return LLMMATH_ITEMS.map(([a, b], i) => ({
    id: `arithmetic/llmmath/${a}x${b}`,
    suite: "arithmetic",
    text: `What is ${a} × ${b}?`,
    answer: { kind: "rational", value: (BigInt(a) * BigInt(b)).toString() },
    dims: {
      family: "mul",
      language: "en",
      level: `d${a.length}x${b.length}`,
      digits: Math.max(a.length, b.length),
      digits_a: a.length,
      digits_b: b.length,
      carries: null,
      ops: null,
      preset: "llmmath",
      item: i + 1,
    },
    payload: { family: "mul", op: "×", a, b },
  }));
}
