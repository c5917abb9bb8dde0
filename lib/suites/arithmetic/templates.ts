/**
 * Prompt templates for the arithmetic suite: direct, chain-of-thought,
 * few-shot, Chinese variants, the llmmath wording, and the calculator
 * control group.
 *
 * @module
 */
import type { Template } from "../types.ts";
import type { Question, ToolSpec } from "../../types.ts";
import {
  fewShotTemplate,
  instructionTemplate,
} from "../../prompting/template.ts";

/** The `calculator` function tool offered to the control group. */
export const CALCULATOR_TOOL: ToolSpec = {
  type: "function",
  function: {
    name: "calculator",
    description:
      "Evaluates an arithmetic expression exactly. Supports + - * / ^, parentheses, decimals and % (percent).",
    parameters: {
      type: "object",
      properties: {
        expression: {
          type: "string",
          description: "The expression, e.g. (12 + 7) * 3 / 4",
        },
      },
      required: ["expression"],
      additionalProperties: false,
    },
  },
};

const DIRECT = "Output only the number.";
const COT =
  'Think step by step, then write the final line as "Final answer: <number>".';
const DIRECT_ZH = "只输出数字。";
const COT_ZH = "请一步一步思考，最后一行写“答案：<数字>”。";

/** The llmmath wording: "Calculate {a} times {b}. Reply without commas." */
function llmmathText(question: Question): string {
  const { a, b } = question.payload ?? {};
  if (typeof a === "string" && typeof b === "string") {
    return `Calculate ${a} times ${b}. Reply without commas.`;
  }
  return `${question.text} Reply without commas.`;
}

/** All arithmetic templates by id. */
export const ARITHMETIC_TEMPLATES: Readonly<Record<string, Template>> = {
  direct: instructionTemplate({
    id: "direct",
    description: "The question, then 'Output only the number.'",
    instruction: DIRECT,
  }),
  cot: instructionTemplate({
    id: "cot",
    description: "Step by step, final line 'Final answer: <number>'.",
    instruction: COT,
  }),
  fewshot: fewShotTemplate({
    id: "fewshot",
    description: "Three worked examples as prior turns, then the question.",
    instruction: COT,
    examples: [
      {
        question: "What is 47 + 38?",
        answer: "7 + 8 = 15, write 5 carry 1. 4 + 3 + 1 = 8.\nFinal answer: 85",
      },
      {
        question: "What is 23 × 14?",
        answer:
          "23 × 4 = 92. 23 × 10 = 230. 92 + 230 = 322.\nFinal answer: 322",
      },
      {
        question: "What is 15% of 80?",
        answer:
          "10% of 80 is 8, 5% is 4, so 15% is 8 + 4 = 12.\nFinal answer: 12",
      },
    ],
  }),
  direct_zh: instructionTemplate({
    id: "direct_zh",
    description: "Chinese direct: '只输出数字。'",
    instruction: DIRECT_ZH,
  }),
  cot_zh: instructionTemplate({
    id: "cot_zh",
    description: "Chinese chain-of-thought, final line '答案：<数字>'.",
    instruction: COT_ZH,
  }),
  llmmath: instructionTemplate({
    id: "llmmath",
    description:
      "sanand0/llmmath: 'Calculate {a} times {b}. Reply without commas.'",
    instruction: "",
    text: llmmathText,
  }),
  calculator: instructionTemplate({
    id: "calculator",
    description: "The direct prompt with a calculator function tool offered.",
    instruction: DIRECT,
    tools: [CALCULATOR_TOOL],
  }),
};
