/**
 * How the sim's linear-algebra answers go wrong: execution errors on
 * small matrices (sign flips, arithmetic slips, dropped cofactor terms,
 * misread entries) and abandonment on large ones (claimed code runs with
 * invented output, fabricated values that satisfy a surface constraint).
 *
 * @module
 */
import { fraction } from "../../../math/rational.ts";
import { formatRational, parseRational } from "../../../math/rational.ts";
import { determinant, toMatrix, trace } from "../../../math/matrix.ts";
import { type LinalgProblem, solveProblem } from "../tasks.ts";
import type { Answer } from "../../../types.ts";
import { intBetween, pick, type Uniform } from "../../../providers/sim/rng.ts";

/** A wrong answer and the working lines that led to it. */
export interface Mistake {
  answer: Answer;
  kind: string;
  steps: string[];
}

function nonZero(rng: Uniform, lo: number, hi: number): number {
  const v = intBetween(rng, lo, hi);
  return v === 0 ? hi : v;
}

function shift(value: string, delta: number): string {
  return formatRational(parseRational(value).add(fraction(BigInt(delta))));
}

function negate(value: string): string {
  return formatRational(parseRational(value).neg());
}

/** One entry of a matrix answer changed. */
function mutateEntry(
  m: string[][],
  rng: Uniform,
  change: (v: string) => string,
): string[][] {
  const out = m.map((r) => [...r]);
  for (let tries = 0; tries < 20; tries++) {
    const i = intBetween(rng, 0, out.length - 1);
    const j = intBetween(rng, 0, out[0]!.length - 1);
    const next = change(out[i]![j]!);
    if (next !== out[i]![j]) {
      out[i]![j] = next;
      return out;
    }
  }
  out[0]![0] = shift(out[0]![0]!, 1);
  return out;
}

function sameAnswer(a: Answer, b: Answer): boolean {
  return JSON.stringify(a.value) === JSON.stringify(b.value);
}

function misread(problem: LinalgProblem, rng: Uniform): LinalgProblem {
  const A = problem.A.map((r) => [...r]);
  const i = intBetween(rng, 0, A.length - 1);
  const j = intBetween(rng, 0, A.length - 1);
  A[i]![j] = pick(rng, [
    negate(A[i]![j]!),
    shift(A[i]![j]!, nonZero(rng, -1, 1)),
  ]);
  return { ...problem, A };
}

/** An execution error: the method is right, one step slips. */
export function executionError(
  problem: LinalgProblem,
  truth: Answer,
  rng: Uniform,
): Mistake {
  const u = rng();
  if (u < 0.15 && problem.task !== "rank" && problem.task !== "nullity") {
    let wrong: Answer | null = null;
    try {
      wrong = solveProblem(misread(problem, rng));
    } catch {
      // The misread matrix has non-real eigenvalues: slip another way.
    }
    if (wrong && !sameAnswer(wrong, truth)) {
      return {
        answer: wrong,
        kind: "input_transcription",
        steps: ["Copying the matrix entries into the working."],
      };
    }
  }
  switch (truth.kind) {
    case "rational": {
      if (problem.task === "rank" || problem.task === "nullity") {
        const n = problem.n;
        const v = Number(truth.value);
        const next = v + (v >= n ? -1 : v <= 0 ? 1 : pick(rng, [-1, 1]));
        return {
          answer: { kind: "rational", value: String(next) },
          kind: "arithmetic_error",
          steps: ["Row reducing, one row did not cancel as expected."],
        };
      }
      if (problem.task === "determinant" && u < 0.4 && problem.n <= 6) {
        // A dropped cofactor term along the first row.
        const a = toMatrix(problem.A);
        const j = intBetween(rng, 0, problem.n - 1);
        const minor = a.slice(1).map((r) => r.filter((_, k) => k !== j));
        const sign = j % 2 === 0 ? 1n : -1n;
        const term = a[0]![j]!.mul(determinant(minor)).mul(fraction(sign));
        const wrong = parseRational(truth.value).sub(term);
        if (term.n !== 0n) {
          return {
            answer: { kind: "rational", value: formatRational(wrong) },
            kind: "dropped_term",
            steps: [
              `Expanding along the first row (the term for column ${
                j + 1
              } was left out).`,
            ],
          };
        }
      }
      if (u < 0.65 && truth.value !== "0") {
        return {
          answer: { kind: "rational", value: negate(truth.value) },
          kind: "sign_error",
          steps: ["Applying the cofactor signs (+, −, +, …)."],
        };
      }
      return {
        answer: {
          kind: "rational",
          value: shift(truth.value, nonZero(rng, -12, 12)),
        },
        kind: "arithmetic_error",
        steps: ["Adding up the partial products."],
      };
    }
    case "matrix": {
      const flip = u < 0.5;
      return {
        answer: {
          kind: "matrix",
          value: mutateEntry(
            truth.value,
            rng,
            flip ? negate : (v) => shift(v, nonZero(rng, -6, 6)),
          ),
        },
        kind: flip ? "sign_error" : "arithmetic_error",
        steps: ["Taking the dot products row by column."],
      };
    }
    case "multiset": {
      const values = [...truth.value];
      const k = intBetween(rng, 0, values.length - 1);
      values[k] = String(
        Number((Number(values[k]) + nonZero(rng, -3, 3) * 0.37).toFixed(4)),
      );
      return {
        answer: { kind: "multiset", value: values },
        kind: "root_finding_error",
        steps: ["Solving the characteristic polynomial numerically."],
      };
    }
    default:
      return { answer: truth, kind: "none", steps: [] };
  }
}

/** Values that sum to the trace (and look like eigenvalues) but are wrong. */
function fabricatedEigenvalues(problem: LinalgProblem, rng: Uniform): string[] {
  const tr = Number(trace(toMatrix(problem.A)).valueOf());
  const n = problem.n;
  const vals = Array.from(
    { length: n - 1 },
    () => Number((rng() * 16 - 8).toFixed(2)),
  );
  vals.push(Number((tr - vals.reduce((s, v) => s + v, 0)).toFixed(2)));
  return vals.map(String);
}

function fabricated(
  problem: LinalgProblem,
  truth: Answer,
  rng: Uniform,
): Answer {
  switch (truth.kind) {
    case "rational": {
      if (problem.task === "rank") {
        return { kind: "rational", value: String(problem.n) };
      }
      if (problem.task === "nullity") return { kind: "rational", value: "0" };
      const t = Number(parseRational(truth.value).valueOf());
      const scale = Math.max(10, Math.abs(t));
      const v = Math.round((rng() * 2 - 1) * scale);
      return { kind: "rational", value: String(v === t ? v + 7 : v) };
    }
    case "matrix":
      return {
        kind: "matrix",
        value: truth.value.map((r) =>
          r.map((v) => shift(v, intBetween(rng, -9, 9)))
        ),
      };
    case "multiset":
      return { kind: "multiset", value: fabricatedEigenvalues(problem, rng) };
    default:
      return truth;
  }
}

/** Abandonment: invented tool output, or values fitted to a surface constraint. */
export function abandonment(
  problem: LinalgProblem,
  truth: Answer,
  rng: Uniform,
  writeAnswer: (a: Answer) => string,
): Mistake {
  const answer = fabricated(problem, truth, rng);
  if (problem.task === "eigenvalue" && rng() < 0.5) {
    return {
      answer,
      kind: "constraint_fabrication",
      steps: [
        `The characteristic polynomial of a ${problem.n}×${problem.n} matrix is long to expand by hand.`,
        `The eigenvalues must sum to the trace, tr(A) = ${
          formatRational(trace(toMatrix(problem.A)))
        }.`,
        `Taking values consistent with this: ${writeAnswer(answer)}.`,
      ],
    };
  }
  const call = {
    determinant: "np.linalg.det(A)",
    eigenvalue: "np.linalg.eigvals(A)",
    rank: "np.linalg.matrix_rank(A)",
    nullity: "A.shape[1] - np.linalg.matrix_rank(A)",
    trace: "np.trace(A)",
    transpose: "A.T",
    matrix_vector: "A @ x",
    multiplication: "A @ B",
    matrix_power: "np.linalg.matrix_power(A, 2)",
  }[problem.task];
  return {
    answer,
    kind: "hallucination",
    steps: [
      "This computation is long, so I ran it in Python with NumPy:",
      "```python",
      "import numpy as np",
      `print(${call})`,
      "```",
      "```output",
      writeAnswer(answer),
      "```",
      "The code output gives the result.",
    ],
  };
}
