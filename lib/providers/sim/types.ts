/**
 * Wire and profile types of the simulated model.
 *
 * @module
 */

/** A function tool call in the OpenAI wire shape. */
export interface SimToolCall {
  id: string;
  type: "function";
  function: { name: string; arguments: string };
}

/** One chat message of a {@linkcode SimRequest}. */
export interface SimMessage {
  role: "system" | "user" | "assistant" | "tool";
  content: string | null;
  tool_call_id?: string;
  tool_calls?: SimToolCall[];
}

/** A function tool offered in a {@linkcode SimRequest}. */
export interface SimTool {
  type: "function";
  function: { name: string; description?: string; parameters?: unknown };
}

/** OpenAI chat-completions request body subset the sim reads. */
export interface SimRequest {
  /** Profile name, e.g. `"sim-strong"`; unknown names throw {@linkcode SimModelError}. */
  model: string;
  messages: SimMessage[];
  temperature?: number;
  max_tokens?: number;
  seed?: number;
  tools?: SimTool[];
  /** Unknown fields are ignored. */
  [extra: string]: unknown;
}

/** What {@linkcode simChat} returns. */
export interface SimReply {
  /**
   * A complete OpenAI ChatCompletion JSON object: id, object
   * `"chat.completion"`, created (a fixed constant), model, choices[0]
   * (message with content, optional reasoning_content and tool_calls;
   * finish_reason `"stop" | "length" | "tool_calls"`), usage.
   */
  response: Record<string, unknown>;
  /** Simulated latency in ms the server may sleep; deterministic. */
  latencyMs: number;
}

/** Where a profile puts its reasoning. */
export type SimThinking = "none" | "content" | "field";

/** A named simulated model and its behaviour knobs. */
export interface SimProfile {
  /** Model id, e.g. `"sim-strong"`. */
  name: string;
  description: string;
  /**
   * Digits of headroom over `sim-average` on the difficulty scale: a
   * problem of effective size n is solved as reliably as `sim-average`
   * solves size `n - skillShift`.
   */
  skillShift: number;
  /** Extra chance of a slip on any computed answer. */
  slipRate: number;
  /** Base chance of refusing ("I can't compute that..."); grows with size. */
  refusalRate: number;
  /** Chance of following a format instruction exactly (bare number, no commas). */
  compliance: number;
  /** Wraps answers in prose, bold, separators and Chinese sentences. */
  chatty: boolean;
  /** Reasoning placement: none, `<think>` in content, or `reasoning_content`. */
  thinking: SimThinking;
  /** Calls a `calculator` tool when one is offered. */
  toolUse: boolean;
  /** Chance of looping over its working until the token limit. */
  runawayRate: number;
  /** Fixed part of the simulated latency, ms. */
  baseLatencyMs: number;
  /** Per completion token part of the simulated latency, ms. */
  msPerToken: number;
}
