/**
 * The algorithm-code suite, everything it knows in one folder: the
 * problem bank loader (`bank/`), params, questions (bank and HumanEval),
 * templates, code extraction, quality measures (`quality/`), scoring in
 * the sandbox with measured complexity, mutation testing of the bank
 * (`mutate/`), aggregation (pass@k, weighted score), report sections and
 * the sim's code-writing skill (`sim/`).
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { codeSuite, passAtKTable } from "./mod.ts";
 * assert.equal(codeSuite.baseline, "direct");
 * assert.equal(typeof passAtKTable, "function");
 * ```
 *
 * @module
 */
export * from "./suite.ts";
export * from "./params.ts";
export * from "./questions.ts";
export * from "./templates.ts";
export {
  type CodeExtraction,
  type CodeRule,
  extractCode,
  type ExtractCodeOptions,
} from "./extract.ts";
export { type PythonReader, pythonReader } from "./_extract_deps_py.ts";
export type { TopStatement } from "./_extract_deps.ts";
export * from "./score.ts";
export * from "./run.ts";
export * from "./aggregate.ts";
export * from "./report.ts";
export * from "./sections.ts";
export * from "./bank/mod.ts";
export * from "./quality/mod.ts";
export * from "./sim/mod.ts";
// Sandbox types that the signatures above refer to (`lib/sandbox` is not a
// documented entry point of its own).
export type {
  ComplexityClass as MeasuredComplexity,
  Sandbox,
  SandboxValue,
} from "../../sandbox/mod.ts";
export type { ReferenceOutputs } from "./_expected.ts";
export type { PreparedInputs } from "./_inputs.ts";
export type { VerdictMemo } from "./verdicts.ts";
