/**
 * The sim's answer to a request with `n` > 1 (several choices in one
 * call): choice i is exactly the reply a single request would get with
 * the seed {@linkcode choiceSeed}(seed, i). The sweep's request seed of
 * sample i is `requestSeed(sweepSeed, i)` — the same formula — so one call
 * with `seed: sweepSeed, n: k` gives, choice by choice, the k rows that k
 * separate calls give.
 *
 * @module
 */
import { simChat } from "./chat.ts";
import { hash32 } from "./rng.ts";
import type { RegisteredSkill } from "./skills/types.ts";
import type { SimReply, SimRequest } from "./types.ts";

/** Most choices one request may ask for (the OpenAI API's limit). */
export const MAX_CHOICES = 128;

/**
 * The seed choice `i` of an `n` > 1 request with seed `seed` is answered
 * with: FNV-1a of `"<seed>:<i>"`, shifted to a non-negative 31-bit
 * integer — the runner's `requestSeed(seed, i)`.
 *
 * @param seed The request's seed.
 * @param choice The choice index (0-based).
 * @returns An integer in [0, 2^31).
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { choiceSeed } from "./choices.ts";
 * assert.notEqual(choiceSeed(7, 0), choiceSeed(7, 1));
 * assert.ok(choiceSeed(7, 1) >= 0 && choiceSeed(7, 1) < 2 ** 31);
 * ```
 */
export function choiceSeed(seed: number, choice: number): number {
  return hash32(`${seed}:${choice}`) >>> 1;
}

/** `n` of a request: 1 when absent. @throws {TypeError} when not an integer in 1..128. */
export function choiceCount(request: SimRequest): number {
  const n = request.n;
  if (n === undefined || n === null) return 1;
  if (
    typeof n !== "number" || !Number.isInteger(n) || n < 1 || n > MAX_CHOICES
  ) {
    throw new TypeError(
      `Cannot read request: 'n' must be an integer from 1 to ${MAX_CHOICES}`,
    );
  }
  return n;
}

/**
 * Simulates a chat completion with `n` choices. With `n` absent or 1 this
 * is {@linkcode simChat}; otherwise choice i is `simChat` of the same
 * request with seed `choiceSeed(seed, i)` (seed 0 when absent), usage
 * counts the prompt once and the completion tokens of every choice, and
 * the latency is the slowest choice's.
 *
 * @param request An OpenAI chat-completions request body.
 * @param skills The skills that read and solve prompts.
 * @returns The ChatCompletion with `n` choices and a simulated latency.
 * @throws {TypeError} When `n` is not an integer in 1..128.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { choiceSeed, simChoices } from "./choices.ts";
 * import { simChat } from "./chat.ts";
 * const request = { model: "sim-weak", messages: [{ role: "user" as const, content: "Hello" }], seed: 5 };
 * const three = simChoices({ ...request, n: 3 }).response as { choices: { message: unknown }[] };
 * assert.equal(three.choices.length, 3);
 * const single = simChat({ ...request, seed: choiceSeed(5, 2) }).response as typeof three;
 * assert.deepEqual(three.choices[2]?.message, single.choices[0]?.message);
 * ```
 */
export function simChoices(
  request: SimRequest,
  skills: readonly RegisteredSkill[] = [],
): SimReply {
  const n = choiceCount(request);
  if (n === 1) return simChat(request, skills);
  const { n: _n, ...single } = request;
  const seed = typeof request.seed === "number" && Number.isFinite(request.seed)
    ? Math.trunc(request.seed)
    : 0;
  const replies = Array.from(
    { length: n },
    (_, i) => simChat({ ...single, seed: choiceSeed(seed, i) }, skills),
  );
  const first = replies[0]!.response;
  const usageOf = (reply: SimReply) =>
    reply.response.usage as {
      prompt_tokens: number;
      completion_tokens: number;
    };
  const promptTokens = usageOf(replies[0]!).prompt_tokens;
  const completionTokens = replies.reduce(
    (sum, reply) => sum + usageOf(reply).completion_tokens,
    0,
  );
  return {
    response: {
      ...first,
      choices: replies.map((reply, index) => ({
        ...(reply.response.choices as Record<string, unknown>[])[0],
        index,
      })),
      usage: {
        prompt_tokens: promptTokens,
        completion_tokens: completionTokens,
        total_tokens: promptTokens + completionTokens,
      },
    },
    latencyMs: Math.max(...replies.map((reply) => reply.latencyMs)),
  };
}
