/**
 * Wire and profile types of the simulated model.
 *
 * @module
 */

/** A function tool call in the OpenAI wire shape. */
export interface SimToolCall {
  /** Call id; a tool message answers it with `tool_call_id`. */
  id: string;
  /** Always `"function"`. */
  type: "function";
  /** The function name and its arguments as a JSON string. */
  function: { name: string; arguments: string };
}

/** One chat message of a {@linkcode SimRequest}. */
export interface SimMessage {
  /** Who wrote the message. */
  role: "system" | "user" | "assistant" | "tool";
  /** Message text; null for an assistant turn that only calls tools. */
  content: string | null;
  /** For `role: "tool"`: the id of the call this answers. */
  tool_call_id?: string;
  /** For `role: "assistant"`: tool calls the model made. */
  tool_calls?: SimToolCall[];
}

/** A function tool offered in a {@linkcode SimRequest}. */
export interface SimTool {
  /** Always `"function"`. */
  type: "function";
  /** Function name, description and JSON Schema of its parameters. */
  function: { name: string; description?: string; parameters?: unknown };
}

/** OpenAI chat-completions request body subset the sim reads. */
export interface SimRequest {
  /** Profile name, e.g. `"sim-strong"`; unknown names throw {@linkcode SimModelError}. */
  model: string;
  /** The conversation so far, oldest first. */
  messages: SimMessage[];
  /** Sampling temperature; the sim treats absent as 0. */
  temperature?: number;
  /** Cap on completion tokens; a longer reply is cut with finish reason `"length"`. */
  max_tokens?: number;
  /** Seed for the sim's random choices (same request and seed, same reply). */
  seed?: number;
  /** Tools the model may call. */
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
  /** One line on how this model behaves. */
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
