/**
 * Reading and judging the answer to a qa question by its answer type: a
 * number through the number extractor and the numeric judge (exact, or
 * the declared tolerance), an option letter through the choice extractor,
 * a string by its final answer line, a pattern against that line.
 *
 * @module
 */
import { choiceAnswer } from "../../extract/choice.ts";
import { numberAnswer } from "../../extract/number.ts";
import { blankReasoning } from "../../extract/reasoning.ts";
import { compareNumeric, type NumericTolerance } from "../../judge/numeric.ts";
import {
  errorVerdict,
  formatValidFor,
  noAnswerWhy,
  statusBeforeComparing,
} from "../../judge/status.ts";
import type {
  Completion,
  Extraction,
  Judged,
  Question,
  Verdict,
} from "../../types.ts";
import type { QaPayload } from "./questions.ts";

/** Answer markers a final line starts with. */
const MARKER =
  /(?:^|\n)[ \t>*#]*(?:final answer|answer|答案|最终答案)\s*[:：]\s*(.+)$/gim;

/**
 * The text answer of a reply: what follows the last "Answer:" (or
 * "答案：") marker, else the reply itself when it is one line, else its
 * last non-empty line; markdown emphasis, quotes and a final full stop
 * taken off. Reasoning blocks are not read.
 *
 * @param text The reply.
 * @returns The answer and the rule that found it, or null for an empty reply.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { textAnswer } from "./judge.ts";
 * assert.deepEqual(textAnswer("Paris is big.\nAnswer: **Paris**."), { value: "Paris", rule: "answer_marker" });
 * assert.deepEqual(textAnswer("<think>x</think>Lyon"), { value: "Lyon", rule: "bare" });
 * ```
 */
export function textAnswer(
  text: string,
): { value: string; rule: string } | null {
  const visible = blankReasoning(text).trim();
  if (visible === "") return null;
  const clean = (s: string) =>
    s.trim().replace(/^\*\*|\*\*$/g, "").replace(/^["“'`]+|["”'`]+$/g, "")
      .replace(/[.。]$/, "").replace(/^\*\*|\*\*$/g, "").trim();
  const markers = [...visible.matchAll(MARKER)];
  const last = markers.at(-1);
  if (last !== undefined) {
    return { value: clean(last[1]!), rule: "answer_marker" };
  }
  const lines = visible.split("\n").map((l) => l.trim()).filter((l) =>
    l !== ""
  );
  return lines.length === 1
    ? { value: clean(lines[0]!), rule: "bare" }
    : { value: clean(lines.at(-1)!), rule: "last_line" };
}

/**
 * Extracts a qa reply's answer by the question's answer type. Never throws.
 *
 * @param question The question.
 * @param completion The reply.
 * @returns The extraction (a rational, a letter or a string).
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { extractQa } from "./judge.ts";
 * const q = { id: "q", suite: "qa", text: "?", answer: { kind: "rational" as const, value: "8811/20" }, dims: {}, payload: { type: "number" as const, written: "440.55" } };
 * const c = { text: "The total is 440.55.", reasoning: null, finishReason: "stop" as const, usage: { promptTokens: 1, completionTokens: 1 }, latencyMs: 1, attempts: 1 };
 * assert.equal(extractQa(q, c).value, "8811/20");
 * ```
 */
export function extractQa(
  question: Question<QaPayload>,
  completion: Completion,
): Extraction {
  const none: Extraction = {
    value: null,
    rule: "none",
    span: null,
    candidates: 0,
  };
  if (completion.error !== undefined) return none;
  const type = question.payload?.type ?? "exact";
  if (type === "number") {
    const found = numberAnswer(completion.text, { question: question.text });
    if (found === null) return none;
    const out: Extraction = {
      value: found.value,
      rule: found.rule,
      span: found.span,
      candidates: typeof found.candidates === "number"
        ? found.candidates
        : found.candidates.length,
    };
    if (found.alternatives !== undefined) {
      out.alternatives = [...found.alternatives];
    }
    return out;
  }
  if (type === "choice") {
    const letters = (question.payload?.choices ?? []).map((_, i) =>
      String.fromCharCode(65 + i)
    );
    const choices = Object.fromEntries(
      (question.payload?.choices ?? []).map((c, i) => [letters[i]!, c]),
    );
    const found = choiceAnswer(completion.text, { letters, choices });
    if (found === null) return none;
    const out: Extraction = {
      value: found.value,
      rule: found.rule,
      span: found.span,
      candidates: typeof found.candidates === "number"
        ? found.candidates
        : found.candidates.length,
    };
    if (found.alternatives !== undefined) {
      out.alternatives = [...found.alternatives];
    }
    return out;
  }
  const found = textAnswer(completion.text);
  return found === null
    ? none
    : { value: found.value, rule: found.rule, span: null, candidates: 1 };
}

/** A string for comparison: Unicode-normalised, spaces collapsed, case folded unless asked not to. */
function normal(text: string, caseSensitive: boolean): string {
  const t = text.normalize(caseSensitive ? "NFC" : "NFKC").replace(/\s+/g, " ")
    .trim();
  return caseSensitive ? t : t.toLowerCase();
}

/**
 * Judges a qa extraction against the question's key, on the shared status
 * ladder (truncated, parse error, then correct or wrong). Explanations
 * quote the answer as the dataset writes it (`expected 440.55`). Never
 * throws.
 *
 * @param question The question.
 * @param completion The reply.
 * @param extraction What {@linkcode extractQa} found.
 * @returns The verdict.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { scoreQa } from "./judge.ts";
 * const q = { id: "q", suite: "qa", text: "?", answer: { kind: "text" as const, value: "Paris" }, dims: {}, payload: { type: "exact" as const, written: "Paris", caseSensitive: false } };
 * const c = { text: "Answer: paris", reasoning: null, finishReason: "stop" as const, usage: { promptTokens: 1, completionTokens: 1 }, latencyMs: 1, attempts: 1 };
 * assert.equal(scoreQa({ question: q, completion: c, extraction: { value: "paris", rule: "answer_marker", span: null, candidates: 1 } }).status, "correct");
 * ```
 */
export function scoreQa(
  judged: Judged<QaPayload>,
): Verdict {
  const { question, completion, extraction } = judged;
  const payload = question.payload;
  const written = payload?.written ?? String(question.answer.value);
  const ladder = statusBeforeComparing(completion, extraction, {
    trusted: !["last_number", "last_line"].includes(extraction.rule),
  });
  const inFormat = () =>
    extraction.rule === "bare" || extraction.rule === "answer_marker";
  if (ladder !== null) {
    return {
      status: ladder,
      score: 0,
      formatValid: formatValidFor({ status: ladder, extraction, inFormat }),
      explanation: `${noAnswerWhy(extraction)} (expected ${written})`,
    };
  }
  const got = extraction.value!;
  let correct: boolean;
  let relError: number | undefined;
  try {
    switch (payload?.type ?? "exact") {
      case "number": {
        const t = payload?.tolerance;
        const tolerance: NumericTolerance = {};
        if (t?.rel !== undefined) tolerance.rel = t.rel;
        if (t?.abs !== undefined) tolerance.abs = t.abs;
        const cmp = compareNumeric(
          String(question.answer.value),
          got,
          t === undefined ? {} : { tolerance },
        );
        correct = cmp.equal;
        relError = cmp.relError;
        break;
      }
      case "choice":
        correct = got === question.answer.value;
        break;
      case "regex":
        correct = new RegExp(written, payload?.caseSensitive ? "u" : "iu")
          .test(got);
        break;
      default:
        correct = normal(got, payload?.caseSensitive ?? false) ===
          normal(written, payload?.caseSensitive ?? false);
    }
  } catch (error) {
    return errorVerdict(
      `Cannot judge the answer ${JSON.stringify(got)}: ${
        (error as Error).message
      }`,
    );
  }
  // The answer as the reply wrote it (`440.5`, not `881/2`).
  const shown = extraction.span === null
    ? got
    : completion.text.slice(...extraction.span);
  const status = correct ? "correct" : "wrong";
  const verdict: Verdict = {
    status,
    score: correct ? 1 : 0,
    formatValid: formatValidFor({ status, extraction, inFormat }),
    explanation: correct
      ? `matches ${written}`
      : payload?.type === "regex"
      ? `${JSON.stringify(got)} does not match /${written}/`
      : `expected ${written}, got ${shown}`,
  };
  if (relError !== undefined) verdict.relError = relError;
  return verdict;
}
