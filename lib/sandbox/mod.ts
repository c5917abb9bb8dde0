/**
 * Sandboxed code execution (placeholder doc, expanded below).
 *
 * @module
 */
export {
  closeSandbox,
  createSandbox,
  measureComplexity,
  runCode,
} from "./sandbox.ts";
export type { Sandbox } from "./sandbox.ts";
export * from "./types.ts";
export { sameValue } from "./same_value.ts";
export type { SameValueRule } from "./same_value.ts";
export {
  HUMANEVAL_PATH,
  humanEvalProgram,
  loadHumanEval,
  runHumanEval,
} from "./humaneval.ts";
export type {
  HumanEvalOptions,
  HumanEvalOutcome,
  HumanEvalProblem,
} from "./humaneval.ts";
export type {
  BatchProgram,
  ProgramResult,
  ProgramsRequest,
  ProgramsResult,
} from "./_run.ts";
