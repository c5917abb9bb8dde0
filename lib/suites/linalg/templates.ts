/**
 * Linear-algebra prompts as in LinAlg-Bench: the task sentence, the
 * operands in one of three input formats (LaTeX `bmatrix`, a nested list,
 * a visual table), and the paper's system message and closing request.
 *
 * @module
 */
import type { LinalgProblem, LinalgQuestion, LinalgTask } from "./tasks.ts";
import type { Template } from "../types.ts";
import type { ChatMessage, Question } from "../../types.ts";

/** The three input formats. */
export const LINALG_FORMATS = ["latex", "list", "table"] as const;

/** One input format. */
export type LinalgFormat = typeof LINALG_FORMATS[number];

/** The system message: a precise assistant that shows steps and boxes the answer. */
export const LINALG_SYSTEM =
  "You are a precise mathematical assistant. Work through the problem step by step, showing all intermediate steps, and put the final answer inside \\boxed{}.";

/**
 * Writes a matrix (or, with one column, a vector) in an input format.
 *
 * @param rows Rows of entries as strings.
 * @param format `latex` (`\begin{bmatrix} … \end{bmatrix}`), `list` (`[[…], …]`; a one-column matrix as a flat list) or `table` (`| -3   5 |` rows, right-aligned).
 * @returns The text.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { renderMatrix } from "./templates.ts";
 * const m = [["-3", "5"], ["10", "1"]];
 * assert.equal(renderMatrix(m, "latex"), "\\begin{bmatrix} -3 & 5 \\\\ 10 & 1 \\end{bmatrix}");
 * assert.equal(renderMatrix(m, "list"), "[[-3, 5], [10, 1]]");
 * assert.equal(renderMatrix(m, "table"), "| -3    5 |\n| 10    1 |");
 * assert.equal(renderMatrix([["1"], ["2"]], "list"), "[1, 2]");
 * ```
 */
export function renderMatrix(
  rows: readonly (readonly string[])[],
  format: LinalgFormat,
): string {
  switch (format) {
    case "latex":
      return `\\begin{bmatrix} ${
        rows.map((r) => r.join(" & ")).join(" \\\\ ")
      } \\end{bmatrix}`;
    case "list":
      if (rows.every((r) => r.length === 1)) {
        return `[${rows.map((r) => r[0]).join(", ")}]`;
      }
      return `[${rows.map((r) => `[${r.join(", ")}]`).join(", ")}]`;
    case "table": {
      const width = Math.max(...rows.flat().map((v) => v.length));
      return rows.map((r) =>
        `| ${r.map((v) => v.padStart(width)).join("   ")} |`
      ).join("\n");
    }
  }
}

function operand(name: string, rows: string[][], format: LinalgFormat): string {
  const body = renderMatrix(rows, format);
  return format === "table" ? `${name} =\n${body}` : `${name} = ${body}`;
}

const TASK_SENTENCE: Record<LinalgTask, (n: number, k: number) => string> = {
  determinant: (n) => `Find the determinant of the ${n}×${n} matrix A.`,
  eigenvalue: (n) => `Find the eigenvalues of the ${n}×${n} matrix A.`,
  rank: (n) => `Find the rank of the ${n}×${n} matrix A.`,
  nullity: (n) => `Find the nullity of the ${n}×${n} matrix A.`,
  trace: (n) => `Find the trace of the ${n}×${n} matrix A.`,
  transpose: (n) => `Find the transpose of the ${n}×${n} matrix A.`,
  matrix_vector: (n) =>
    `Compute the matrix-vector product b = A·x for the ${n}×${n} matrix A and vector x.`,
  multiplication: (n) =>
    `Compute the product AB for the given ${n}×${n} matrices A and B.`,
  matrix_power: (n, k) =>
    k === 2
      ? `Compute A² = A × A for the ${n}×${n} matrix A.`
      : `Compute A^${k} for the ${n}×${n} matrix A.`,
};

/** The paper's closing request per task (shown by the `paper` template). */
export const TASK_CLOSING: Readonly<Record<LinalgTask, string>> = {
  determinant:
    "Show all intermediate steps. Put your final numerical answer inside \\boxed{}.",
  eigenvalue:
    "Show all intermediate steps. Put your final numerical answer inside \\boxed{}.",
  rank:
    "Show all intermediate steps. Put your final numerical answer inside \\boxed{}.",
  nullity:
    "Show all intermediate steps. Put your final numerical answer inside \\boxed{}.",
  trace:
    "Show all intermediate steps. Put your final numerical answer inside \\boxed{}.",
  transpose:
    "The transpose A^T is obtained by swapping rows and columns.\nWrite out A^T explicitly. Put the final matrix inside \\boxed{}.",
  matrix_vector:
    "Compute each entry of b by taking the dot product of each row of A with x.\nShow your steps. Put the final vector b inside \\boxed{}.",
  multiplication:
    "Show all intermediate steps. Put your final numerical answer inside \\boxed{}.",
  matrix_power:
    "Multiply A by itself. Show all row-by-column steps.\nPut the final result matrix inside \\boxed{}.",
};

/**
 * The problem statement (task sentence and operands) in an input format,
 * without the closing request.
 *
 * @param problem The problem.
 * @param format The input format.
 * @returns The statement.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { problemStatement } from "./templates.ts";
 * const text = problemStatement({ id: "t", source: "generated", task: "trace", n: 2, A: [["1", "2"], ["3", "4"]] }, "list");
 * assert.equal(text, "Find the trace of the 2×2 matrix A.\n\nA = [[1, 2], [3, 4]]");
 * ```
 */
export function problemStatement(
  problem: LinalgProblem,
  format: LinalgFormat,
): string {
  const parts = [
    TASK_SENTENCE[problem.task](problem.n, problem.exponent ?? 2),
    operand("A", problem.A, format),
  ];
  if (problem.B) parts.push(operand("B", problem.B, format));
  if (problem.x) {
    parts.push(operand("x", problem.x.map((v) => [v]), format));
  }
  return parts.join("\n\n");
}

function taskOf(question: Question): LinalgTask | null {
  const task = question.dims["task"];
  return typeof task === "string" && task in TASK_CLOSING
    ? task as LinalgTask
    : null;
}

function template(
  id: string,
  description: string,
  closing: (task: LinalgTask | null) => string,
): Template {
  return {
    id,
    description,
    render(question: Question): ChatMessage[] {
      return [
        { role: "system", content: LINALG_SYSTEM },
        {
          role: "user",
          content: `${question.text}\n\n${closing(taskOf(question))}`,
        },
      ];
    },
  };
}

/** The linear-algebra templates by id. */
export const LINALG_TEMPLATES: Readonly<Record<string, Template>> = {
  paper: template(
    "paper",
    "LinAlg-Bench: system message, task and operands, the paper's closing request (steps, \\boxed{}).",
    (task) =>
      task
        ? TASK_CLOSING[task]
        : "Show all intermediate steps. Put your final answer inside \\boxed{}.",
  ),
  original: {
    id: "original",
    description:
      "LinAlg-Bench as published: the dataset's own problem text (matrices-only cells get the task sentence and the paper's closing request); generated problems fall back to `paper`.",
    render(question: Question): ChatMessage[] {
      const { original, problem } = (question as LinalgQuestion).payload ??
        {};
      if (original === undefined) {
        return LINALG_TEMPLATES.paper!.render(question);
      }
      // Matrices-only cells (the 4×4 file) get the task sentence and closing.
      const content = /\\boxed/.test(original) || problem === undefined
        ? original
        : `${
          TASK_SENTENCE[problem.task](problem.n, problem.exponent ?? 2)
        }\n\n${original}\n\n${TASK_CLOSING[problem.task]}`;
      return [
        { role: "system", content: LINALG_SYSTEM },
        { role: "user", content },
      ];
    },
  },
  answer_only: template(
    "answer_only",
    "Same system message; asks for the final answer only, inside \\boxed{}.",
    () => "Give only the final answer inside \\boxed{}, without working.",
  ),
};
