/**
 * Forensic classification of linear-algebra failures, after LinAlg-Bench,
 * stage 1: the taxonomy's labels and the deterministic rules that assign
 * them from the reply alone. Stages 2 and 3 (a judge model and a
 * validator) are in `forensics_judge.ts`.
 *
 * @module
 */
import { determinant, toMatrix, trace } from "../../math/matrix.ts";
import {
  type LinalgPayload,
  type LinalgProblem,
  type LinalgQuestion,
  solveProblem,
} from "./tasks.ts";
import type { Completion, Judged } from "../../types.ts";
import {
  answerMatches,
  type EigenTolerance,
  num,
  orient,
  parseListValue,
  parseMatrixValue,
  sameMultiset,
  sameRational,
} from "./_compare.ts";
import { formatRational, parseRational } from "../../math/rational.ts";

/** The paper's ten error labels. */
export const LINALG_ERROR_LABELS = [
  "sign_error",
  "arithmetic_error",
  "carry_down_error",
  "input_transcription",
  "method_error",
  "incomplete_computation",
  "hallucination",
  "formatting_mismatch",
  "generation_truncation",
  "other",
] as const;

/** The four eigenvalue extensions. */
export const EIGEN_ERROR_LABELS = [
  "constraint_fabrication",
  "characteristic_polynomial_error",
  "root_finding_error",
  "multiplicity_error",
] as const;

/** Every label a classifier may assign. */
export type LinalgErrorLabel =
  | typeof LINALG_ERROR_LABELS[number]
  | typeof EIGEN_ERROR_LABELS[number];

/** Labels that mean the model did the work and slipped. */
export const EXECUTION_LABELS: readonly LinalgErrorLabel[] = [
  "sign_error",
  "arithmetic_error",
  "carry_down_error",
  "input_transcription",
];

/** Labels that mean the model gave up on the work. */
export const ABANDONMENT_LABELS: readonly LinalgErrorLabel[] = [
  "hallucination",
  "constraint_fabrication",
  "incomplete_computation",
];

/** A label and the stage that assigned it. */
export interface ForensicLabel {
  /** The error label from the taxonomy. */
  label: LinalgErrorLabel;
  /** 1 rules, 2 LLM judge, 3 validation. */
  stage: 1 | 2 | 3;
  /** What the stage saw (the rule that fired, the judge's reason...). */
  detail: string;
}

/** A grade that could not be read: never a guess. */
export interface Unscored {
  /** Always `true`: marks a grade that could not be read. */
  unscored: true;
  /** Why the grade could not be read. */
  reason: string;
  /** The judge prompt and reply, kept for inspection. */
  prompt?: string;
  /** The judge's raw reply. */
  reply?: string;
  /**
   * Set when the call itself failed (the endpoint, not the grade): the
   * completion's error, as the provider classified it.
   */
  error?: NonNullable<Completion["error"]>;
}

const TOOL_CLAIM =
  /\b(?:I (?:ran|executed|run|used|have run|have executed)|running|executing|after running|using)\b[^.\n]{0,40}\b(?:code|python|numpy|script|sympy|calculator|tool|program|matlab|wolfram)\b|```(?:output|text|console)|\b(?:tool|code|execution|program) (?:output|result)s?\s*[:：]|\bnp\.linalg\.\w+\(|\[(?:tool|code) (?:call|output)\]/i;

/**
 * Whether a reply claims to have run code or a tool, or shows invented
 * tool output (the model had no tools).
 *
 * @param text The reply.
 * @returns True on a claim or a fake output block.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { claimsToolUse } from "./forensics.ts";
 * assert.equal(claimsToolUse("I ran the Python code: np.linalg.det(A)\nOutput: 12"), true);
 * assert.equal(claimsToolUse("Expanding along the first row gives 12."), false);
 * ```
 */
export function claimsToolUse(text: string): boolean {
  return TOOL_CLAIM.test(text);
}

function problemOf(question: LinalgQuestion): LinalgProblem | null {
  return question.payload?.problem ?? null;
}

function toleranceOf(question: LinalgQuestion): EigenTolerance {
  return question.payload?.tolerance ?? {};
}

function flat(value: string): string[] | null {
  const m = parseMatrixValue(value);
  if (m) return m.flat();
  const l = parseListValue(value);
  return l ?? [value];
}

/** Entry candidates a copying slip could produce: sign flip, ±1, neighbours, 0. */
function perturbations(
  rows: string[][],
  i: number,
  j: number,
): string[] {
  const v = parseRational(rows[i]![j]!);
  const out = new Set<string>([
    formatRational(v.neg()),
    formatRational(v.add(parseRational("1"))),
    formatRational(v.sub(parseRational("1"))),
    "0",
  ]);
  for (const [di, dj] of [[0, 1], [0, -1], [1, 0], [-1, 0]] as const) {
    const w = rows[i + di]?.[j + dj];
    if (w !== undefined) out.add(w);
  }
  out.delete(rows[i]![j]!);
  return [...out];
}

/**
 * Determinants are linear in each entry: det(A with aᵢⱼ = v) = det(A) +
 * (v − aᵢⱼ)·Cᵢⱼ, so one cofactor per entry checks every candidate.
 */
function determinantTranscription(
  problem: LinalgProblem,
  value: string,
): string | null {
  const a = toMatrix(problem.A);
  const n = a.length;
  const det = determinant(a);
  let got;
  try {
    got = parseRational(value);
  } catch {
    return null;
  }
  for (let i = 0; i < n; i++) {
    for (let j = 0; j < n; j++) {
      const minor = a.filter((_, r) => r !== i).map((row) =>
        row.filter((_, c) => c !== j)
      );
      const cof = n === 1 ? parseRational("1") : determinant(minor);
      const signed = (i + j) % 2 === 0 ? cof : cof.neg();
      for (const cand of perturbations(problem.A, i, j)) {
        const delta = parseRational(cand).sub(a[i]![j]!);
        if (det.add(delta.mul(signed)).equals(got)) {
          return `A[${i + 1},${j + 1}] read as ${cand} instead of ${
            problem.A[i]![j]
          }`;
        }
      }
    }
  }
  return null;
}

/** The answer is right for the input with one entry changed. */
function transcription(
  problem: LinalgProblem,
  value: string,
  tolerance: EigenTolerance,
): string | null {
  if (["rank", "nullity", "trace", "eigenvalue"].includes(problem.task)) {
    return null;
  }
  if (problem.task === "determinant") {
    return determinantTranscription(problem, value);
  }
  const operands: ("A" | "B" | "x")[] = ["A", "B", "x"];
  for (const name of operands) {
    const raw = problem[name];
    if (!raw) continue;
    const rows = name === "x"
      ? (raw as string[]).map((v) => [v])
      : raw as string[][];
    for (let i = 0; i < rows.length; i++) {
      for (let j = 0; j < rows[i]!.length; j++) {
        for (const cand of perturbations(rows, i, j)) {
          const changed = rows.map((r) => [...r]);
          changed[i]![j] = cand;
          const p: LinalgProblem = {
            ...problem,
            [name]: name === "x" ? changed.map((r) => r[0]!) : changed,
          };
          if (answerMatches(solveProblem(p), value, tolerance)) {
            return `${name}[${i + 1},${j + 1}] read as ${cand} instead of ${
              rows[i]![j]
            }`;
          }
        }
      }
    }
  }
  return null;
}

/**
 * Stage 1: deterministic rules for a wrong or unanswered reply, in order:
 * generation_truncation (no final answer, or finish reason "length");
 * formatting_mismatch (right values, wrong presentation); hallucination
 * (claims to have run code or a tool); for eigenvalues multiplicity_error
 * (wrong count) and constraint_fabrication (values sum to the trace or
 * multiply to the determinant, yet are wrong); sign_error (|wrong| =
 * |right| entrywise); input_transcription (right for the input with one
 * entry changed); arithmetic_error (everything else).
 *
 * @param question The question (its payload holds the problem).
 * @param completion The reply.
 * @param extraction What the extractor found.
 * @returns The label, or null when the answer is right.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { classifyLinalgError } from "./forensics.ts";
 * const problem = { id: "d", source: "generated" as const, task: "determinant" as const, n: 2, A: [["1", "2"], ["3", "4"]] };
 * const question = { id: "d", suite: "linalg", text: "", answer: { kind: "rational" as const, value: "-2" }, dims: {}, payload: { problem } };
 * const completion = { text: "\\boxed{2}", reasoning: null, finishReason: "stop", usage: { promptTokens: 1, completionTokens: 1 }, latencyMs: 0, attempts: 1 };
 * const label = classifyLinalgError({ question, completion, extraction: { value: "2", rule: "boxed", span: null, candidates: 1 } });
 * assert.equal(label?.label, "sign_error");
 * ```
 */
export function classifyLinalgError(
  judged: Judged<LinalgPayload>,
): ForensicLabel | null {
  const { question, completion, extraction } = judged;
  const rule = (label: LinalgErrorLabel, detail: string): ForensicLabel => ({
    label,
    stage: 1,
    detail,
  });
  const expected = question.answer;
  const tolerance = toleranceOf(question);
  const value = extraction.value;
  if (completion.finishReason === "length") {
    return rule("generation_truncation", 'finish reason "length"');
  }
  if (value === null) {
    return claimsToolUse(completion.text)
      ? rule("hallucination", "claims a tool run and gives no final answer")
      : rule("generation_truncation", "no final answer in the reply");
  }
  if (answerMatches(expected, value, tolerance)) return null;
  // Right values, wrong presentation.
  if (expected.kind === "matrix") {
    const got = parseMatrixValue(value);
    const want = expected.value.flat();
    const values = got?.flat() ?? flat(value) ?? [];
    if (
      values.length === want.length &&
      values.every((v, i) => sameRational(v, want[i]!))
    ) {
      return rule("formatting_mismatch", "right entries in the wrong shape");
    }
  }
  if (expected.kind === "multiset") {
    const got = parseListValue(value);
    if (got && sameMultiset(got, expected.value, { abs: 0.05 })) {
      return rule("formatting_mismatch", "right values, rounded too coarsely");
    }
  }
  if (claimsToolUse(completion.text)) {
    return rule("hallucination", "claims to have run code or a tool");
  }
  const problem = problemOf(question);
  if (expected.kind === "multiset") {
    const got = parseListValue(value) ?? [];
    if (got.length !== expected.value.length) {
      return rule(
        "multiplicity_error",
        `${got.length} eigenvalues for a ${expected.value.length}×${expected.value.length} matrix`,
      );
    }
    if (problem) {
      const a = toMatrix(problem.A);
      const tr = num(formatRational(trace(a)));
      const det = num(formatRational(determinant(a)));
      const sum = got.reduce((s, v) => s + num(v), 0);
      const prod = got.reduce((s, v) => s * num(v), 1);
      const close = (x: number, y: number) =>
        Math.abs(x - y) <= 0.05 + 1e-3 * Math.abs(y);
      if (close(sum, tr) || close(prod, det)) {
        return rule(
          "constraint_fabrication",
          `wrong eigenvalues that ${
            close(sum, tr) ? `sum to the trace ${tr}` : `multiply to det ${det}`
          }`,
        );
      }
    }
    const abs = (l: readonly string[]) =>
      l.map((v) => String(Math.abs(num(v))));
    if (sameMultiset(abs(got), abs(expected.value), tolerance)) {
      return rule("sign_error", "right magnitudes, wrong signs");
    }
    return rule("arithmetic_error", "wrong eigenvalues");
  }
  const want = expected.kind === "matrix"
    ? expected.value.flat()
    : [String(expected.value)];
  const gotRows = parseMatrixValue(value);
  const got = expected.kind === "matrix" && gotRows
    ? orient(gotRows, expected.value).flat()
    : [value];
  if (got.length === want.length) {
    const wrong = got.flatMap((v, i) => sameRational(v, want[i]!) ? [] : [i]);
    const magnitudeOnly = wrong.every((i) =>
      parseRational(got[i]!).abs().equals(parseRational(want[i]!).abs())
    );
    if (wrong.length > 0 && magnitudeOnly) {
      return rule(
        "sign_error",
        `${wrong.length} entr${
          wrong.length === 1 ? "y" : "ies"
        } with |wrong| = |right|`,
      );
    }
  }
  if (problem) {
    try {
      const where = transcription(problem, value, tolerance);
      if (where) return rule("input_transcription", where);
    } catch {
      // A malformed operand: no transcription check.
    }
  }
  return rule(
    "arithmetic_error",
    expected.kind === "matrix" && got.length !== want.length
      ? "wrong shape and values"
      : "right sign, wrong magnitude",
  );
}
