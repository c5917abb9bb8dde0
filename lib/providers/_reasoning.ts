/**
 * Splits reasoning from answer text. Private to `lib/providers`.
 *
 * @module
 */

/** The answer text and the reasoning kept apart from it. */
export interface ReasoningSplit {
  text: string;
  reasoning: string | null;
}

const OPEN = "<think>";
const CLOSE = "</think>";

/**
 * Separates a leading `<think>…</think>` block from the answer. An unclosed
 * `<think>` (the reply was cut at the token limit) makes all of it reasoning.
 * Written by hand: this is a fixed two-tag scan that no library offers.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { splitThink } from "./_reasoning.ts";
 * assert.deepEqual(splitThink("<think>2+2=4</think> 4"), { text: "4", reasoning: "2+2=4" });
 * assert.deepEqual(splitThink("<think>cut off"), { text: "", reasoning: "cut off" });
 * ```
 */
export function splitThink(content: string): ReasoningSplit {
  const start = content.search(/\S/);
  if (start < 0 || !content.startsWith(OPEN, start)) {
    return { text: content, reasoning: null };
  }
  const bodyStart = start + OPEN.length;
  const end = content.indexOf(CLOSE, bodyStart);
  if (end < 0) {
    return { text: "", reasoning: content.slice(bodyStart).trim() };
  }
  return {
    text: content.slice(end + CLOSE.length).trimStart(),
    reasoning: content.slice(bodyStart, end).trim(),
  };
}
