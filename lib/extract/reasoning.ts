/**
 * Reasoning blocks are working, not the answer: every extractor reads a
 * reply with them blanked (see `_normalize.ts`).
 *
 * @module
 */
import { blankThinking } from "./_normalize.ts";

/**
 * A reply with its reasoning blocks (`<think>…</think>`, `<thinking>`,
 * `<reasoning>`; an unclosed one to the end) blanked with spaces, the same
 * length as the reply, so spans found in it are spans in the reply.
 *
 * @param text The reply.
 * @returns The reply with its reasoning blanked.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { blankReasoning } from "./reasoning.ts";
 * assert.equal(blankReasoning("<think>12</think>13").trim(), "13");
 * assert.equal(blankReasoning("<think>12</think>13").length, "<think>12</think>13".length);
 * ```
 */
export function blankReasoning(text: string): string {
  return blankThinking(text);
}
