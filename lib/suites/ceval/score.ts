/**
 * The multiple-choice judge: a Verdict for a letter extracted from a
 * completion.
 *
 * @module
 */
import type { Judged, Verdict } from "../../types.ts";
import {
  formatValidFor,
  noAnswerWhy,
  statusBeforeComparing,
} from "../../judge/status.ts";

/**
 * Whether a reply to a multiple-choice prompt is in an instructed format:
 * just the letter (`B`, `(B)`, `**B**`, `B.`), or a last line that states
 * it (`答案：B`, `所以答案是B。`, `Answer: B`, `The answer is (B).`).
 * `<think>` blocks are ignored.
 *
 * @param text The reply text.
 * @param letters The option letters. @default ["A", "B", "C", "D"]
 * @returns True for a bare letter or a final answer line.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { choiceFormatValid } from "./score.ts";
 * assert.equal(choiceFormatValid("B"), true);
 * assert.equal(choiceFormatValid("让我们一步一步思考，\n1. …\n所以答案是D。"), true);
 * assert.equal(choiceFormatValid("我觉得 B 比较对吧"), false);
 * ```
 */
export function choiceFormatValid(
  text: string,
  letters: readonly string[] = ["A", "B", "C", "D"],
): boolean {
  const cls = letters.map((l) => l.replace(/[\\\]^-]/g, "\\$&")).join("");
  const visible = text.replace(/<think>[\s\S]*?<\/think>/gi, "").trim();
  const bare = new RegExp(
    String.raw`^(?:\*\*)?[(（\[【]?[${cls}][)）\]】]?(?:\*\*)?[.。]?$`,
  );
  if (bare.test(visible)) return true;
  const lines = visible.split("\n").filter((l) => l.trim() !== "");
  const last = (lines[lines.length - 1] ?? "").trim();
  const stated = new RegExp(
    String
      .raw`^(?:\*\*)?(?:(?:所以|因此|故|综上所述?，?)?(?:正确)?答案(?:是|为|应为|[:：])|(?:所以|因此)?(?:故|本题)?选|(?:so,? )?(?:the )?(?:final |correct )?answer(?: is|:))\s*(?:\*\*)?\s*[(（\[【]?[${cls}][)）\]】]?(?:\*\*)?\s*[.。]?$`,
    "i",
  );
  return stated.test(last);
}

/**
 * Judges a letter against a multiple-choice key, on the shared status
 * ladder (`lib/judge/status.ts`; a failed request never gets here):
 * `unscored` when the key is unknown (`answer.value === ""`, the C-Eval
 * test split before answers were published: such rows count neither as
 * right nor as wrong and feed the submission file); `truncated` when the
 * reply hit the token limit before an answer; `parse_error` when no letter
 * was found; else `correct` or `wrong` (`errorClass` `"wrong_choice"`, or
 * `"changed_mind"` when the reply stated several letters and ended on a
 * wrong one). `formatValid` follows the ladder's rule with
 * {@linkcode choiceFormatValid} as the format check. Never throws.
 *
 * @param question The question (answer kind `"choice"`).
 * @param completion The completion judged.
 * @param extraction The extraction (value: a letter or null).
 * @returns The verdict.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { judgeChoice } from "./score.ts";
 * const q = { id: "q", suite: "ceval", text: "…", answer: { kind: "choice" as const, value: "B" }, dims: {} };
 * const c = { text: "答案：B", reasoning: null, finishReason: "stop", usage: { promptTokens: 1, completionTokens: 1 }, latencyMs: 1, attempts: 1 };
 * const v = judgeChoice({ question: q, completion: c, extraction: { value: "B", rule: "answer_is_zh", span: [3, 4], candidates: 1 } });
 * assert.equal(v.status, "correct");
 * assert.equal(v.formatValid, true);
 * ```
 */
export function judgeChoice(
  judged: Judged<Record<string, unknown>>,
): Verdict {
  const { question, completion, extraction } = judged;
  const inFormat = () => choiceFormatValid(completion.text);
  const key = question.answer.kind === "choice" ? question.answer.value : "";
  const ladder = statusBeforeComparing(completion, extraction, {
    keyed: key !== "",
  });
  if (ladder !== null) {
    return {
      status: ladder,
      score: 0,
      formatValid: formatValidFor({ status: ladder, extraction, inFormat }),
      explanation: ladder === "unscored"
        ? extraction.value === null
          ? "no answer key (withheld test split); no letter found either"
          : `no answer key (withheld test split); the reply chose ${extraction.value}`
        : ladder === "truncated"
        ? "the reply hit the token limit before stating a letter"
        : extraction.rule === "ambiguous"
        ? noAnswerWhy(extraction)
        : "no single option letter found in the reply",
    };
  }
  if (extraction.value === key) {
    return {
      status: "correct",
      score: 1,
      formatValid: formatValidFor({ status: "correct", extraction, inFormat }),
      explanation: `chose ${key}`,
    };
  }
  return {
    status: "wrong",
    score: 0,
    formatValid: formatValidFor({ status: "wrong", extraction, inFormat }),
    errorClass: extraction.candidates > 1 ? "changed_mind" : "wrong_choice",
    explanation: `chose ${extraction.value}, key ${key}`,
  };
}
