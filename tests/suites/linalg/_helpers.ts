/** Shared builders for the linear-algebra judge tests. */
import {
  type LinalgProblem,
  type LinalgQuestion,
  solveProblem,
} from "../../../lib/suites/linalg/tasks.ts";
import type { Completion, Extraction } from "../../../lib/types.ts";

export function question(
  problem: LinalgProblem,
  tolerance?: { abs?: number; rel?: number },
): LinalgQuestion {
  return {
    id: problem.id,
    suite: "linalg",
    text: `Problem ${problem.id}`,
    answer: solveProblem(problem),
    dims: { task: problem.task, size: problem.n },
    payload: tolerance ? { problem, tolerance } : { problem },
  };
}

export function completion(text: string, finishReason = "stop"): Completion {
  return {
    text,
    reasoning: null,
    finishReason,
    usage: { promptTokens: 10, completionTokens: 10 },
    latencyMs: 0,
    attempts: 1,
  };
}

export function extraction(value: string | null, rule = "boxed"): Extraction {
  return {
    value,
    rule: value === null ? "none" : rule,
    span: null,
    candidates: 1,
  };
}

export const DET3: LinalgProblem = {
  id: "det3",
  source: "generated",
  task: "determinant",
  n: 3,
  A: [["-3", "5", "1"], ["-2", "-3", "9"], ["1", "1", "-6"]],
};

export const MULT2: LinalgProblem = {
  id: "mult2",
  source: "generated",
  task: "multiplication",
  n: 2,
  A: [["1", "2"], ["3", "4"]],
  B: [["5", "-6"], ["7", "8"]],
};

export const EIG3: LinalgProblem = {
  id: "eig3",
  source: "generated",
  task: "eigenvalue",
  n: 3,
  A: [["2", "0", "0"], ["0", "3", "4"], ["0", "4", "-3"]],
};

export const MATVEC3: LinalgProblem = {
  id: "mv3",
  source: "generated",
  task: "matrix_vector",
  n: 3,
  A: [["-3", "4", "-2"], ["-2", "5", "-4"], ["5", "5", "1"]],
  x: ["-4", "-4", "-2"],
};
