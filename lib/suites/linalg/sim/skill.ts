/**
 * The linear-algebra skill: reads a LinAlg-Bench style problem from the
 * prompt (the task sentence and the matrices, in LaTeX, nested-list or
 * table form), computes the exact answer, and errs with size-dependent
 * probability calibrated on LinAlg-Bench: 3×3 determinants near perfect for
 * strong profiles; at 5×5 the top tier keeps ≥74%, the middle 36–54%, the
 * weak 0–12%; 5×5 eigenvalues near 0% for all. Small matrices fail by
 * execution errors (sign flips, slips, dropped terms, misread entries);
 * from 4×4 failures turn into abandonment (claimed code runs with invented
 * output, eigenvalues fitted to the trace).
 *
 * @module
 */
import { namedMatrices } from "../../../extract/matrix_parse.ts";
import { type LinalgProblem, type LinalgTask, solveProblem } from "../tasks.ts";
import type { Answer } from "../../../types.ts";
import { passes } from "../../../providers/sim/skills/chance.ts";
import { abandonment, executionError } from "./_mistakes.ts";
import {
  defineSkill,
  type RegisteredSkill,
  type SkillAnswer,
  type SkillInput,
} from "../../../providers/sim/skills/types.ts";

const TASK_CUES: [LinalgTask, RegExp][] = [
  ["eigenvalue", /\beigenvalues?\b/i],
  ["nullity", /\bnullity\b/i],
  ["rank", /\brank\b/i],
  ["determinant", /\bdeterminant\b/i],
  ["trace", /\btrace\b/i],
  ["transpose", /\btranspose\b/i],
  [
    "matrix_vector",
    /matrix[- ]vector|\bA\s*[·⋅*]?\s*x\b|\band\s+(?:the\s+)?vector\b/i,
  ],
  [
    "multiplication",
    /\bproduct\s+(?:of\s+)?AB\b|\bmatrices\s+A\s+and\s+B\b|\bA\s*[×·*]\s*B\b/i,
  ],
  ["matrix_power", /\bA\s*(?:²|\^\s*\{?\s*\d)/],
];

/**
 * Effective size on the calibration scale (an n×n-digit product is n) of
 * one problem, so that `passChance` gives the paper's tiers: sim-strong /
 * sim-reasoner top, sim-average middle, sim-weak bottom.
 */
export function linalgDifficulty(task: LinalgTask, n: number): number {
  const k = n - 3;
  switch (task) {
    case "trace":
      return 0.4 + 0.1 * n;
    case "transpose":
      return 0.5 + 0.15 * n;
    case "matrix_vector":
      return 0.8 + 0.35 * n;
    case "multiplication":
      return 0.9 + 0.5 * n;
    case "matrix_power":
      return 1 + 0.45 * n;
    case "rank":
    case "nullity":
      return 1.5 + 1.2 * k;
    case "determinant":
      return 1.5 + 1.95 * k;
    case "eigenvalue":
      return 4 + 3.75 * k;
  }
}

/** Reading a table costs a little more than LaTeX; a list a little less. */
const FORMAT_COST = { latex: 0, list: -0.1, table: 0.4 } as const;

interface LinalgTaskRead {
  problem: LinalgProblem;
  format: keyof typeof FORMAT_COST;
}

function readTask(question: string): LinalgTaskRead | null {
  const firstLine = question.split("\n").find((l) => l.trim() !== "") ?? "";
  const task = TASK_CUES.find(([, re]) => re.test(firstLine))?.[0] ??
    TASK_CUES.find(([, re]) => re.test(question))?.[0];
  if (!task) return null;
  const named = namedMatrices(question);
  const a = named.get("A");
  if (!a || a.rows.length !== a.rows[0]!.length || a.rows.length < 2) {
    return null;
  }
  const problem: LinalgProblem = {
    id: "prompt",
    source: "generated",
    task,
    n: a.rows.length,
    A: a.rows,
  };
  if (task === "multiplication") {
    const b = named.get("B");
    if (!b) return null;
    problem.B = b.rows;
  }
  if (task === "matrix_vector") {
    const x = named.get("x") ?? named.get("v");
    if (!x) return null;
    problem.x = x.rows.length === 1 ? x.rows[0]! : x.rows.map((r) => r[0]!);
  }
  if (task === "matrix_power") {
    const k = /A\s*\^\s*\{?\s*(\d+)/.exec(question);
    problem.exponent = k ? Number(k[1]) : 2;
  }
  const form = a.form === "list" || a.form === "table" ? a.form : "latex";
  return { problem, format: form };
}

function writeAnswer(answer: Answer): string {
  switch (answer.kind) {
    case "matrix":
      return `\\begin{bmatrix} ${
        answer.value.map((r) => r.join(" & ")).join(" \\\\ ")
      } \\end{bmatrix}`;
    case "multiset":
      return answer.value.map((v) =>
        /^-?\d+$/.test(v) ? v : Number(v).toFixed(4)
      ).join(", ");
    default:
      return String(answer.value);
  }
}

function workingLines(problem: LinalgProblem): string[] {
  const n = problem.n;
  const what: Record<LinalgTask, string> = {
    trace: "Summing the diagonal entries.",
    transpose: "Swapping rows and columns: row i of A becomes column i.",
    matrix_vector: "Taking the dot product of each row of A with x.",
    multiplication: "Computing each entry as row of A times column of B.",
    matrix_power: "Multiplying A by itself, row by column.",
    determinant: "Expanding by cofactors / row reduction.",
    rank: "Row reducing A to echelon form and counting pivots.",
    nullity: "Row reducing A; nullity = n − rank.",
    eigenvalue:
      "Forming det(A − λI) and solving the characteristic polynomial.",
  };
  const lines = [what[problem.task]];
  for (let i = 1; i <= n; i++) {
    lines.push(`Row ${i}: working through the entries.`);
  }
  return lines;
}

function solve(read: LinalgTaskRead, input: SkillInput): SkillAnswer {
  const { problem, format } = read;
  const { rng, profile } = input;
  const difficulty = linalgDifficulty(problem.task, problem.n) +
    FORMAT_COST[format];
  let truth: Answer;
  try {
    truth = solveProblem(problem);
  } catch {
    return { answer: null, numeric: false, steps: [], difficulty };
  }
  const base = { numeric: truth.kind === "rational", difficulty };
  if (passes(input, difficulty)) {
    return {
      ...base,
      answer: writeAnswer(truth),
      steps: workingLines(problem),
    };
  }
  // The kind of failure changes at the 4×4 threshold: weaker profiles and
  // larger matrices abandon the computation instead of slipping in it.
  const n = problem.n;
  const abandonRate = n <= 3
    ? 0.05
    : Math.min(0.95, 0.35 + 0.25 * (n - 4) - 0.05 * profile.skillShift);
  const mistake = rng() < abandonRate
    ? abandonment(problem, truth, rng, writeAnswer)
    : executionError(problem, truth, rng);
  return {
    ...base,
    answer: writeAnswer(mistake.answer),
    steps: [...workingLines(problem), ...mistake.steps],
  };
}

/** The linear-algebra skill for the registry. */
export const linalgSkill: RegisteredSkill = defineSkill<LinalgTaskRead>({
  name: "linalg",
  match({ question }) {
    if (!/matri(?:x|ces)/i.test(question)) return null;
    return readTask(question);
  },
  solve,
});
