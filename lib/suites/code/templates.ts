/**
 * The code suite's templates: `direct` (write the function), `plan` (plan
 * and state the complexity first, then the code) and `zh` (the Chinese
 * statement). Each renders in the question's language, shows the exact
 * signature and the required time complexity, and asks for one fenced
 * block.
 *
 * @module
 */
import type { Template } from "../../prompting/template.ts";
import type { ChatMessage, Question } from "../../types.ts";
import type { CodePayload } from "./questions.ts";

const NAMES = { python: "Python", javascript: "JavaScript" } as const;

function payloadOf(question: Question): CodePayload {
  const p = question.payload as Partial<CodePayload> | undefined;
  if (p?.language === undefined || p.entry === undefined) {
    throw new TypeError(
      `Cannot render a code prompt: question ${question.id} has no code payload; build questions with the code suite`,
    );
  }
  return p as CodePayload;
}

function fence(p: CodePayload): string {
  return p.language === "python" ? "```python" : "```javascript";
}

function complexityOf(question: Question): string | null {
  const c = question.dims["complexity"];
  return typeof c === "string" ? c : null;
}

function english(question: Question, plan: boolean): string {
  const p = payloadOf(question);
  const name = NAMES[p.language];
  if (p.source === "humaneval") {
    return [
      `Complete this ${name} function:`,
      `${fence(p)}\n${p.prompt ?? p.signature}\n\`\`\``,
      plan
        ? "First explain your approach in a few sentences, then reply with the complete function (signature included) in one " +
          `${fence(p)} code block.`
        : `Reply with the complete function (signature included) in one ${
          fence(p)
        } code block.`,
    ].join("\n\n");
  }
  const complexity = complexityOf(question);
  return [
    p.statement.en,
    `Write the function \`${p.entry}\` in ${name} with exactly this signature:`,
    `${fence(p)}\n${p.signature}\n\`\`\``,
    [
      "Return the answer from the function; do not read input or print.",
      complexity === null
        ? ""
        : ` The required time complexity is ${complexity}.`,
    ].join(""),
    plan
      ? `First explain your approach and its time complexity in a few sentences, then give the complete function in one ${
        fence(p)
      } code block.`
      : `Reply with the complete function in one ${fence(p)} code block.`,
  ].join("\n\n");
}

function chinese(question: Question): string {
  const p = payloadOf(question);
  const name = NAMES[p.language];
  if (p.source === "humaneval") {
    return [
      `请补全下面的 ${name} 函数：`,
      `${fence(p)}\n${p.prompt ?? p.signature}\n\`\`\``,
      `请把完整的函数（包括函数签名）放在一个 ${fence(p)} 代码块中。`,
    ].join("\n\n");
  }
  const complexity = complexityOf(question);
  return [
    p.statement.zh,
    `请用 ${name} 编写函数 \`${p.entry}\`，函数签名必须如下：`,
    `${fence(p)}\n${p.signature}\n\`\`\``,
    "请在函数中返回结果，不要读取输入或打印。" +
    (complexity === null ? "" : `要求时间复杂度为 ${complexity}。`),
    `请把完整的函数放在一个 ${fence(p)} 代码块中。`,
  ].join("\n\n");
}

function template(
  id: string,
  description: string,
  content: (q: Question) => string,
): Template {
  return {
    id,
    description,
    render: (question): ChatMessage[] => [
      { role: "user", content: content(question) },
    ],
  };
}

/** The code suite's templates by id. */
export const CODE_TEMPLATES: Readonly<Record<string, Template>> = {
  direct: template(
    "direct",
    "The statement, the exact signature and the required complexity; write the function in one fenced block.",
    (q) => english(q, false),
  ),
  plan: template(
    "plan",
    "As direct, but the model explains its approach and complexity before the code.",
    (q) => english(q, true),
  ),
  zh: template(
    "zh",
    "The Chinese statement and instructions (signature and identifiers unchanged).",
    chinese,
  ),
};
