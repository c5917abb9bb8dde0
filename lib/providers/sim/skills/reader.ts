/**
 * The sim as an extraction judge: the one skill the sim has of its own
 * (suites bring the others). Asked, by the fixed prompt of the runner's
 * extraction judge, for the final answer of a reply, it reads the reply
 * as a small model would: an option letter stated after "答案"/"answer",
 * else the last number written, else "none". Good enough to test the
 * judge's path end to end; a real judge is a real model.
 *
 * @module
 */
import { defineSkill, type RegisteredSkill } from "./types.ts";

/** The judge prompt's question and the reply it quotes. */
const JUDGE =
  /\nReply:\n([\s\S]*)\n\nWhat is the final answer this reply gives to the question\?/;

/**
 * Reads a reply for the final answer it gives (see the module doc).
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { replyReaderSkill } from "./reader.ts";
 * assert.equal(replyReaderSkill.name, "reply-reader");
 * ```
 */
export const replyReaderSkill: RegisteredSkill = defineSkill<string>({
  name: "reply-reader",
  match: ({ question }) => JUDGE.exec(question)?.[1] ?? null,
  solve: (reply) => {
    const letter = /(?:答案|answer)[^A-Za-z\n]{0,12}\b([A-D])\b/i.exec(reply);
    const numbers = reply.match(/-?\d[\d,]*(?:\.\d+)?(?:\/\d+)?/g) ?? [];
    const answer = letter?.[1] ?? numbers.at(-1)?.replaceAll(",", "") ??
      "none";
    return {
      answer,
      numeric: false,
      steps: [],
      difficulty: 1,
      block: { leads: [], notes: [] },
    };
  },
});
