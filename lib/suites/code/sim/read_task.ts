/**
 * Reads a code-writing request from a prompt: the shown signature, the
 * asked language, the problem the sim recognises and how the prompt asks.
 *
 * @module
 */
import { recallHumanEval, recallProblem } from "./_bank.ts";
import type { CodeLanguage } from "../params.ts";
import type { CodeTask } from "./types.ts";

const SIGNATURE =
  /^[ \t]*(?:def[ \t]+([A-Za-z_]\w*)[ \t]*\(|(?:export[ \t]+)?(?:async[ \t]+)?function[ \t]+([A-Za-z_$][\w$]*)[ \t]*\()[^\n]*/gm;
const ASK = /\b(?:write|implement|complete)\b|编写|实现|补全|完成/i;
const FENCE_ASK = /```|\bcode block\b|代码块/i;
const PLAN_ASK =
  /explain your approach|plan (?:first|your)|approach first|先(?:说明|解释|给出)(?:你的)?思路/i;

/**
 * Reads a code-writing request from a prompt: a line starting with
 * `def name(` or `function name(`, a request to write or complete it, and
 * a fenced-code request.
 *
 * @param question The prompt text (the last user message).
 * @returns The task, or null when the prompt is not a code request.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { readCodeTask } from "./mod.ts";
 *
 * const fence = "`".repeat(3);
 * const task = readCodeTask(
 *   `Write the function maxWindowSum in JavaScript:\n${fence}javascript\n` +
 *     `function maxWindowSum(nums, k)\n${fence}\nReply in one ${fence}javascript code block.`,
 * );
 * assert.equal(task?.language, "javascript");
 * assert.equal(task?.problem?.id, "max_window_sum");
 * assert.equal(readCodeTask("What is 2 + 2?"), null);
 * ```
 */
export function readCodeTask(question: string): CodeTask | null {
  if (!ASK.test(question) || !FENCE_ASK.test(question)) return null;
  // The first function the sim recognises (a HumanEval prompt may define
  // helpers before its entry), else the first one shown.
  const found = [...question.matchAll(SIGNATURE)].map((m) => {
    const language: CodeLanguage = m[1] !== undefined ? "python" : "javascript";
    const entry = (m[1] ?? m[2])!;
    const problem = recallProblem(entry) ?? null;
    const humanEval = problem === null && language === "python"
      ? recallHumanEval(entry, question) ?? null
      : null;
    return { m, language, entry, problem, humanEval };
  });
  const hit = found.find((f) => f.problem || f.humanEval) ?? found[0];
  if (!hit) return null;
  return {
    language: hit.language,
    entry: hit.entry,
    signatureLine: hit.m[0].trim(),
    problem: hit.problem,
    humanEval: hit.humanEval,
    plan: PLAN_ASK.test(question),
    chinese: /[\u4e00-\u9fff]/.test(question),
  };
}
