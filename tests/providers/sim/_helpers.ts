/** Shared helpers for the sim tests. */
import type { SimRequest } from "../../../lib/providers/sim/mod.ts";
import { simChat } from "../../_score.ts";

/** The first choice of a sim reply, typed for tests. */
export interface Choice {
  message: {
    role: string;
    content: string | null;
    reasoning_content?: string;
    tool_calls?: {
      id: string;
      type: "function";
      function: { name: string; arguments: string };
    }[];
  };
  finish_reason: string;
}

/** Usage of a sim reply. */
export interface Usage {
  prompt_tokens: number;
  completion_tokens: number;
  total_tokens: number;
}

/** Sends one user message and returns the first choice and usage. */
export function ask(
  model: string,
  content: string,
  extra: Partial<SimRequest> = {},
): { choice: Choice; usage: Usage; latencyMs: number } {
  const reply = simChat({
    model,
    messages: [{ role: "user", content }],
    temperature: 0,
    seed: 0,
    ...extra,
  });
  const choices = reply.response.choices as Choice[];
  return {
    choice: choices[0]!,
    usage: reply.response.usage as Usage,
    latencyMs: reply.latencyMs,
  };
}

/** A seeded Park–Miller generator for test data (independent of the sim's). */
export function lcg(seed: number): () => number {
  let s = seed % 2147483647 || 1;
  return () => (s = (s * 16807) % 2147483647) / 2147483647;
}

/** A random n-digit positive integer (leading digit non-zero). */
export function nDigits(rand: () => number, n: number): bigint {
  let text = String(1 + Math.floor(rand() * 9));
  for (let i = 1; i < n; i++) text += String(Math.floor(rand() * 10));
  return BigInt(text);
}
