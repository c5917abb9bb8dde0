/**
 * Turns a ChatCompletion JSON into the `text/event-stream` body an
 * OpenAI-compatible server sends for `stream: true`. Private to
 * `lib/providers`.
 *
 * @module
 */

/** Characters per content or reasoning delta. */
const PIECE = 16;

interface Message {
  role?: string;
  content?: string | null;
  reasoning_content?: string | null;
  tool_calls?: {
    id: string;
    type: string;
    function: { name: string; arguments: string };
  }[];
}

/**
 * Builds the SSE body of a streamed chat completion: a role delta, the
 * reasoning and content in small deltas, tool calls, a final chunk with the
 * finish reason, a usage chunk when `includeUsage`, then `data: [DONE]`.
 * Written by hand: the chunk layout is the OpenAI wire format, which no
 * library builds server-side.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { toEventStream } from "./_sse.ts";
 * const body = toEventStream({
 *   id: "c1", created: 1, model: "m",
 *   choices: [{ index: 0, message: { role: "assistant", content: "42" }, finish_reason: "stop" }],
 * }, false);
 * const events = body.split("\n\n").filter(Boolean);
 * assert.equal(events.at(-1), "data: [DONE]");
 * assert.equal(JSON.parse(events[1]!.slice(6)).choices[0].delta.content, "42");
 * ```
 */
export function toEventStream(
  response: Record<string, unknown>,
  includeUsage: boolean,
): string {
  const choice =
    (response.choices as { message?: Message; finish_reason?: string }[])[0] ??
      {};
  const message = choice.message ?? {};
  const base = {
    id: response.id,
    object: "chat.completion.chunk",
    created: response.created,
    model: response.model,
  };
  const events: string[] = [];
  const push = (delta: Record<string, unknown>, finish: string | null = null) =>
    events.push(
      JSON.stringify({
        ...base,
        choices: [{ index: 0, delta, finish_reason: finish }],
      }),
    );
  push({ role: message.role ?? "assistant", content: "" });
  for (const piece of pieces(message.reasoning_content)) {
    push({ reasoning_content: piece });
  }
  for (const piece of pieces(message.content)) push({ content: piece });
  for (const [index, call] of (message.tool_calls ?? []).entries()) {
    push({ tool_calls: [{ index, ...call }] });
  }
  push({}, choice.finish_reason ?? "stop");
  if (includeUsage && response.usage !== undefined) {
    events.push(
      JSON.stringify({ ...base, choices: [], usage: response.usage }),
    );
  }
  events.push("[DONE]");
  return events.map((event) => `data: ${event}\n\n`).join("");
}

function pieces(text: string | null | undefined): string[] {
  if (!text) return [];
  const chars = Array.from(text); // whole code points, so no piece splits a character
  const out: string[] = [];
  for (let i = 0; i < chars.length; i += PIECE) {
    out.push(chars.slice(i, i + PIECE).join(""));
  }
  return out;
}
