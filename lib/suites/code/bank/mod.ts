/**
 * The algorithm-code problem bank (`data/code/problems`): the schema of a
 * problem, the loader that checks the format's rules, the seeded large
 * inputs and the comparison of outputs under each problem's rule.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { compareOutput, largeInput, loadBank } from "./mod.ts";
 * const bank = await loadBank();
 * const p = bank.find((q) => q.id === "squares_sorted")!;
 * const [nums] = largeInput(p, { n: p.large.sizes[0]!, seed: 7 }) as [number[]];
 * assert.equal(nums.length, p.large.sizes[0]);
 * assert.ok(compareOutput([1, 4], [1, 4], { rule: p.compare, args: [nums] }));
 * ```
 *
 * @module
 */
export { type CompareOptions, compareOutput } from "./compare.ts";
export { largeInput } from "./large.ts";
export { BUNDLED_CODE_PROBLEMS, loadBank } from "./load.ts";
export {
  CodeTestSchema,
  CompareRuleSchema,
  COMPLEXITY_CLASSES,
  DIFFICULTIES,
  ProblemFileSchema,
  TOPICS,
} from "./schema.ts";
export type { ProblemFile } from "./schema.ts";
export type {
  Checker,
  CodeProblem,
  CodeTest,
  CompareRule,
  ComplexityClass,
  Difficulty,
  LargeGenerator,
  Topic,
} from "./types.ts";
