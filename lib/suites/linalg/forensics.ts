/**
 * Forensic classification of linear-algebra failures, after LinAlg-Bench:
 * stage 1 deterministic rules, stage 2 an optional LLM judge with the
 * paper's taxonomy (first-error principle), stage 3 an optional validation
 * pass that confirms or corrects a label.
 *
 * @module
 */
import { determinant, toMatrix, trace } from "../../math/matrix.ts";
import { type LinalgProblem, solveProblem } from "./tasks.ts";
import type { Provider } from "../../providers/types.ts";
import type {
  Completion,
  Extraction,
  Question,
  ResultRow,
} from "../../types.ts";
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
  label: LinalgErrorLabel;
  /** 1 rules, 2 LLM judge, 3 validation. */
  stage: 1 | 2 | 3;
  detail: string;
}

/** A grade that could not be read: never a guess. */
export interface Unscored {
  unscored: true;
  reason: string;
  /** The judge prompt and reply, kept for inspection. */
  prompt?: string;
  reply?: string;
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

function problemOf(question: Question): LinalgProblem | null {
  const p = question.payload?.["problem"];
  return p && typeof p === "object" ? p as LinalgProblem : null;
}

function toleranceOf(question: Question): EigenTolerance {
  const t = question.payload?.["tolerance"];
  return t && typeof t === "object" ? t as EigenTolerance : {};
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
 * const label = classifyLinalgError(question, completion, { value: "2", rule: "boxed", span: null, candidates: 1 });
 * assert.equal(label?.label, "sign_error");
 * ```
 */
export function classifyLinalgError(
  question: Question,
  completion: Completion,
  extraction: Extraction,
): ForensicLabel | null {
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

/** The taxonomy text shown to an LLM judge. */
export const TAXONOMY_TEXT =
  `Labels (choose exactly one, by the FIRST error in the solution):
- sign_error: a sign is dropped or flipped (e.g. a cofactor sign).
- arithmetic_error: a wrong sum or product of numbers, right method.
- carry_down_error: a correct intermediate value is copied wrongly into a later step.
- input_transcription: an entry of the given matrix is misread or miscopied.
- method_error: a wrong procedure or formula.
- incomplete_computation: the work stops or skips steps, then states an answer.
- hallucination: claims to have run code or a tool, or shows invented tool output.
- formatting_mismatch: the values are right but presented in the wrong form.
- generation_truncation: the reply ends before a final answer.
- other: none of the above.
Eigenvalue problems only:
- constraint_fabrication: values chosen to fit the trace or determinant, not computed.
- characteristic_polynomial_error: the characteristic polynomial is wrong.
- root_finding_error: the polynomial is right but its roots are wrong.
- multiplicity_error: the wrong number of eigenvalues, or a lost repeated one.`;

const ALL_LABELS: readonly string[] = [
  ...LINALG_ERROR_LABELS,
  ...EIGEN_ERROR_LABELS,
];

function readLabel(
  reply: string,
  marker: RegExp,
): LinalgErrorLabel | { reason: string } {
  const hits = [...reply.matchAll(marker)];
  if (hits.length === 0) return { reason: "no LABEL line in the grade" };
  const raw = hits[hits.length - 1]![1]!.trim().toLowerCase().replace(
    /[*`."']/g,
    "",
  );
  return ALL_LABELS.includes(raw)
    ? raw as LinalgErrorLabel
    : { reason: `unknown label "${raw}"` };
}

function gradePrompt(question: Question, completion: Completion): string {
  return [
    "You are grading a wrong solution to a linear-algebra problem. Find the FIRST error in the solution and classify it.",
    TAXONOMY_TEXT,
    `Problem:\n${question.text}`,
    `Correct answer: ${JSON.stringify(question.answer.value)}`,
    `Solution to grade:\n${completion.text}`,
    "Reply with a short reason, then a final line exactly of the form: LABEL: <label>",
  ].join("\n\n");
}

async function ask(
  provider: Provider,
  prompt: string,
): Promise<{ reply: string } | Unscored> {
  const completion = await provider.complete({
    templateId: "linalg_judge",
    messages: [{ role: "user", content: prompt }],
    params: { temperature: 0, max_tokens: 512 },
  }, { sample: 0 });
  if (completion.error) {
    return {
      unscored: true,
      reason: `judge call failed: ${completion.error.message}`,
      prompt,
    };
  }
  return { reply: completion.text };
}

/**
 * Stage 2: asks a model (any configured provider) to label the first error
 * with the paper's taxonomy. A grade it cannot parse, or a failed call, is
 * "unscored" with the reason — never a guess.
 *
 * @param provider The judge model.
 * @param question The question.
 * @param completion The reply to grade.
 * @returns The label (stage 2) or an unscored result with prompt and reply.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { judgeWithModel } from "./forensics.ts";
 * const reply = (text: string) => ({ name: "j", complete: () => Promise.resolve({ text, reasoning: null, finishReason: "stop", usage: { promptTokens: 1, completionTokens: 1 }, latencyMs: 0, attempts: 1 }) });
 * const q = { id: "q", suite: "linalg", text: "Find det.", answer: { kind: "rational" as const, value: "3" }, dims: {} };
 * const c = { text: "\\boxed{-3}", reasoning: null, finishReason: "stop", usage: { promptTokens: 1, completionTokens: 1 }, latencyMs: 0, attempts: 1 };
 * assert.deepEqual(await judgeWithModel(reply("The cofactor sign.\nLABEL: sign_error"), q, c), { label: "sign_error", stage: 2, detail: "The cofactor sign.\nLABEL: sign_error" });
 * assert.equal("unscored" in await judgeWithModel(reply("Probably arithmetic?"), q, c), true);
 * ```
 */
export async function judgeWithModel(
  provider: Provider,
  question: Question,
  completion: Completion,
): Promise<ForensicLabel | Unscored> {
  const prompt = gradePrompt(question, completion);
  const got = await ask(provider, prompt);
  if ("unscored" in got) return got;
  const label = readLabel(got.reply, /^\s*\**LABEL\**\s*[:：]\s*(.+?)\s*$/gim);
  if (typeof label !== "string") {
    return { unscored: true, reason: label.reason, prompt, reply: got.reply };
  }
  return { label, stage: 2, detail: got.reply };
}

/**
 * Stage 3: asks a model to confirm a label or correct it. Replies must end
 * with `CONFIRM` or `CORRECT: <label>`; anything else is unscored.
 *
 * @param provider The validating model.
 * @param question The question.
 * @param completion The graded reply.
 * @param label The label to check (from stage 1 or 2).
 * @returns The confirmed or corrected label (stage 3), or unscored.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { validateLabel } from "./forensics.ts";
 * const reply = (text: string) => ({ name: "v", complete: () => Promise.resolve({ text, reasoning: null, finishReason: "stop", usage: { promptTokens: 1, completionTokens: 1 }, latencyMs: 0, attempts: 1 }) });
 * const q = { id: "q", suite: "linalg", text: "Find det.", answer: { kind: "rational" as const, value: "3" }, dims: {} };
 * const c = { text: "\\boxed{4}", reasoning: null, finishReason: "stop", usage: { promptTokens: 1, completionTokens: 1 }, latencyMs: 0, attempts: 1 };
 * const fixed = await validateLabel(reply("CORRECT: input_transcription"), q, c, { label: "arithmetic_error", stage: 1, detail: "" });
 * assert.equal("label" in fixed && fixed.label, "input_transcription");
 * ```
 */
export async function validateLabel(
  provider: Provider,
  question: Question,
  completion: Completion,
  label: ForensicLabel,
): Promise<ForensicLabel | Unscored> {
  const prompt = [
    "A grader classified the FIRST error in this linear-algebra solution.",
    TAXONOMY_TEXT,
    `Problem:\n${question.text}`,
    `Correct answer: ${JSON.stringify(question.answer.value)}`,
    `Solution:\n${completion.text}`,
    `Proposed label: ${label.label} (${label.detail})`,
    "If the label is right, end with the line: CONFIRM\nOtherwise end with the line: CORRECT: <label>",
  ].join("\n\n");
  const got = await ask(provider, prompt);
  if ("unscored" in got) return got;
  const lines = got.reply.trim().split("\n");
  const lastLine = lines[lines.length - 1]?.trim() ?? "";
  if (/^\**CONFIRM(?:ED)?\**\.?$/i.test(lastLine)) {
    return { label: label.label, stage: 3, detail: `confirmed: ${got.reply}` };
  }
  const corrected = readLabel(lastLine, /CORRECT\s*[:：]\s*(.+)$/gi);
  if (typeof corrected !== "string") {
    return {
      unscored: true,
      reason: corrected.reason,
      prompt,
      reply: got.reply,
    };
  }
  return { label: corrected, stage: 3, detail: `corrected: ${got.reply}` };
}

/** The key of a result row back from its `expected` text. */
function answerOf(expected: string): Question["answer"] {
  try {
    const parsed: unknown = JSON.parse(expected);
    if (Array.isArray(parsed) && parsed.every(Array.isArray)) {
      return { kind: "matrix", value: parsed as string[][] };
    }
    if (Array.isArray(parsed)) {
      return { kind: "multiset", value: parsed.map(String) };
    }
  } catch {
    // A plain rational key.
  }
  return { kind: "rational", value: expected };
}

/** The labels of one result row after the optional stages. */
export interface RefinedLabel {
  /** The row's key. */
  key: string;
  /** The stage-1 label stored in the row. */
  stage1: string | null;
  /** The label after stages 2 and 3 (the stage-1 label when they were unscored or not run). */
  label: string | null;
  /** The stage that assigned `label`. */
  stage: 1 | 2 | 3;
  /** Why a stage left the row unscored, if one did (`"stage2: …"`). */
  unscored?: string;
}

/** Options for {@linkcode refineLabels}. */
export interface RefineLabelsOptions {
  /** Stage 2: the model that labels the first error. Skipped when absent. */
  judge?: Provider;
  /** Stage 3: the model that confirms or corrects the label. Skipped when absent. */
  validator?: Provider;
}

/**
 * Runs the optional stages 2 and 3 over the wrong linear-algebra rows of a
 * run (`ResultRow`s from `results.jsonl`), rebuilding question and reply
 * from each row. Correct rows and other suites are left out. An unscored
 * stage keeps the previous label and records why.
 *
 * @param rows Result rows.
 * @param options The judge and validator models.
 * @returns One entry per wrong linalg row, in row order.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { refineLabels } from "./forensics.ts";
 * const judge = { name: "j", complete: () => Promise.resolve({ text: "LABEL: carry_down_error", reasoning: null, finishReason: "stop", usage: { promptTokens: 1, completionTokens: 1 }, latencyMs: 0, attempts: 1 }) };
 * const row = { key: "k", suite: "linalg", status: "wrong", question: "Find det.", expected: "3", response: "\\boxed{4}", error_class: "arithmetic_error" };
 * // deno-lint-ignore no-explicit-any
 * const [out] = await refineLabels([row as any], { judge });
 * assert.deepEqual(out, { key: "k", stage1: "arithmetic_error", label: "carry_down_error", stage: 2 });
 * ```
 */
export async function refineLabels(
  rows: readonly ResultRow[],
  options: RefineLabelsOptions = {},
): Promise<RefinedLabel[]> {
  const out: RefinedLabel[] = [];
  for (const row of rows) {
    if (row.suite !== "linalg" || row.status === "correct") continue;
    if (row.status === "error") continue;
    const question: Question = {
      id: row.question_id,
      suite: row.suite,
      text: row.question,
      answer: answerOf(row.expected),
      dims: row.dims,
    };
    const completion: Completion = {
      text: row.response,
      reasoning: row.reasoning,
      finishReason: row.finish_reason,
      usage: { promptTokens: 0, completionTokens: 0 },
      latencyMs: 0,
      attempts: 1,
    };
    const entry: RefinedLabel = {
      key: row.key,
      stage1: row.error_class,
      label: row.error_class,
      stage: 1,
    };
    let current: ForensicLabel | null = row.error_class !== null &&
        ALL_LABELS.includes(row.error_class)
      ? {
        label: row.error_class as LinalgErrorLabel,
        stage: 1,
        detail: "stage-1 rule",
      }
      : null;
    if (options.judge) {
      const got = await judgeWithModel(options.judge, question, completion);
      if ("unscored" in got) entry.unscored = `stage2: ${got.reason}`;
      else current = got;
    }
    if (options.validator && current) {
      const got = await validateLabel(
        options.validator,
        question,
        completion,
        current,
      );
      if ("unscored" in got) entry.unscored = `stage3: ${got.reason}`;
      else current = got;
    }
    if (current) {
      entry.label = current.label;
      entry.stage = current.stage;
    }
    out.push(entry);
  }
  return out;
}
