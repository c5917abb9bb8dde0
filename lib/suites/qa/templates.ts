/**
 * The qa suite's prompt templates: the question (with its options, for
 * multiple choice) and an instruction that fits its answer type.
 *
 * @module
 */
import type { Template } from "../../prompting/template.ts";
import type { Question } from "../../types.ts";
import type { QaPayload } from "./questions.ts";

/** The options block of a multiple-choice question ("A. …" lines), or "". */
function optionsBlock(q: Question<QaPayload>): string {
  const choices = q.payload?.choices;
  if (choices === undefined) return "";
  return "\n" +
    choices.map((c, i) => `${String.fromCharCode(65 + i)}. ${c}`).join("\n");
}

/** What to answer with, by answer type. */
function what(q: Question<QaPayload>): string {
  switch (q.payload?.type) {
    case "number":
      return "the number";
    case "choice":
      return "the letter of the correct option";
    default:
      return "the answer";
  }
}

/** The question and its options. */
function body(q: Question<QaPayload>): string {
  return `${q.text}${optionsBlock(q)}`;
}

/** The qa suite's templates by id. */
export const QA_TEMPLATES: Readonly<Record<string, Template>> = {
  direct: {
    id: "direct",
    description: "the question, then: answer with the answer only",
    render: (q) => [{
      role: "user",
      content: `${body(q as Question<QaPayload>)}\n\nAnswer with ${
        what(q as Question<QaPayload>)
      } only.`,
    }],
  },
  cot: {
    id: "cot",
    description:
      "the question, then: think step by step, final line 'Answer: <answer>'",
    render: (q) => [{
      role: "user",
      content: `${
        body(q as Question<QaPayload>)
      }\n\nThink step by step, then give ${
        what(q as Question<QaPayload>)
      } on the last line as "Answer: <answer>".`,
    }],
  },
};
