/**
 * Counting a prompt's input tokens with a real tokenizer (`gpt-tokenizer`,
 * whose encodings ship inside the npm package), loaded only when a plan
 * needs it.
 *
 * @module
 */
import type { Prompt } from "../types.ts";
import type { EncodingName } from "./encoding.ts";

/** Counts the tokens of a text in one encoding. */
export interface Tokenizer {
  /** The encoding this tokenizer uses. */
  encoding: EncodingName;
  /** Tokens of `text`; special-token strings count as plain text. */
  count(text: string): number;
}

/**
 * Chat-format overhead as OpenAI documents it for its chat models ("How to
 * count tokens with tiktoken"): each message costs 3 tokens besides its
 * role and content, a `name` 1 more, and every reply is primed with 3.
 */
export const CHAT_OVERHEAD: Readonly<{
  perMessage: number;
  perName: number;
  replyPriming: number;
}> = Object.freeze({
  perMessage: 3,
  perName: 1,
  replyPriming: 3,
});

// Special-token strings in a prompt ("<|endoftext|>") are text to a chat
// API; by default gpt-tokenizer throws on them.
const PLAIN = { disallowedSpecial: new Set<string>() };

/**
 * Loads the tokenizer of an encoding (a dynamic import: the encoding's
 * tables are a few MB, so nothing loads them until a plan is made).
 *
 * @param encoding `o200k_base` or `cl100k_base`.
 * @returns A tokenizer for that encoding.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { loadTokenizer } from "./tokens.ts";
 * const cl100k = await loadTokenizer("cl100k_base");
 * assert.equal(cl100k.count("tiktoken is great!"), 6);
 * ```
 */
export async function loadTokenizer(
  encoding: EncodingName,
): Promise<Tokenizer> {
  const module = encoding === "o200k_base"
    ? await import("gpt-tokenizer/encoding/o200k_base")
    : await import("gpt-tokenizer/encoding/cl100k_base");
  return {
    encoding,
    count: (text: string) => module.countTokens(text, PLAIN),
  };
}

/**
 * Input tokens of a prompt: each message's role and content (and tool
 * calls as JSON), plus {@linkcode CHAT_OVERHEAD}; the tool definitions, if
 * any, are counted as their JSON text (an approximation: the API renders
 * them in its own format).
 *
 * @param prompt The prompt as the runner builds it.
 * @param count Token counter of one text (e.g. a {@linkcode Tokenizer}'s `count`).
 * @returns The input tokens the request is billed for.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { promptTokens } from "./tokens.ts";
 * const words = (text: string) => text.split(" ").length;
 * const prompt = { templateId: "t", messages: [{ role: "user" as const, content: "two words" }], params: { temperature: 0, max_tokens: 8, seed: 1 } };
 * // 3 per message + role (1) + content (2) + 3 to prime the reply.
 * assert.equal(promptTokens(prompt, words), 9);
 * ```
 */
export function promptTokens(
  prompt: Prompt,
  count: (text: string) => number,
): number {
  let tokens = CHAT_OVERHEAD.replyPriming;
  for (const message of prompt.messages) {
    tokens += CHAT_OVERHEAD.perMessage + count(message.role) +
      count(message.content);
    if (message.tool_calls !== undefined && message.tool_calls.length > 0) {
      tokens += count(JSON.stringify(message.tool_calls));
    }
  }
  if (prompt.tools !== undefined && prompt.tools.length > 0) {
    tokens += count(JSON.stringify(prompt.tools));
  }
  return tokens;
}
