/**
 * The loaded problem: its `problem.json` plus the solution sources and the
 * large-input generator.
 *
 * @module
 */
import type {
  CodeTest,
  CompareRule,
  ComplexityClass,
  Difficulty,
  Topic,
} from "./schema.ts";

/** `large.js`: the argument list for input size n; `rng()` gives floats in [0, 1). */
export type LargeGenerator = (n: number, rng: () => number) => unknown[];

/** `checker.js`: whether `output` is a valid answer for `args`. */
export type Checker = (args: unknown[], output: unknown) => boolean;

/** One problem of the bank, ready to run. */
export interface CodeProblem {
  /**
   * A hash of the files that decide a verdict (`problem.json`, the
   * references, `large.js`, `checker.js`): verdicts cached under another
   * version are not reused.
   */
  version: string;
  /** The snake_case id (the folder's name; question ids start with it). */
  id: string;
  /** A short English title. */
  title: string;
  /** The problem's topic. */
  topic: Topic;
  /** The problem's difficulty. */
  difficulty: Difficulty;
  /** The required time complexity. */
  complexity: ComplexityClass;
  /**
   * The class the reference shows on the large inputs: `complexity`
   * unless `problem.json` says `reference_complexity` (never worse).
   */
  referenceComplexity: ComplexityClass;
  /** The class of the naive solution (worse than `complexity`). */
  naiveComplexity: ComplexityClass;
  /** Entry function names. */
  entry: { python: string; javascript: string };
  /** Signatures shown to the model. */
  signature: { python: string; javascript: string; typescript: string };
  /** The problem statement in English and in Simplified Chinese. */
  statement: { en: string; zh: string };
  /** How a candidate's output is compared with the reference's. */
  compare: CompareRule;
  /** The functional and edge tests, in file order. */
  tests: CodeTest[];
  /**
   * Large inputs: the sizes `generateLarge` is called with, and the time
   * (ms) a candidate may take on the largest input.
   */
  large: { sizes: number[]; timeLimitMs: number };
  /** Reference solutions (source text). */
  reference: { python: string; javascript: string };
  /** Naive solutions (source text), at least one. */
  naive: { python?: string; javascript?: string };
  /** The large-input generator of `large.js`. */
  generateLarge: LargeGenerator;
  /** The checker of `checker.js`, present exactly when compare is "checker". */
  checker?: Checker;
  /** The problem's folder (absolute path). */
  dir: string;
}

export type { CodeTest, CompareRule, ComplexityClass, Difficulty, Topic };
