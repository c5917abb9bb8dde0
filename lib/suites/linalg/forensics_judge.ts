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
import type {
  Completion,
  ErrorKind,
  Question,
  ResultRow,
} from "../../types.ts";
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
      error: completion.error,
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
 * @param reply The `question` and the `completion` to grade.
 * @returns The label (stage 2) or an unscored result with prompt and reply.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { judgeWithModel } from "./forensics_judge.ts";
 * const reply = (text: string) => ({ name: "j", complete: () => Promise.resolve({ text, reasoning: null, finishReason: "stop", usage: { promptTokens: 1, completionTokens: 1 }, latencyMs: 0, attempts: 1 }) });
 * const q = { id: "q", suite: "linalg", text: "Find det.", answer: { kind: "rational" as const, value: "3" }, dims: {} };
 * const c = { text: "\\boxed{-3}", reasoning: null, finishReason: "stop", usage: { promptTokens: 1, completionTokens: 1 }, latencyMs: 0, attempts: 1 };
 * assert.deepEqual(await judgeWithModel(reply("The cofactor sign.\nLABEL: sign_error"), { question: q, completion: c }), { label: "sign_error", stage: 2, detail: "The cofactor sign.\nLABEL: sign_error" });
 * assert.equal("unscored" in await judgeWithModel(reply("Probably arithmetic?"), { question: q, completion: c }), true);
 * ```
 */
export async function judgeWithModel(
  provider: Provider,
  { question, completion }: { question: Question; completion: Completion },
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
 * @param graded The `question`, the graded reply (`completion`) and the
 *   `label` to check (from stage 1 or 2).
 * @returns The confirmed or corrected label (stage 3), or unscored.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { validateLabel } from "./forensics_judge.ts";
 * const reply = (text: string) => ({ name: "v", complete: () => Promise.resolve({ text, reasoning: null, finishReason: "stop", usage: { promptTokens: 1, completionTokens: 1 }, latencyMs: 0, attempts: 1 }) });
 * const q = { id: "q", suite: "linalg", text: "Find det.", answer: { kind: "rational" as const, value: "3" }, dims: {} };
 * const c = { text: "\\boxed{4}", reasoning: null, finishReason: "stop", usage: { promptTokens: 1, completionTokens: 1 }, latencyMs: 0, attempts: 1 };
 * const fixed = await validateLabel(reply("CORRECT: input_transcription"), { question: q, completion: c, label: { label: "arithmetic_error", stage: 1, detail: "" } });
 * assert.equal("label" in fixed && fixed.label, "input_transcription");
 * ```
 */
export async function validateLabel(
  provider: Provider,
  { question, completion, label }: {
    question: Question;
    completion: Completion;
    label: ForensicLabel;
  },
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

/** A judge or validator call that failed: the endpoint, not the grade. */
export interface ForensicFailure {
  /** The stage whose call failed: 2 the judge, 3 the validator. */
  stage: 2 | 3;
  /** How the provider classified the error (`connection`, `auth`, `server`...). */
  kind: ErrorKind;
  /** What went wrong (`"stage2: judge call failed: …"`). */
  message: string;
  /** Set when the row was not asked at all: an earlier call found the endpoint down. */
  notAsked?: true;
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
  /** The first call that failed (the endpoint, not the grade); `unscored` says it too. */
  failed?: ForensicFailure;
}

/**
 * Runs stage 2 (judge) and stage 3 (validator), each when given, on one
 * wrong answer whose stage-1 label is `stage1`.
 *
 * @param wrong The `question` (its text and key are shown to the judge),
 *   the wrong reply (`completion`) and `stage1`, the stage-1 label or null.
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
 * const out = await refineOne({ question: q, completion: c, stage1: "arithmetic_error" }, { judge: reply("LABEL: sign_error"), validator: reply("CONFIRM") });
 * assert.equal(out.label, "sign_error");
 * assert.equal(out.stage, 3);
 * const unread = await refineOne({ question: q, completion: c, stage1: "arithmetic_error" }, { judge: reply("no idea") });
 * assert.deepEqual([unread.label, unread.stage], ["arithmetic_error", 1]);
 * assert.match(unread.unscored!, /^stage2: /);
 * assert.equal(unread.failed, undefined);
 * const down = { name: "j", complete: () => Promise.resolve({ text: "", reasoning: null, finishReason: "error", usage: { promptTokens: 0, completionTokens: 0 }, latencyMs: 0, attempts: 5, error: { kind: "connection" as const, message: "Connection error." } }) };
 * const failed = await refineOne({ question: q, completion: c, stage1: "arithmetic_error" }, { judge: down });
 * assert.deepEqual(failed.failed, { stage: 2, kind: "connection", message: "stage2: judge call failed: Connection error." });
 * ```
 */
export async function refineOne(
  { question, completion, stage1 }: {
    question: Question;
    completion: Completion;
    stage1: string | null;
  },
  options: RefineLabelsOptions,
): Promise<Refinement> {
  let current: ForensicLabel | null = stage1 !== null &&
      ALL_LABELS.includes(stage1)
    ? { label: stage1 as LinalgErrorLabel, stage: 1, detail: "stage-1 rule" }
    : null;
  const out: Refinement = { label: stage1, stage: 1 };
  if (options.judge) {
    const got = await judgeWithModel(options.judge, { question, completion });
    if ("unscored" in got) {
      out.unscored = `stage2: ${got.reason}`;
      if (got.error) {
        out.failed = { stage: 2, kind: got.error.kind, message: out.unscored };
      }
    } else current = got;
  }
  if (options.validator && current) {
    const got = await validateLabel(options.validator, {
      question,
      completion,
      label: current,
    });
    if ("unscored" in got) {
      out.unscored = `stage3: ${got.reason}`;
      if (got.error && out.failed === undefined) {
        out.failed = { stage: 3, kind: got.error.kind, message: out.unscored };
      }
    } else current = got;
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
  /**
   * The stage-1 label: the row's `metrics.stage1_label` when an earlier
   * relabelling stored it, else its `error_class`.
   */
  stage1: string | null;
  /**
   * The label to store: the one a later stage gave, when one answered and
   * no call failed; else the row's own `error_class`, kept.
   */
  label: string | null;
  /** The stage that assigned `label` (the row's `metrics.forensic_stage` when kept). */
  stage: 1 | 2 | 3;
  /** Why a stage left the row unscored, if one did (`"stage2: …"`) and no call failed. */
  unscored?: string;
  /** The call that failed, or why the row was not asked; the row's labels are then kept as they were. */
  failed?: ForensicFailure;
}

/** Options for {@linkcode refineLabels}. */
export interface RefineLabelsOptions {
  /** Stage 2: the model that labels the first error. Skipped when absent. */
  judge?: Provider;
  /** Stage 3: the model that confirms or corrects the label. Skipped when absent. */
  validator?: Provider;
}

/**
 * Errors after which an endpoint is taken to be down or refusing for every
 * row (the provider has already retried): the rows after it are not asked.
 */
const ENDPOINT_DOWN: ReadonlySet<ErrorKind> = new Set<ErrorKind>([
  "connection",
  "timeout",
  "auth",
  "server",
  "rate_limit",
  "aborted",
]);

/** The stage that assigned a row's stored label. */
function storedStage(row: ResultRow): 1 | 2 | 3 {
  const stage = (row.metrics ?? {})["forensic_stage"];
  return stage === 2 || stage === 3 ? stage : 1;
}

/** A row's stage-1 label (kept in `metrics.stage1_label` once relabelled). */
function storedStage1(row: ResultRow): string | null {
  const metrics = row.metrics ?? {};
  if (!("stage1_label" in metrics)) return row.error_class;
  const label = metrics["stage1_label"];
  return typeof label === "string" ? label : null;
}

/**
 * Runs the optional stages 2 and 3 over the wrong linear-algebra rows of a
 * run (`ResultRow`s from `results.jsonl`), rebuilding question and reply
 * from each row. Correct rows, error rows and other suites are left out.
 * The stage-1 label is the row's own (`metrics.stage1_label` of an earlier
 * relabelling, else `error_class`). Nothing stored is lost: a row keeps
 * its label and stage unless a later stage answered with a label; when a
 * call fails (the endpoint, not the grade) the row keeps them and `failed`
 * says why; after a failure that means the endpoint is down (connection,
 * timeout, auth, server, rate limit — after the provider's own retries)
 * the remaining rows are not asked, each marked `failed` with `notAsked`.
 *
 * @param rows Result rows.
 * @param options The judge and validator models.
 * @returns One entry per wrong linalg row, in row order.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { refineLabels } from "./forensics_judge.ts";
 * const reply = (text: string) => ({ text, reasoning: null, finishReason: "stop", usage: { promptTokens: 1, completionTokens: 1 }, latencyMs: 0, attempts: 1 });
 * const judge = { name: "j", complete: () => Promise.resolve(reply("LABEL: carry_down_error")) };
 * const row = { key: "k", suite: "linalg", status: "wrong", question: "Find det.", expected: "3", response: "\\boxed{4}", error_class: "arithmetic_error", metrics: { forensic_stage: 1 } };
 * // deno-lint-ignore no-explicit-any
 * const [out] = await refineLabels([row as any], { judge });
 * assert.deepEqual(out, { key: "k", stage1: "arithmetic_error", label: "carry_down_error", stage: 2 });
 * // A judge that is down: the earlier labels stay, the failure is said, the next row is not asked.
 * const down = { name: "j", complete: () => Promise.resolve({ ...reply(""), error: { kind: "connection" as const, message: "Connection error." } }) };
 * const judged = { ...row, error_class: "carry_down_error", metrics: { forensic_stage: 2, stage1_label: "arithmetic_error" } };
 * // deno-lint-ignore no-explicit-any
 * const [kept, skipped] = await refineLabels([judged, { ...judged, key: "k2" }] as any, { judge: down });
 * assert.deepEqual([kept!.label, kept!.stage, kept!.stage1], ["carry_down_error", 2, "arithmetic_error"]);
 * assert.equal(kept!.failed?.message, "stage2: judge call failed: Connection error.");
 * assert.equal(skipped!.failed?.notAsked, true);
 * ```
 */
export async function refineLabels(
  rows: readonly ResultRow[],
  options: RefineLabelsOptions = {},
): Promise<RefinedLabel[]> {
  const out: RefinedLabel[] = [];
  let down: ForensicFailure | undefined;
  for (const row of rows) {
    if (row.suite !== "linalg" || row.status === "correct") continue;
    if (row.status === "error") continue;
    const stage1 = storedStage1(row);
    const entry: RefinedLabel = {
      key: row.key,
      stage1,
      label: row.error_class,
      stage: storedStage(row),
    };
    out.push(entry);
    if (down !== undefined) {
      entry.failed = {
        stage: down.stage,
        kind: down.kind,
        message: `not asked: an earlier row's call failed (${down.message})`,
        notAsked: true,
      };
      continue;
    }
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
    const refined = await refineOne({ question, completion, stage1 }, options);
    if (refined.failed !== undefined) {
      entry.failed = refined.failed;
      if (ENDPOINT_DOWN.has(refined.failed.kind)) down = refined.failed;
      continue;
    }
    if (refined.stage > 1) {
      entry.label = refined.label;
      entry.stage = refined.stage;
    }
    if (refined.unscored !== undefined) entry.unscored = refined.unscored;
  }
  return out;
}

/**
 * The rows with their refined labels, for rewriting `results.jsonl`: a
 * refined row gets `error_class` and, in `metrics`, `forensic_stage`,
 * `stage1_label` and `forensic_unscored` (null when none), and loses a
 * `forensic_error` an earlier version recorded. Other rows are returned
 * as they are, in the same order. A relabel is all or nothing: refinements
 * with a failed call are refused, so no row is stored half-labelled.
 *
 * @param rows The run's rows.
 * @param refined What {@linkcode refineLabels} made of them.
 * @returns The rows to store.
 * @throws {RangeError} when any refinement has `failed` (the caller
 *   reports the failure and writes nothing).
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { applyRefinements } from "./forensics_judge.ts";
 * const row = { key: "k", error_class: "sign_error", metrics: { forensic_stage: 2, stage1_label: "arithmetic_error", forensic_error: "stage2: judge call failed: old" } };
 * // deno-lint-ignore no-explicit-any
 * const [relabelled] = applyRefinements([row as any], [{ key: "k", stage1: "arithmetic_error", label: "carry_down_error", stage: 3 }]);
 * assert.deepEqual(relabelled, { key: "k", error_class: "carry_down_error", metrics: { forensic_stage: 3, stage1_label: "arithmetic_error", forensic_unscored: null } });
 * const failed = { stage: 2 as const, kind: "connection" as const, message: "stage2: judge call failed: Connection error." };
 * assert.throws(
 *   // deno-lint-ignore no-explicit-any
 *   () => applyRefinements([row as any], [{ key: "k", stage1: "arithmetic_error", label: "sign_error", stage: 2, failed }]),
 *   /Cannot apply the relabelling: 1 row\(s\) could not be labelled \(k\)/,
 * );
 * ```
 */
export function applyRefinements(
  rows: readonly ResultRow[],
  refined: readonly RefinedLabel[],
): ResultRow[] {
  const failed = refined.filter((r) => r.failed !== undefined);
  if (failed.length > 0) {
    throw new RangeError(
      `Cannot apply the relabelling: ${failed.length} row(s) could not be labelled (${
        failed.slice(0, 3).map((r) => r.key).join(", ")
      }${
        failed.length > 3 ? ", ..." : ""
      }); a relabel is all or nothing, so store none of it and report the failure`,
    );
  }
  const byKey = new Map(refined.map((r) => [r.key, r]));
  return rows.map((row) => {
    const r = byKey.get(row.key);
    if (r === undefined) return row;
    const metrics = { ...row.metrics };
    delete metrics["forensic_error"];
    return {
      ...row,
      error_class: r.label,
      metrics: {
        ...metrics,
        forensic_stage: r.stage,
        stage1_label: r.stage1,
        forensic_unscored: r.unscored ?? null,
      },
    };
  });
}
