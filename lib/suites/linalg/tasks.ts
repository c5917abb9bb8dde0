/**
 * The nine LinAlg-Bench tasks, their tiers, and the exact answer of a
 * problem computed with this folder's solvers.
 *
 * @module
 */
import type { Answer, Question } from "../../types.ts";
import type { EigenTolerance } from "./_compare.ts";
import { eigenvalueList } from "../../math/eigen.ts";
import {
  determinant,
  formatMatrix,
  matMul,
  matPow,
  matVec,
  toMatrix,
  trace,
  transpose,
} from "../../math/matrix.ts";
import { formatRational } from "../../math/rational.ts";
import { nullity, rank } from "../../math/rank.ts";

/** Task names, as the LinAlg-Bench `Subcat` column spells them. */
export const LINALG_TASKS = [
  "trace",
  "transpose",
  "matrix_vector",
  "multiplication",
  "matrix_power",
  "determinant",
  "rank",
  "nullity",
  "eigenvalue",
] as const;

/** One of the nine tasks. */
export type LinalgTask = typeof LINALG_TASKS[number];

/** The paper's five tiers, from reading entries to composing procedures. */
export const LINALG_TIERS = [
  "reading",
  "arithmetic",
  "sequential",
  "recursive",
  "compositional",
] as const;

/** One of the five tiers. */
export type LinalgTier = typeof LINALG_TIERS[number];

/** The tier of each task. */
export const TASK_TIER: Readonly<Record<LinalgTask, LinalgTier>> = {
  trace: "reading",
  transpose: "reading",
  matrix_vector: "arithmetic",
  multiplication: "arithmetic",
  matrix_power: "sequential",
  determinant: "recursive",
  rank: "compositional",
  nullity: "compositional",
  eigenvalue: "compositional",
};

/** The answer kind of each task. */
export const TASK_ANSWER_KIND: Readonly<
  Record<LinalgTask, "rational" | "matrix" | "multiset">
> = {
  trace: "rational",
  transpose: "matrix",
  matrix_vector: "matrix",
  multiplication: "matrix",
  matrix_power: "matrix",
  determinant: "rational",
  rank: "rational",
  nullity: "rational",
  eigenvalue: "multiset",
};

/** A linear-algebra problem: the task and its operands as rational strings. */
export interface LinalgProblem {
  /** Stable id (`C_3x3_det_001` for LinAlg-Bench rows). */
  id: string;
  /** Where it comes from: a LinAlg-Bench row or the seeded generator. */
  source: "linalgbench" | "generated";
  /** What to compute (determinant, rank, eigenvalues...). */
  task: LinalgTask;
  /** Size of the square matrix A. */
  n: number;
  /** The matrix A, row by row. */
  A: string[][];
  /** Second factor (multiplication). */
  B?: string[][];
  /** The vector (matrix_vector). */
  x?: string[];
  /** The power (matrix_power); 2 when absent. */
  exponent?: number;
}

/** What a linear-algebra question carries besides its text and key. */
export type LinalgPayload = {
  problem: LinalgProblem;
  /** Per-question tolerance for approximate (eigenvalue) answers. */
  tolerance?: EigenTolerance;
  /** The dataset's own problem text (LinAlg-Bench `original` template). */
  original?: string;
};

/** A linear-algebra question. */
export type LinalgQuestion = Question<LinalgPayload>;

/**
 * Checks whether a string names one of the nine tasks.
 *
 * @param name Any string.
 * @returns True for a task name.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { isLinalgTask } from "./mod.ts";
 * assert.equal(isLinalgTask("determinant"), true);
 * assert.equal(isLinalgTask("inverse"), false);
 * ```
 */
export function isLinalgTask(name: string): name is LinalgTask {
  return (LINALG_TASKS as readonly string[]).includes(name);
}

/**
 * The exact answer of a problem: a rational for trace, determinant, rank
 * and nullity; a matrix for transpose, products and powers (a column for
 * matrix–vector); a multiset of eigenvalues (exact where rational, else 15
 * significant digits).
 *
 * @param problem The problem.
 * @returns The answer key.
 * @throws {TypeError} when an operand the task needs is missing.
 * @throws {RangeError} when shapes do not fit or eigenvalues are not real.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { solveProblem } from "./mod.ts";
 * const det = solveProblem({ id: "d", source: "generated", task: "determinant", n: 2, A: [["1", "2"], ["3", "4"]] });
 * assert.deepEqual(det, { kind: "rational", value: "-2" });
 * ```
 */
export function solveProblem(problem: LinalgProblem): Answer {
  const a = toMatrix(problem.A);
  switch (problem.task) {
    case "trace":
      return { kind: "rational", value: formatRational(trace(a)) };
    case "determinant":
      return { kind: "rational", value: formatRational(determinant(a)) };
    case "rank":
      return { kind: "rational", value: String(rank(a)) };
    case "nullity":
      return { kind: "rational", value: String(nullity(a)) };
    case "transpose":
      return { kind: "matrix", value: formatMatrix(transpose(a)) };
    case "matrix_power":
      return {
        kind: "matrix",
        value: formatMatrix(matPow(a, problem.exponent ?? 2)),
      };
    case "multiplication": {
      if (!problem.B) {
        throw new TypeError(`Cannot solve ${problem.id}: B is missing`);
      }
      return {
        kind: "matrix",
        value: formatMatrix(matMul(a, toMatrix(problem.B))),
      };
    }
    case "matrix_vector": {
      if (!problem.x) {
        throw new TypeError(`Cannot solve ${problem.id}: x is missing`);
      }
      const [x] = toMatrix([problem.x]);
      return {
        kind: "matrix",
        value: formatMatrix(matVec(a, x!).map((v) => [v])),
      };
    }
    case "eigenvalue":
      return { kind: "multiset", value: eigenvalueList(a) };
  }
}
