/** Shared helpers of the provider tests. */
import type { Prompt } from "../../lib/types.ts";

/** A prompt the sim can read: an arithmetic question. */
export function arithmeticPrompt(a: number, b: number, seed = 1): Prompt {
  return {
    templateId: "direct",
    messages: [
      { role: "system", content: "Answer with the number only." },
      { role: "user", content: `What is ${a} * ${b}?` },
    ],
    params: { temperature: 0, max_tokens: 256, seed },
  };
}
