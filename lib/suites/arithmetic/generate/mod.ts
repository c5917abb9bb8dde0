/**
 * Arithmetic question generators: integers with chosen carries, multi-digit
 * multiplication and division, decimals, fractions, percentages, compound
 * expressions and word problems in English and Chinese, with exact keys;
 * and frozen question sets in JSONL.
 *
 * @module
 */
export * from "./questions.ts";
export * from "./frozen.ts";
