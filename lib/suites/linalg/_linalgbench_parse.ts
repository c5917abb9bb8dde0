/**
 * Parses LinAlg-Bench `problem_latex` and `answer_latex` cells.
 *
 * @module
 */
import {
  findMatrices,
  namedMatrices,
  parseEntry,
} from "../../extract/matrix_parse.ts";
import { isLinalgTask, type LinalgProblem, type LinalgTask } from "./tasks.ts";
import type { Answer } from "../../types.ts";

/**
 * Normalises a problem cell: some 5×5 rows hold a literal `\n` (backslash,
 * n) between two matrices instead of a line break.
 */
export function normalizeProblem(text: string): string {
  return text.replace(/\\n(?=\s*[A-Za-z]\s*=)/g, "\n");
}

/** Operands of a problem cell. */
export function parseProblem(
  id: string,
  subcat: string,
  latex: string,
): LinalgProblem {
  if (!isLinalgTask(subcat)) {
    throw new SyntaxError(`Cannot parse ${id}: unknown Subcat "${subcat}"`);
  }
  const task: LinalgTask = subcat;
  const text = normalizeProblem(latex);
  const named = namedMatrices(text);
  const A = named.get("A")?.rows ?? findMatrices(text)[0]?.rows;
  if (!A) throw new SyntaxError(`Cannot parse ${id}: no matrix A`);
  const problem: LinalgProblem = {
    id,
    source: "linalgbench",
    task,
    n: A.length,
    A,
  };
  if (task === "multiplication") {
    const B = named.get("B")?.rows;
    if (!B) throw new SyntaxError(`Cannot parse ${id}: no matrix B`);
    problem.B = B;
  }
  if (task === "matrix_vector") {
    const x = named.get("x")?.rows ?? named.get("v")?.rows;
    if (!x) throw new SyntaxError(`Cannot parse ${id}: no vector x`);
    problem.x = x.length === 1 ? x[0]! : x.map((r) => r[0]!);
  }
  if (task === "matrix_power") {
    const power = /A\s*(?:\^\s*\{?\s*(\d+)|([²³⁴⁵]))/.exec(text);
    const sup: Record<string, number> = { "²": 2, "³": 3, "⁴": 4, "⁵": 5 };
    problem.exponent = power?.[1]
      ? Number(power[1])
      : power?.[2]
      ? sup[power[2]] ?? 2
      : 2;
  }
  return problem;
}

/** The key of an `answer_latex` cell, as written (eigenvalues as decimals). */
export function parseAnswer(
  id: string,
  task: LinalgTask,
  latex: string,
): Answer {
  if (task === "eigenvalue") {
    const body = latex.replace(/^.*?=/, "");
    const values = body.split(",").map((v) => v.trim()).filter((v) => v);
    const parsed = values.map(parseEntry);
    if (parsed.length === 0 || parsed.some((v) => v === null)) {
      throw new SyntaxError(`Cannot parse ${id}: eigenvalues "${latex}"`);
    }
    return { kind: "multiset", value: values };
  }
  const matrices = findMatrices(latex);
  if (matrices.length > 0) {
    return { kind: "matrix", value: matrices[matrices.length - 1]!.rows };
  }
  const value = parseEntry(latex.slice(latex.lastIndexOf("=") + 1));
  if (value === null) {
    throw new SyntaxError(`Cannot parse ${id}: answer "${latex}"`);
  }
  return { kind: "rational", value };
}
