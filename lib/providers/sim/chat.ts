/**
 * `simChat`: one OpenAI chat-completions request in, one deterministic
 * ChatCompletion out.
 *
 * @module
 */
import { readInstructions } from "./instructions.ts";
import { hash32, mix32, mulberry32 } from "./rng.ts";
import { nonAnswer, renderAnswer, runaway } from "./_render.ts";
import { getSimProfile, SIM_CREATED } from "./profiles.ts";
import { findSkillAnswer } from "./skills/mod.ts";
import { replyReaderSkill } from "./skills/reader.ts";
import type {
  RegisteredSkill,
  SkillAnswer,
  SkillInput,
} from "./skills/types.ts";
import type { SimMessage, SimReply, SimRequest, SimToolCall } from "./types.ts";

/**
 * The sim's token estimate: about 4 characters (UTF-16 code units) per
 * token, rounded up.
 *
 * @param chars A character count.
 * @returns The estimated token count.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { tokensOfChars } from "./mod.ts";
 *
 * assert.equal(tokensOfChars(9), 3);
 * ```
 */
export function tokensOfChars(chars: number): number {
  return Math.ceil(chars / 4);
}

/** Tokens a runaway or unlimited reply may use when max_tokens is absent. */
const DEFAULT_LIMIT = 4096;

function textOf(content: unknown): string {
  if (typeof content === "string") return content;
  if (Array.isArray(content)) {
    return content.map((p) =>
      typeof p === "object" && p !== null && "text" in p ? String(p.text) : ""
    ).join("");
  }
  return "";
}

function isToolCall(c: unknown): c is SimToolCall {
  if (typeof c !== "object" || c === null) return false;
  const call = c as Partial<SimToolCall>;
  return typeof call.id === "string" &&
    typeof call.function?.name === "string" &&
    typeof call.function.arguments === "string";
}

/** One message with text content and only well-formed tool calls. */
function cleanMessage(m: unknown, index: number): SimMessage {
  if (typeof m !== "object" || m === null) {
    throw new TypeError(
      `Cannot simulate chat: messages[${index}] must be an object`,
    );
  }
  const raw = m as Partial<SimMessage>;
  const out: SimMessage = {
    role: raw.role ?? "user",
    content: textOf(raw.content),
  };
  if (typeof raw.tool_call_id === "string") {
    out.tool_call_id = raw.tool_call_id;
  }
  if (Array.isArray(raw.tool_calls)) {
    out.tool_calls = raw.tool_calls.filter(isToolCall);
  }
  return out;
}

function hex(n: number): string {
  return n.toString(16).padStart(8, "0");
}

/** Cuts text to at most `chars` code units without splitting a surrogate pair. */
function cut(text: string, chars: number): string {
  if (text.length <= chars) return text;
  let end = Math.max(0, chars);
  const code = text.charCodeAt(end - 1);
  if (code >= 0xd800 && code <= 0xdbff) end--;
  return text.slice(0, end);
}

function toolResultAnswer(
  messages: readonly SimMessage[],
  last: SimMessage,
): SkillAnswer | null {
  const raw = textOf(last.content).replace(/(\d),(?=\d{3})/g, "$1");
  const m = /-?\d+(?:\.\d+)?(?:\/\d+)?/.exec(raw);
  if (!m) return null;
  let expression: string | undefined;
  for (let i = messages.length - 2; i >= 0 && expression === undefined; i--) {
    const call = messages[i]!.tool_calls?.find((c) =>
      c.id === last.tool_call_id
    );
    if (call) {
      try {
        const args = JSON.parse(call.function.arguments);
        if (typeof args?.expression === "string") expression = args.expression;
      } catch {
        // Malformed arguments: answer without restating.
      }
    }
  }
  return {
    answer: m[0],
    numeric: true,
    ...(expression !== undefined ? { restatement: expression } : {}),
    steps: [`calculator(${expression ?? "…"}) = ${m[0]}`],
    difficulty: 0,
  };
}

/** What {@linkcode simChat} reads from a request before answering it. */
function readRequest(request: SimRequest) {
  const profile = getSimProfile(request.model);
  if (!Array.isArray(request.messages)) {
    throw new TypeError("Cannot simulate chat: messages must be an array");
  }
  const messages = request.messages.map(cleanMessage);
  const temperature = typeof request.temperature === "number" &&
      Number.isFinite(request.temperature)
    ? Math.max(0, request.temperature)
    : 1;
  const rawMax = request.max_tokens ?? request["max_completion_tokens"];
  const maxTokens = typeof rawMax === "number" && rawMax > 0
    ? Math.floor(rawMax)
    : null;
  const seed = typeof request.seed === "number" && Number.isFinite(request.seed)
    ? Math.trunc(request.seed)
    : 0;
  const tools = Array.isArray(request.tools) ? request.tools : [];

  let promptChars = 0;
  const canon: unknown[] = [];
  let system = "", question = "";
  for (const m of messages) {
    const text = m.content ?? "";
    promptChars += text.length;
    for (const c of m.tool_calls ?? []) {
      promptChars += c.function.arguments.length;
    }
    canon.push([m.role, text, m.tool_call_id ?? null, m.tool_calls ?? null]);
    if (m.role === "system") system += (system ? "\n" : "") + text;
    else if (m.role === "user") question = text;
  }
  const key = hash32(JSON.stringify([
    request.model,
    canon,
    temperature,
    maxTokens,
    tools.map((t) => t.function?.name ?? ""),
  ]));
  const stream = mix32(mix32(key, seed >>> 0), Math.floor(seed / 4294967296));
  const rng = mulberry32(stream);
  const instructions = readInstructions(messages, system, question);
  const input: SkillInput = {
    request,
    profile,
    question,
    system,
    instructions,
    temperature,
    rng,
  };
  return {
    profile,
    messages,
    maxTokens,
    tools,
    promptChars,
    key,
    stream,
    rng,
    instructions,
    input,
  };
}

/**
 * The skill the sim answers a request's question with: the first of
 * `skills` that reads the last user message, as {@linkcode simChat} tries
 * them. `null` means the sim has no skill for it, so its reply is a
 * polite non-answer ("Could you rephrase the question?") and no suite can
 * extract an answer from it. The sweep uses this to warn when a sim model
 * read none of a suite's prompts; nothing in the reply changes.
 *
 * @param request An OpenAI chat-completions request body.
 * @param skills The skills, tried in order.
 * @returns The skill's name, or null when none reads the question.
 * @throws {SimModelError} When `request.model` is not a sim profile.
 * @throws {TypeError} When `request.messages` is not an array.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { defineSkill, simSkillFor } from "./mod.ts";
 *
 * const adder = defineSkill({
 *   name: "adder",
 *   match: ({ question }) => /(\d+) \+ (\d+)/.exec(question),
 *   solve: (m) => ({ answer: String(Number(m[1]) + Number(m[2])), numeric: true, steps: [], difficulty: 1 }),
 * });
 * const ask = (content: string) => ({ model: "sim-strong", messages: [{ role: "user" as const, content }] });
 * assert.equal(simSkillFor(ask("What is 48 + 37?"), [adder]), "adder");
 * assert.equal(simSkillFor(ask("Is 7 even or odd?"), [adder]), null);
 * ```
 */
export function simSkillFor(
  request: SimRequest,
  skills: readonly RegisteredSkill[],
): string | null {
  return findSkillAnswer(readRequest(request).input, skills)?.skill ?? null;
}

/**
 * Simulates one chat completion. Deterministic: the same request (model,
 * messages, temperature, max_tokens, seed, tools) gives a byte-identical
 * reply; the seed changes the sample even at temperature 0. Answers only
 * from the prompt text.
 *
 * Token usage: prompt_tokens = ⌈characters of all message contents and
 * tool-call arguments / 4⌉; completion_tokens = ⌈characters of content,
 * reasoning and tool-call arguments / 4⌉, at most max_tokens (the reply is
 * cut at max_tokens × 4 characters with finish_reason "length").
 * Latency: profile base + per-token cost × completion_tokens + 0.02 ms per
 * prompt token.
 *
 * Defaults as in the OpenAI API: `temperature` 1 when absent (each 1.0
 * above 0 raises slip rates: pass chance p becomes p^(1 + 0.3·T)),
 * `seed` 0, no `max_tokens` (`max_completion_tokens` is read too; a reply
 * without either is still cut at 4096 tokens).
 *
 * @param request An OpenAI chat-completions request body.
 * @param skills The skills that read and solve prompts, tried in order
 *   (each suite brings its own; see `lib/suites/mod.ts`). Without one
 *   that matches, the sim says it cannot answer.
 * @returns The ChatCompletion object and a simulated latency.
 * @throws {SimModelError} When `request.model` is not a sim profile.
 * @throws {TypeError} When `request.messages` is not an array.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { defineSkill, simChat } from "./mod.ts";
 *
 * const adder = defineSkill({
 *   name: "adder",
 *   match: ({ question }) => /(\d+) \+ (\d+)/.exec(question),
 *   solve: (m) => ({ answer: String(Number(m[1]) + Number(m[2])), numeric: true, steps: [], difficulty: 1 }),
 * });
 * const request = {
 *   model: "sim-strong",
 *   messages: [{ role: "user" as const, content: "What is 48 + 37? Output only the number." }],
 *   temperature: 0,
 *   seed: 1,
 * };
 * const { response } = simChat(request, [adder]);
 * const choice = (response.choices as { message: { content: string } }[])[0];
 * assert.equal(choice?.message.content, "85");
 * assert.deepEqual(simChat(request, [adder]), simChat(request, [adder]));
 * ```
 */
export function simChat(
  request: SimRequest,
  skills: readonly RegisteredSkill[] = [],
): SimReply {
  const {
    profile,
    messages,
    maxTokens,
    tools,
    promptChars,
    key,
    stream,
    rng,
    instructions,
    input,
  } = readRequest(request);

  const last = messages[messages.length - 1];
  let answer: SkillAnswer | null = last?.role === "tool"
    ? toolResultAnswer(messages, last)
    : null;
  // The sim's own reader first: the extraction judge's prompt quotes a
  // question a suite's skill would otherwise solve; no suite prompt
  // matches the reader.
  answer ??= findSkillAnswer(input, [replyReaderSkill, ...skills])?.answer ??
    null;

  let content: string | null;
  let reasoning: string | null = null;
  let toolCalls: SimToolCall[] | undefined;
  let finish = "stop";
  const hasCalculator = tools.some((t) => t.function?.name === "calculator");
  if (
    answer?.toolExpression && !answer.refusal && hasCalculator &&
    profile.toolUse && last?.role === "user"
  ) {
    toolCalls = [{
      id: `call_${hex(mix32(stream, 1))}${hex(mix32(stream, 2))}`,
      type: "function",
      function: {
        name: "calculator",
        arguments: JSON.stringify({ expression: answer.toolExpression }),
      },
    }];
    content = null;
    if (profile.thinking === "field") {
      reasoning = `I should use the calculator for ${answer.toolExpression}.`;
    }
    finish = "tool_calls";
  } else if (answer === null) {
    content = nonAnswer(instructions.chinese);
  } else if (rng() < profile.runawayRate) {
    content = runaway(
      answer,
      instructions,
      (maxTokens ?? DEFAULT_LIMIT) * 4 + 4,
    );
  } else {
    const r = renderAnswer(answer, instructions, profile, rng);
    content = r.content;
    reasoning = r.reasoning;
  }

  if (
    reasoning !== null && profile.thinking === "content" && content !== null
  ) {
    content = `<think>\n${reasoning}\n</think>\n\n${content}`;
    reasoning = null;
  }
  const budget = (maxTokens ?? DEFAULT_LIMIT) * 4;
  const used = (reasoning?.length ?? 0) + (content?.length ?? 0);
  if (used > budget && !toolCalls) {
    finish = "length";
    if (reasoning !== null && reasoning.length >= budget) {
      reasoning = cut(reasoning, budget);
      content = "";
    } else {
      content = cut(content ?? "", budget - (reasoning?.length ?? 0));
    }
  }

  const argsChars =
    toolCalls?.reduce((n, c) => n + c.function.arguments.length, 0) ?? 0;
  const completionTokens = Math.max(
    1,
    tokensOfChars(
      (reasoning?.length ?? 0) + (content?.length ?? 0) + argsChars,
    ),
  );
  const promptTokens = tokensOfChars(promptChars);
  const message: Record<string, unknown> = { role: "assistant", content };
  if (reasoning !== null) message.reasoning_content = reasoning;
  if (toolCalls) message.tool_calls = toolCalls;
  message.refusal = null;
  const usage: Record<string, unknown> = {
    prompt_tokens: promptTokens,
    completion_tokens: completionTokens,
    total_tokens: promptTokens + completionTokens,
  };
  if (reasoning !== null) {
    usage.completion_tokens_details = {
      reasoning_tokens: Math.min(
        completionTokens,
        tokensOfChars(reasoning.length),
      ),
    };
  }
  return {
    response: {
      id: `chatcmpl-sim-${hex(key)}${hex(stream)}`,
      object: "chat.completion",
      created: SIM_CREATED,
      model: request.model,
      system_fingerprint: "sim-1",
      choices: [{ index: 0, message, logprobs: null, finish_reason: finish }],
      usage,
    },
    latencyMs: Math.round(
      profile.baseLatencyMs + profile.msPerToken * completionTokens +
        0.02 * promptTokens,
    ),
  };
}
