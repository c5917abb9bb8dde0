/**
 * Generic template builders any suite can reuse: a question followed by an
 * instruction, and few-shot conversations.
 *
 * @module
 */
import type { ChatMessage, Question, ToolSpec } from "../types.ts";

/** A prompt template: turns a question into chat messages. */
export interface Template {
  /** Template id, e.g. `"direct"` or `"cot"`; recorded in each row. */
  id: string;
  /** One line on what the template asks for. */
  description: string;
  /** Renders one question as the chat messages to send. */
  render(question: Question): ChatMessage[];
  /** Tools offered with this template (e.g. the calculator control group). */
  tools?: ToolSpec[];
}

/**
 * Executes a tool call the model made and returns the tool message's
 * content. May await (a sandbox, a service).
 */
export type ToolExecutor = (
  name: string,
  args: string,
) => string | Promise<string>;

/** Options for {@linkcode instructionTemplate}. */
export interface InstructionTemplateOptions {
  /** The template id (recorded in each row). */
  id: string;
  /** One line on what the template asks for. */
  description: string;
  /** Appended on its own line after the question text. */
  instruction: string;
  /** Optional system message. */
  system?: string;
  /** Tools offered with the template. */
  tools?: ToolSpec[];
  /** Overrides the question text (e.g. a study's own wording). */
  text?: (question: Question) => string;
}

/**
 * A template whose single user message is the question, then an
 * instruction on its own line.
 *
 * @param options Id, description, instruction, optional system message and tools.
 * @returns The template.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { instructionTemplate } from "./template.ts";
 * const t = instructionTemplate({ id: "direct", description: "d", instruction: "Output only the number." });
 * const q = { id: "q", suite: "s", text: "What is 2 + 2?", answer: { kind: "rational" as const, value: "4" }, dims: {} };
 * assert.equal(t.render(q)[0]!.content, "What is 2 + 2?\nOutput only the number.");
 * ```
 */
export function instructionTemplate(
  options: InstructionTemplateOptions,
): Template {
  const { id, description, instruction, system, tools, text } = options;
  return {
    id,
    description,
    render(question: Question): ChatMessage[] {
      const body = text?.(question) ?? question.text;
      const messages: ChatMessage[] = [];
      if (system !== undefined) {
        messages.push({ role: "system", content: system });
      }
      messages.push({
        role: "user",
        content: instruction === "" ? body : `${body}\n${instruction}`,
      });
      return messages;
    },
    ...(tools === undefined ? {} : { tools }),
  };
}

/** One worked example for a few-shot template. */
export interface FewShotExample {
  /** The example question, as the prompt shows it. */
  question: string;
  /** Its answer, as the prompt shows it. */
  answer: string;
}

/** Options for {@linkcode fewShotTemplate}. */
export interface FewShotTemplateOptions {
  /** The template id (recorded in each row). */
  id: string;
  /** One line on what the template asks for. */
  description: string;
  /** Shown as prior user/assistant turns, in order. */
  examples: readonly FewShotExample[];
  /** Appended after every question (examples and the real one). */
  instruction: string;
  /** An optional system message. */
  system?: string;
}

/**
 * A few-shot template: each example becomes a user turn and an assistant
 * turn before the real question.
 *
 * @param options Id, description, examples, instruction.
 * @returns The template.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { fewShotTemplate } from "./template.ts";
 * const t = fewShotTemplate({ id: "fs", description: "d", instruction: "", examples: [{ question: "1+1?", answer: "2" }] });
 * const q = { id: "q", suite: "s", text: "2+2?", answer: { kind: "rational" as const, value: "4" }, dims: {} };
 * assert.deepEqual(t.render(q).map((m) => m.role), ["user", "assistant", "user"]);
 * ```
 */
export function fewShotTemplate(options: FewShotTemplateOptions): Template {
  const { id, description, examples, instruction, system } = options;
  const ask = (text: string) =>
    instruction === "" ? text : `${text}\n${instruction}`;
  return {
    id,
    description,
    render(question: Question): ChatMessage[] {
      const messages: ChatMessage[] = [];
      if (system !== undefined) {
        messages.push({ role: "system", content: system });
      }
      for (const ex of examples) {
        messages.push({ role: "user", content: ask(ex.question) });
        messages.push({ role: "assistant", content: ex.answer });
      }
      messages.push({ role: "user", content: ask(question.text) });
      return messages;
    },
  };
}
