/**
 * The sim server's request handling, independent of the HTTP transport.
 * Private to `lib/providers`.
 *
 * @module
 */
import type { SimRequest } from "./sim/types.ts";
import { choiceCount } from "./sim/choices.ts";
import { FaultDrawer, type FaultRates } from "./_faults.ts";
import type { SimBackend } from "./_sim_backend.ts";
import { toEventStream } from "./_sse.ts";
import { type BatchServerOptions, BatchService } from "./_batch_server.ts";

const SSE_HEADERS = {
  "content-type": "text/event-stream",
  "cache-control": "no-cache",
};

function includeUsage(options: unknown): boolean {
  return typeof options === "object" && options !== null &&
    (options as { include_usage?: unknown }).include_usage === true;
}

/** Largest request body the server reads. */
export const MAX_BODY_BYTES = 16 * 1024 * 1024;

/** What a transport hands the core. */
export interface CoreRequest {
  method: string;
  /** Path without query string, e.g. `/v1/models`. */
  path: string;
  authorization: string | null;
  body: string;
}

/** What the transport must do. */
export type CoreOutcome =
  | {
    kind: "respond";
    status: number;
    body: string;
    headers?: Record<string, string>;
    /** Wait this long before answering. */
    delayMs: number;
  }
  | { kind: "hang" }
  | { kind: "drop" };

/** Request counts of a running server. */
export interface SimServerStats {
  /** Every request received, faulted or not. */
  requests: number;
  /**
   * Count per outcome: `ok`, `models`, `rate_limit`, `server_500`,
   * `server_503`, `hang`, `drop`, `malformed`, `bad_request`,
   * `unauthorized`, `not_found`, and `batch` for an answered files or
   * batches route.
   */
  byOutcome: Record<string, number>;
}

/** Settings of the core. */
export interface CoreOptions {
  seed: number;
  latencyMs: number;
  useSimLatency: boolean;
  faults: FaultRates;
  apiKey: string | undefined;
  backend: SimBackend;
  /** Batch API behaviour (phase length, failure rate, expiry). */
  batch?: BatchServerOptions;
}

/**
 * The routing, validation, fault draws and sim calls of the server; the
 * transports only move bytes.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { ServerCore } from "./_server_core.ts";
 * import { defaultSimBackend } from "./_sim_backend.ts";
 * const core = new ServerCore({
 *   seed: 0, latencyMs: 0, useSimLatency: false, faults: {}, apiKey: undefined,
 *   backend: defaultSimBackend,
 * });
 * const outcome = core.handle({ method: "GET", path: "/v1/models", authorization: null, body: "" });
 * assert.equal(outcome.kind === "respond" && outcome.status, 200);
 * assert.deepEqual(core.stats, { requests: 1, byOutcome: { models: 1 } });
 * ```
 */
export class ServerCore {
  readonly stats: SimServerStats = { requests: 0, byOutcome: {} };
  readonly #options: CoreOptions;
  readonly #drawer: FaultDrawer;
  readonly #retryAfter: string;
  readonly #models;
  readonly #modelsBody: string;
  readonly #modelIds: Set<string>;
  readonly #batches: BatchService;

  constructor(options: CoreOptions) {
    this.#options = options;
    this.#drawer = new FaultDrawer(options.seed, options.faults);
    this.#retryAfter = String(options.faults.retryAfterS ?? 1);
    this.#models = options.backend.simModelList();
    this.#modelsBody = JSON.stringify({ object: "list", data: this.#models });
    this.#modelIds = new Set(this.#models.map((model) => model.id));
    this.#batches = new BatchService(
      options.backend,
      validate,
      options.batch ?? {},
      options.seed,
    );
  }

  /** Handles one request. */
  handle(request: CoreRequest): CoreOutcome {
    this.stats.requests++;
    const { apiKey } = this.#options;
    const path = request.path.length > 1
      ? request.path.replace(/\/+$/, "")
      : request.path;
    if (apiKey !== undefined && request.authorization !== `Bearer ${apiKey}`) {
      return this.#error(
        "unauthorized",
        401,
        "invalid_request_error",
        "invalid_api_key",
        "Cannot authenticate: missing or wrong API key in the Authorization header",
      );
    }
    if (request.method === "POST" && path === "/v1/chat/completions") {
      return this.#chat(request.body);
    }
    if (request.method === "GET" && path === "/v1/models") {
      return this.#ok("models", this.#modelsBody);
    }
    if (request.method === "GET" && path.startsWith("/v1/models/")) {
      const id = decodeURIComponent(path.slice("/v1/models/".length));
      const model = this.#models.find((entry) => entry.id === id);
      if (model) return this.#ok("models", JSON.stringify(model));
      return this.#error(
        "not_found",
        404,
        "invalid_request_error",
        "model_not_found",
        `Cannot find model "${id}"`,
      );
    }
    const batch = this.#batches.handle(request.method, path, request.body);
    if (batch !== null) {
      this.#count(batch.outcome);
      return {
        kind: "respond",
        status: batch.status,
        body: batch.body,
        delayMs: 0,
      };
    }
    return this.#error(
      "not_found",
      404,
      "invalid_request_error",
      "unknown_url",
      `Cannot route ${request.method} ${path}: this server offers POST /v1/chat/completions and GET /v1/models`,
    );
  }

  /** The answer to a body over {@linkcode MAX_BODY_BYTES}. */
  tooLarge(): CoreOutcome {
    this.stats.requests++;
    return this.#error(
      "bad_request",
      413,
      "invalid_request_error",
      null,
      `Cannot read request body: larger than ${MAX_BODY_BYTES} bytes`,
    );
  }

  #count(outcome: string) {
    this.stats.byOutcome[outcome] = (this.stats.byOutcome[outcome] ?? 0) + 1;
  }

  #ok(
    outcome: string,
    body: string,
    delayMs = 0,
    headers?: Record<string, string>,
  ): CoreOutcome {
    this.#count(outcome);
    return {
      kind: "respond",
      status: 200,
      body,
      delayMs,
      ...(headers ? { headers } : {}),
    };
  }

  #error(
    outcome: string,
    status: number,
    type: string,
    code: string | null,
    message: string,
    headers?: Record<string, string>,
  ): CoreOutcome {
    this.#count(outcome);
    const body = JSON.stringify({
      error: { message, type, code, param: null },
    });
    return {
      kind: "respond",
      status,
      body,
      delayMs: 0,
      ...(headers ? { headers } : {}),
    };
  }

  #chat(text: string): CoreOutcome {
    let request: SimRequest;
    try {
      request = JSON.parse(text);
    } catch (error) {
      return this.#error(
        "bad_request",
        400,
        "invalid_request_error",
        "invalid_json",
        `Cannot parse request body: ${(error as Error).message}`,
      );
    }
    const problem = validate(request);
    if (problem !== null) {
      return this.#error(
        "bad_request",
        400,
        "invalid_request_error",
        null,
        problem,
      );
    }
    if (!this.#modelIds.has(request.model)) {
      return this.#error(
        "not_found",
        404,
        "invalid_request_error",
        "model_not_found",
        `Cannot find model "${request.model}": known models are ${
          [...this.#modelIds].join(", ")
        }`,
      );
    }
    const fault = this.#drawer.draw(text);
    switch (fault) {
      case "429":
        return this.#error(
          "rate_limit",
          429,
          "rate_limit_exceeded",
          "rate_limit_exceeded",
          `Rate limit reached for ${request.model}; retry after ${this.#retryAfter} s`,
          { "retry-after": this.#retryAfter },
        );
      case "500":
        return this.#error(
          "server_500",
          500,
          "server_error",
          null,
          "Internal server error",
        );
      case "503":
        return this.#error(
          "server_503",
          503,
          "server_error",
          null,
          "The server is overloaded; try again later",
        );
      case "hang":
        this.#count("hang");
        return { kind: "hang" };
      case "drop":
        this.#count("drop");
        return { kind: "drop" };
    }
    let reply;
    try {
      reply = this.#options.backend.simChat(request);
    } catch (error) {
      if (error instanceof RangeError) {
        return this.#error(
          "not_found",
          404,
          "invalid_request_error",
          "model_not_found",
          `Cannot find model "${request.model}": ${error.message}`,
        );
      }
      return this.#error(
        "server_500",
        500,
        "server_error",
        null,
        `Cannot answer: ${(error as Error).message}`,
      );
    }
    const streamed = request.stream === true;
    const body = streamed
      ? toEventStream(reply.response, includeUsage(request.stream_options))
      : JSON.stringify(reply.response);
    const headers = streamed ? SSE_HEADERS : undefined;
    const { latencyMs, useSimLatency } = this.#options;
    const delayMs = latencyMs + (useSimLatency ? reply.latencyMs : 0);
    if (fault === "malformed") {
      const cut = body.slice(0, Math.max(1, Math.floor(body.length / 2)));
      return this.#ok("malformed", cut, delayMs, headers);
    }
    return this.#ok("ok", body, delayMs, headers);
  }
}

function validate(request: unknown): string | null {
  if (
    typeof request !== "object" || request === null || Array.isArray(request)
  ) {
    return "Cannot read request: the body must be a JSON object";
  }
  const body = request as Record<string, unknown>;
  if (typeof body.model !== "string" || body.model.length === 0) {
    return "Cannot read request: 'model' is required (a string)";
  }
  if (!Array.isArray(body.messages) || body.messages.length === 0) {
    return "Cannot read request: 'messages' is required (a non-empty array)";
  }
  for (const [index, message] of body.messages.entries()) {
    if (
      typeof message !== "object" || message === null ||
      typeof message.role !== "string"
    ) {
      return `Cannot read request: messages[${index}] must be an object with a 'role'`;
    }
    if (typeof message.content !== "string" && message.content !== null) {
      return `Cannot read request: messages[${index}].content must be a string or null`;
    }
  }
  if (body.stream !== undefined && typeof body.stream !== "boolean") {
    return "Cannot read request: 'stream' must be a boolean";
  }
  if (body.n !== undefined && body.n !== null) {
    try {
      if (choiceCount(body as SimRequest) > 1 && body.stream === true) {
        return "Cannot read request: the sim streams one choice; send 'n' > 1 without 'stream'";
      }
    } catch (error) {
      return (error as Error).message;
    }
  }
  return null;
}
