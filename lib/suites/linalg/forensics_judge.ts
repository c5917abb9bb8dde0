/**
 * Forensic classification of linear-algebra failures, stages 2 and 3
 * (after LinAlg-Bench): a judge model labels the FIRST error of a wrong
 * solution with the paper's taxonomy, and a validator model confirms or
 * corrects the label. A grade that cannot be read is unscored, never
 * guessed. Used by the suite's scorer when its params name a `judge`
 * (and `validator`), and by `deno task forensics` on an existing run.
 *
 * @module
 */
import type { Provider } from "../../providers/types.ts";
import type { Completion, Question, ResultRow } from "../../types.ts";
import {
  EIGEN_ERROR_LABELS,
  type ForensicLabel,
  LINALG_ERROR_LABELS,
  type LinalgErrorLabel,
  type Unscored,
} from "./forensics.ts";

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
 * import { judgeWithModel } from "./forensics_judge.ts";
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
 * import { validateLabel } from "./forensics_judge.ts";
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

/** What stages 2 and 3 made of one wrong answer. */
export interface Refinement {
  /** The final label (the stage-1 label when the later stages were unscored or not run). */
  label: string | null;
  /** The stage that assigned `label`. */
  stage: 1 | 2 | 3;
  /** Why a stage left the answer unscored, if one did (`"stage2: …"`). */
  unscored?: string;
  /** The judge's and validator's replies, kept for inspection. */
  detail?: string;
}

/**
 * Runs stage 2 (judge) and stage 3 (validator), each when given, on one
 * wrong answer whose stage-1 label is `stage1`.
 *
 * @param question The question (its text and key are shown to the judge).
 * @param completion The wrong reply.
 * @param stage1 The stage-1 label, or null.
 * @param options The judge and validator providers (either may be absent).
 * @returns The final label, its stage, and why a stage was unscored.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { refineOne } from "./forensics_judge.ts";
 * const reply = (text: string) => ({ name: "j", complete: () => Promise.resolve({ text, reasoning: null, finishReason: "stop", usage: { promptTokens: 1, completionTokens: 1 }, latencyMs: 0, attempts: 1 }) });
 * const q = { id: "q", suite: "linalg", text: "Find det.", answer: { kind: "rational" as const, value: "3" }, dims: {} };
 * const c = { text: "\\boxed{4}", reasoning: null, finishReason: "stop", usage: { promptTokens: 1, completionTokens: 1 }, latencyMs: 0, attempts: 1 };
 * const out = await refineOne(q, c, "arithmetic_error", { judge: reply("LABEL: sign_error"), validator: reply("CONFIRM") });
 * assert.equal(out.label, "sign_error");
 * assert.equal(out.stage, 3);
 * const unread = await refineOne(q, c, "arithmetic_error", { judge: reply("no idea") });
 * assert.deepEqual([unread.label, unread.stage], ["arithmetic_error", 1]);
 * assert.match(unread.unscored!, /^stage2: /);
 * ```
 */
export async function refineOne(
  question: Question,
  completion: Completion,
  stage1: string | null,
  options: RefineLabelsOptions,
): Promise<Refinement> {
  let current: ForensicLabel | null = stage1 !== null &&
      ALL_LABELS.includes(stage1)
    ? { label: stage1 as LinalgErrorLabel, stage: 1, detail: "stage-1 rule" }
    : null;
  const out: Refinement = { label: stage1, stage: 1 };
  if (options.judge) {
    const got = await judgeWithModel(options.judge, question, completion);
    if ("unscored" in got) out.unscored = `stage2: ${got.reason}`;
    else current = got;
  }
  if (options.validator && current) {
    const got = await validateLabel(
      options.validator,
      question,
      completion,
      current,
    );
    if ("unscored" in got) out.unscored = `stage3: ${got.reason}`;
    else current = got;
  }
  if (current) {
    out.label = current.label;
    out.stage = current.stage;
    if (current.stage > 1) out.detail = current.detail;
  }
  return out;
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
 * import { refineLabels } from "./forensics_judge.ts";
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
    const refined = await refineOne(
      question,
      completion,
      row.error_class,
      options,
    );
    entry.label = refined.label;
    entry.stage = refined.stage;
    if (refined.unscored !== undefined) entry.unscored = refined.unscored;
    out.push(entry);
  }
  return out;
}
