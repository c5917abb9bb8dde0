/**
 * C-Eval prompt modes, following the structure of the official evaluation
 * code (`ceval/code/evaluator_series`): a header naming the subject in
 * Chinese, each question as `question\nA. …\nB. …\nC. …\nD. …\n答案：`,
 * up to 5 dev examples in their official file order, answer-only examples
 * ending in the letter, chain-of-thought examples as
 * "让我们一步一步思考，\n<explanation>\n所以答案是X。".
 *
 * Every mode comes in chat form (system message with the header, each dev
 * example a user turn and an assistant turn) and in completion form (one
 * user message holding the whole prompt text, as base models are given
 * it); completion-form template ids end in `_completion`.
 *
 * The templates read `question.payload` as the C-Eval suite writes it
 * (see {@linkcode CevalPayload}).
 *
 * @module
 */
import type { Template } from "../types.ts";
import type { ChatMessage, Question } from "../../types.ts";

/** One C-Eval item as the templates need it. */
export interface CevalItem {
  /** The question text. */
  question: string;
  /** Option texts by letter. */
  choices: { A: string; B: string; C: string; D: string };
  /** The key letter (dev examples always have one). */
  answer: string | null;
  /** The dataset's worked explanation (dev split), or null. */
  explanation: string | null;
}

/** What the C-Eval suite stores in `Question.payload`. */
export type CevalPayload = {
  /** The question itself (its `answer` is null: the key stays in `Question.answer`). */
  item: CevalItem;
  /** The subject's Chinese name, for the header. */
  subjectZh: string;
  /** Dev examples for few-shot modes, in official order, already cut to `shots`. */
  dev: CevalItem[];
};

/** A C-Eval question. */
export type CevalQuestion = Question<CevalPayload>;

/** A C-Eval prompt mode. */
export type CevalMode =
  | "zero_shot"
  | "answer_only"
  | "cot"
  | "few_shot"
  | "few_shot_cot";

/** The modes, in the order they are listed. */
export const CEVAL_MODES: readonly CevalMode[] = [
  "zero_shot",
  "answer_only",
  "cot",
  "few_shot",
  "few_shot_cot",
];

/** The suffix of completion-form template ids. */
export const COMPLETION_SUFFIX = "_completion";

/**
 * Writes one item as C-Eval does: the question, then `A. …` to `D. …`.
 *
 * @param item The item.
 * @returns The question block (no trailing "答案：").
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { formatCevalItem } from "./templates.ts";
 * const item = { question: "1+1=____", choices: { A: "1", B: "2", C: "3", D: "4" }, answer: "B", explanation: null };
 * assert.equal(formatCevalItem(item), "1+1=____\nA. 1\nB. 2\nC. 3\nD. 4");
 * ```
 */
export function formatCevalItem(item: CevalItem): string {
  const { A, B, C, D } = item.choices;
  return `${item.question}\nA. ${A}\nB. ${B}\nC. ${C}\nD. ${D}`;
}

/** The official header for a subject. */
function header(subjectZh: string): string {
  return `以下是中国关于${subjectZh}考试的单项选择题，请选出其中的正确答案。`;
}

const COT_LEAD = "让我们一步一步思考，";

function cotAnswer(item: CevalItem): string {
  const why = (item.explanation ?? "").trim();
  return `${COT_LEAD}\n${why}${why ? "\n" : ""}所以答案是${item.answer}。`;
}

// Templates may be handed any question, so the payload is checked here.
function payloadOf(question: Question): CevalPayload {
  const p: Partial<CevalPayload> | undefined = question.payload;
  if (p?.item === undefined || typeof p.subjectZh !== "string") {
    throw new TypeError(
      `Cannot render C-Eval prompt: question ${question.id} has no C-Eval payload (item, subjectZh, dev); build questions with the ceval suite`,
    );
  }
  return { item: p.item, subjectZh: p.subjectZh, dev: p.dev ?? [] };
}

/** System-message instruction per mode (chat form). */
const INSTRUCTION: Record<CevalMode, string> = {
  zero_shot: "",
  answer_only: "只输出答案的选项字母，不要解释。",
  cot: "请一步一步思考，最后以“所以答案是X。”的格式给出答案。",
  few_shot: "请直接给出正确答案的选项。",
  few_shot_cot: "请一步一步思考，最后以“所以答案是X。”的格式给出答案。",
};

/**
 * Renders a C-Eval question in one prompt mode and form.
 *
 * @param question A question made by the C-Eval suite.
 * @param mode The prompt mode.
 * @param options `form`: `"chat"` (system + turns) or `"completion"` (one
 *   text). @default {"chat"}
 * @returns The chat messages.
 * @throws {TypeError} when the question has no C-Eval payload.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { renderCeval } from "./templates.ts";
 * const ex = { question: "2+2=____", choices: { A: "3", B: "4", C: "5", D: "6" }, answer: "B", explanation: "2+2=4" };
 * const item = { question: "1+1=____", choices: { A: "1", B: "2", C: "3", D: "4" }, answer: "B", explanation: null };
 * const q = { id: "q", suite: "ceval", text: "", answer: { kind: "choice" as const, value: "B" }, dims: {}, payload: { item, subjectZh: "初中数学", dev: [ex] } };
 * const chat = renderCeval(q, "few_shot_cot", { form: "chat" });
 * assert.deepEqual(chat.map((m) => m.role), ["system", "user", "assistant", "user"]);
 * assert.equal(chat[2]!.content, "让我们一步一步思考，\n2+2=4\n所以答案是B。");
 * const text = renderCeval(q, "few_shot", { form: "completion" })[0]!.content;
 * assert.ok(text.startsWith("以下是中国关于初中数学考试的单项选择题"));
 * assert.ok(text.endsWith("D. 4\n答案："));
 * ```
 */
export function renderCeval(
  question: Question,
  mode: CevalMode,
  { form = "chat" }: { form?: "chat" | "completion" } = {},
): ChatMessage[] {
  const { item, subjectZh, dev } = payloadOf(question);
  const shots = mode === "few_shot" || mode === "few_shot_cot" ? dev : [];
  const cot = mode === "cot" || mode === "few_shot_cot";
  const ask = (it: CevalItem) => `${formatCevalItem(it)}\n答案：`;
  const reply = (it: CevalItem) => cot ? cotAnswer(it) : `${it.answer}`;
  if (form === "completion") {
    let text = `${header(subjectZh)}\n\n`;
    for (const ex of shots) text += `${ask(ex)}${reply(ex)}\n\n`;
    text += ask(item);
    if (cot) text += COT_LEAD;
    return [{ role: "user", content: text }];
  }
  const messages: ChatMessage[] = [{
    role: "system",
    content: `你是一个中文人工智能助手，${header(subjectZh)}${
      INSTRUCTION[mode]
    }`,
  }];
  for (const ex of shots) {
    messages.push({ role: "user", content: ask(ex) });
    messages.push({ role: "assistant", content: reply(ex) });
  }
  messages.push({
    role: "user",
    content: mode === "zero_shot" || mode === "answer_only"
      ? formatCevalItem(item)
      : ask(item),
  });
  return messages;
}

const DESCRIPTIONS: Record<CevalMode, string> = {
  zero_shot: "Question and options, no format instruction.",
  answer_only:
    "Answer-only: only the letter (chat: an instruction; completion: the '答案：' cue).",
  cot: "Chain of thought: '一步一步思考', ending '所以答案是X。'.",
  few_shot: "Up to 5 dev examples in official order, answer-only.",
  few_shot_cot: "Up to 5 dev examples with their explanations (CoT).",
};

function makeTemplates(): Record<string, Template> {
  const out: Record<string, Template> = {};
  for (const mode of CEVAL_MODES) {
    out[mode] = {
      id: mode,
      description: `${DESCRIPTIONS[mode]} Chat form.`,
      render: (q) => renderCeval(q, mode, { form: "chat" }),
    };
    const id = `${mode}${COMPLETION_SUFFIX}`;
    out[id] = {
      id,
      description: `${DESCRIPTIONS[mode]} Completion form (one prompt text).`,
      render: (q) => renderCeval(q, mode, { form: "completion" }),
    };
  }
  return out;
}

/**
 * All C-Eval templates by id: each mode in chat form (`few_shot`) and in
 * completion form (`few_shot_completion`).
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { CEVAL_TEMPLATES } from "./templates.ts";
 * assert.ok("few_shot_cot_completion" in CEVAL_TEMPLATES);
 * assert.equal(Object.keys(CEVAL_TEMPLATES).length, 10);
 * ```
 */
export const CEVAL_TEMPLATES: Readonly<Record<string, Template>> = Object
  .freeze(makeTemplates());
