/**
 * The optional extraction judge: a model (any OpenAI-compatible one, or a
 * sim profile) asked, with one fixed prompt, for the final answer of a
 * reply the rules could not read (no answer found, or an ambiguous one).
 * Its answer goes back through the suite's own extraction, so it lands in
 * the suite's normal form; the row keeps both the rules' outcome and the
 * judge's (`docs/extraction.md`).
 *
 * @module
 */
import type { Prompt, Question } from "../types.ts";

/** The template id of the judge's prompt (also what the sim's reader answers). */
export const EXTRACTION_JUDGE_TEMPLATE = "extraction_judge";

/** The judge's one instruction line, which its reader recognises. */
export const EXTRACTION_JUDGE_ASK =
  "What is the final answer this reply gives to the question? Write only that answer, exactly as the reply states it (a number, an option letter or a short text). If the reply gives no single final answer, write none.";

/**
 * The fixed prompt that asks the judge for a reply's final answer.
 *
 * @param question The question the reply answers.
 * @param reply The reply's text.
 * @returns The prompt (temperature 0, a short answer).
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { extractionJudgePrompt } from "./extraction_judge.ts";
 * const q = { id: "q", suite: "s", text: "What is 6 × 7?", answer: { kind: "rational" as const, value: "42" }, dims: {} };
 * const p = extractionJudgePrompt(q, "It's 42, or maybe 43.");
 * assert.match(p.messages.at(-1)!.content, /Question:\nWhat is 6 × 7\?\n\nReply:\nIt's 42, or maybe 43\./);
 * ```
 */
export function extractionJudgePrompt(
  question: Question,
  reply: string,
): Prompt {
  return {
    templateId: EXTRACTION_JUDGE_TEMPLATE,
    messages: [
      {
        role: "system",
        content:
          "You read a model's reply to a question and report the final answer it gives. You do not solve the question yourself.",
      },
      {
        role: "user",
        content:
          `Question:\n${question.text}\n\nReply:\n${reply}\n\n${EXTRACTION_JUDGE_ASK}`,
      },
    ],
    params: { temperature: 0, max_tokens: 64 },
  };
}

/**
 * The judge's answer from its reply: the text without an "Answer:" lead,
 * quotes or a final full stop; null for "none" or an empty reply.
 *
 * @param text The judge's reply.
 * @returns The answer, or null.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { judgeAnswer } from "./extraction_judge.ts";
 * assert.equal(judgeAnswer("Answer: 42."), "42");
 * assert.equal(judgeAnswer(" None "), null);
 * ```
 */
export function judgeAnswer(text: string): string | null {
  const t = text.replace(/<think>[\s\S]*?<\/think>/gi, "").trim()
    .replace(/^(?:final answer|answer|答案)\s*[:：]\s*/i, "")
    .replace(/^["“'`*]+|["”'`*]+$/g, "").replace(/[.。]$/, "").trim();
  return t === "" || /^(?:none|no answer|无|没有)$/i.test(t) ? null : t;
}
