/**
 * The sim server's Batch API: files (`/v1/files`) and batches
 * (`/v1/batches`) as OpenAI serves them, with states that move over time,
 * per-line failures at a seeded rate and a chosen expiry. Each line is
 * answered by the same sim engine as the chat route, so a batch answer
 * equals the online answer for the same body. Private to `lib/providers`.
 *
 * Time is computed, not scheduled: a batch created at `t0` is
 * `validating` until `t0 + stepMs`, `in_progress` until `t0 + 2·stepMs`
 * (line i of n finishes at `t0 + stepMs·(1 + (i+1)/n)`), `finalizing`
 * until `t0 + 3·stepMs`, then `completed`. An expiry or a cancel before
 * that keeps the lines finished by then; the rest go to the error file.
 *
 * The files live in `_sim_files.ts`, the input file's check in
 * `_batch_input.ts`.
 *
 * @module
 */
import { createHash } from "node:crypto";
import type { SimRequest } from "./sim/types.ts";
import {
  badRequest,
  type BatchReply,
  errorBody,
  notFound,
  ok,
} from "./_batch_replies.ts";
import {
  type BatchLine,
  type InputProblem,
  readBatchInput,
} from "./_batch_input.ts";
import type { SimBackend } from "./_sim_backend.ts";
import { SimFiles } from "./_sim_files.ts";

/** Batch behaviour of the sim server (`startSimServer({ batch })`). */
export interface BatchServerOptions {
  /** Length of each phase (validating, in progress, finalizing, cancelling) in ms. @default {1000} */
  stepMs?: number;
  /** Share of lines answered with a 500 in the error file, drawn per line (seeded). @default {0} */
  failureRate?: number;
  /** A batch expires this many ms after it was created. @default {86400000} (24 h) */
  expireAfterMs?: number;
}

/** Checks a chat request body; null when it is fine (the chat route's check). */
export type ChatValidator = (request: unknown) => string | null;

interface LineResult {
  ok: boolean;
  text: string;
}

interface SimBatch {
  id: string;
  input_file_id: string;
  endpoint: string;
  completion_window: string;
  metadata: unknown;
  createdMs: number;
  cancelMs: number | null;
  /** Parsed at the end of validation; null until then. */
  lines: BatchLine[] | null;
  errors: InputProblem[];
  results: LineResult[];
  outputFileId: string | null;
  errorFileId: string | null;
  finalized: boolean;
}

type Status =
  | "validating"
  | "failed"
  | "in_progress"
  | "finalizing"
  | "completed"
  | "expired"
  | "cancelling"
  | "cancelled";

const EXPIRED_MESSAGE =
  "This request could not be executed before the completion window expired.";
const CANCELLED_MESSAGE =
  "This request was not executed because the batch was cancelled.";

/** A draw in [0, 1) from a string (seeded line failures). */
function unit(text: string): number {
  return createHash("sha256").update(text).digest().readUInt32BE(0) / 2 ** 32;
}

/**
 * The files and batches of one sim server.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { BatchService } from "./_batch_server.ts";
 * import { defaultSimBackend } from "./_sim_backend.ts";
 * let now = 0;
 * const service = new BatchService(defaultSimBackend, () => null, { stepMs: 100 }, 0, () => now);
 * assert.equal(service.handle("GET", "/v1/models", ""), null);
 * assert.equal(service.handle("GET", "/v1/batches/batch_x", "")?.status, 404);
 * const line = (id: string) => JSON.stringify({
 *   custom_id: id, method: "POST", url: "/v1/chat/completions",
 *   body: { model: "sim-strong", messages: [{ role: "user", content: "What is 2 + 2?" }] },
 * });
 * const upload = ["--b", 'Content-Disposition: form-data; name="purpose"', "", "batch",
 *   "--b", 'Content-Disposition: form-data; name="file"; filename="in.jsonl"', "",
 *   [line("a"), line("b")].join("\n"), "--b--", ""].join("\r\n");
 * const file = JSON.parse(service.handle("POST", "/v1/files", upload)!.body);
 * const created = JSON.parse(service.handle("POST", "/v1/batches", JSON.stringify({
 *   input_file_id: file.id, endpoint: "/v1/chat/completions", completion_window: "24h",
 * }))!.body);
 * const at = (t: number) => {
 *   now = t;
 *   return JSON.parse(service.handle("GET", `/v1/batches/${created.id}`, "")!.body);
 * };
 * assert.equal(at(50).status, "validating");
 * assert.equal(at(150).status, "in_progress");
 * assert.deepEqual(at(150).request_counts, { total: 2, completed: 1, failed: 0 });
 * assert.equal(at(250).status, "finalizing");
 * const done = at(300);
 * assert.equal(done.status, "completed");
 * const output = service.handle("GET", `/v1/files/${done.output_file_id}/content`, "")!.body;
 * assert.equal(output.trim().split("\n").length, 2);
 * ```
 */
export class BatchService {
  readonly #backend: SimBackend;
  readonly #validate: ChatValidator;
  readonly #stepMs: number;
  readonly #failureRate: number;
  readonly #expireAfterMs: number;
  readonly #seed: number;
  readonly #now: () => number;
  readonly #files: SimFiles;
  readonly #batches = new Map<string, SimBatch>();
  #models: Set<string> | null = null;
  #next = 0;

  /**
   * @param backend The sim engine that answers each line.
   * @param validate The chat route's request check.
   * @param options Phase length, failure rate, expiry.
   * @param seed Seed of the line failure draws.
   * @param now The clock in ms. @default {Date.now}
   */
  constructor(
    backend: SimBackend,
    validate: ChatValidator,
    options: BatchServerOptions,
    seed: number,
    now: () => number = Date.now,
  ) {
    this.#backend = backend;
    this.#validate = validate;
    this.#stepMs = Math.max(0, options.stepMs ?? 1000);
    this.#failureRate = options.failureRate ?? 0;
    this.#expireAfterMs = options.expireAfterMs ?? 86_400_000;
    this.#seed = seed;
    this.#now = now;
    this.#files = new SimFiles((prefix) => this.#id(prefix), now);
  }

  /** Answers a files or batches route; null for any other path. */
  handle(method: string, path: string, body: string): BatchReply | null {
    if (path === "/v1/files" || path.startsWith("/v1/files/")) {
      return this.#files.route(method, path.slice("/v1/files".length), body);
    }
    if (path === "/v1/batches" || path.startsWith("/v1/batches/")) {
      return this.#batchesRoute(method, path.slice("/v1/batches".length), body);
    }
    return null;
  }

  #id(prefix: string): string {
    return `${prefix}_${(++this.#next).toString().padStart(6, "0")}`;
  }

  #batchesRoute(method: string, rest: string, body: string): BatchReply {
    if (method === "POST" && rest === "") return this.#create(body);
    if (method === "GET" && rest === "") {
      return ok({
        object: "list",
        data: [...this.#batches.values()].reverse().map((b) => this.#view(b)),
        has_more: false,
      });
    }
    const [id = "", sub] = rest.slice(1).split("/");
    const batch = this.#batches.get(decodeURIComponent(id));
    if (batch === undefined) {
      return notFound(`Cannot find batch "${id}": no such batch was created`);
    }
    if (method === "GET" && sub === undefined) return ok(this.#view(batch));
    if (method === "POST" && sub === "cancel") {
      const status = this.#status(batch, this.#now() - batch.createdMs);
      if (["validating", "in_progress", "finalizing"].includes(status)) {
        batch.cancelMs = this.#now() - batch.createdMs;
      } else if (status !== "cancelling" && status !== "cancelled") {
        return {
          status: 409,
          body: JSON.stringify(errorBody(
            `Cannot cancel batch ${batch.id}: it is already ${status}`,
            "invalid_request_error",
            null,
          )),
          outcome: "bad_request",
        };
      }
      return ok(this.#view(batch));
    }
    return notFound(`Cannot route ${method} /v1/batches${rest}`);
  }

  #create(text: string): BatchReply {
    let request: Record<string, unknown>;
    try {
      request = JSON.parse(text);
    } catch (error) {
      return badRequest(
        `Cannot parse request body: ${(error as Error).message}`,
      );
    }
    if (typeof request !== "object" || request === null) {
      return badRequest("Cannot create batch: the body must be a JSON object");
    }
    const { input_file_id: fileId, endpoint, completion_window: window } =
      request;
    if (endpoint !== "/v1/chat/completions") {
      return badRequest(
        `Cannot create batch: endpoint must be "/v1/chat/completions", got ${
          JSON.stringify(endpoint)
        }`,
      );
    }
    if (window !== "24h") {
      return badRequest(
        `Cannot create batch: completion_window must be "24h", got ${
          JSON.stringify(window)
        }`,
      );
    }
    const file = typeof fileId === "string"
      ? this.#files.get(fileId)
      : undefined;
    if (file === undefined || file.purpose !== "batch") {
      return notFound(
        `Cannot create batch: input_file_id ${
          JSON.stringify(fileId)
        } is not an uploaded file with purpose "batch"`,
      );
    }
    const batch: SimBatch = {
      id: this.#id("batch"),
      input_file_id: file.id,
      endpoint,
      completion_window: window,
      metadata: request.metadata ?? null,
      createdMs: this.#now(),
      cancelMs: null,
      lines: null,
      errors: [],
      results: [],
      outputFileId: null,
      errorFileId: null,
      finalized: false,
    };
    this.#batches.set(batch.id, batch);
    return ok(this.#view(batch));
  }

  /** Parses and checks the input file (the end of `validating`). */
  #lines(batch: SimBatch): BatchLine[] {
    if (batch.lines !== null) return batch.lines;
    const content = this.#files.get(batch.input_file_id)?.content ?? "";
    const input = readBatchInput(content, batch.endpoint);
    batch.errors.push(...input.errors);
    batch.lines = batch.errors.length > 0 ? [] : input.lines;
    return batch.lines;
  }

  /** The ms offset where processing stops early (cancel or expiry), or null. */
  #stop(batch: SimBatch): { at: number; why: "cancelled" | "expired" } | null {
    const end = 3 * this.#stepMs;
    const cancel = batch.cancelMs ?? Infinity;
    const expire = this.#expireAfterMs;
    if (cancel <= expire && cancel < end) {
      return { at: cancel, why: "cancelled" };
    }
    if (expire < cancel && expire < end) return { at: expire, why: "expired" };
    return null;
  }

  #status(batch: SimBatch, t: number): Status {
    const step = this.#stepMs;
    const stop = this.#stop(batch);
    if (stop !== null && t >= stop.at) {
      if (stop.why === "expired") return "expired";
      return t < stop.at + step ? "cancelling" : "cancelled";
    }
    if (t < step) return "validating";
    if (this.#lines(batch).length === 0) return "failed";
    if (t < 2 * step) return "in_progress";
    if (t < 3 * step) return "finalizing";
    return "completed";
  }

  /** Lines finished by offset `t` (in order). */
  #doneBy(batch: SimBatch, t: number): number {
    const step = this.#stepMs;
    if (t < step) return 0;
    const n = this.#lines(batch).length;
    if (step === 0 || t >= 2 * step) return n;
    // line i is done at step * (1 + (i + 1) / n)
    return Math.min(n, Math.floor(((t - step) / step) * n + 1e-9));
  }

  #answer(batch: SimBatch, upTo: number): void {
    const lines = this.#lines(batch);
    for (let i = batch.results.length; i < upTo; i++) {
      batch.results.push(this.#answerLine(batch, lines[i]!));
    }
  }

  #answerLine(batch: SimBatch, line: BatchLine): LineResult {
    const requestId = `req_${batch.id}_${line.custom_id}`;
    const reply = (status: number, body: unknown) => ({
      ok: status === 200,
      text: JSON.stringify({
        id: `batch_req_${unit(requestId).toString(36).slice(2, 14)}`,
        custom_id: line.custom_id,
        response: { status_code: status, request_id: requestId, body },
        error: null,
      }),
    });
    if (
      unit(`${this.#seed}|${batch.id}|${line.custom_id}`) < this.#failureRate
    ) {
      return reply(
        500,
        errorBody(
          "The server had an error while processing your request",
          "server_error",
          null,
        ),
      );
    }
    const problem = this.#validate(line.body);
    if (problem !== null) {
      return reply(400, errorBody(problem, "invalid_request_error", null));
    }
    const request = line.body as SimRequest;
    this.#models ??= new Set(this.#backend.simModelList().map((m) => m.id));
    if (!this.#models.has(request.model)) {
      return reply(
        404,
        errorBody(
          `Cannot find model "${request.model}"`,
          "invalid_request_error",
          "model_not_found",
        ),
      );
    }
    try {
      return reply(200, this.#backend.simChat(request).response);
    } catch (error) {
      return reply(
        500,
        errorBody(
          `Cannot answer: ${(error as Error).message}`,
          "server_error",
          null,
        ),
      );
    }
  }

  /** Writes the output and error files once the batch has ended. */
  #finalize(batch: SimBatch, status: Status, done: number): void {
    if (batch.finalized) return;
    batch.finalized = true;
    if (status === "failed") return;
    this.#answer(batch, done);
    const output = batch.results.filter((r) => r.ok).map((r) => r.text);
    const errors = batch.results.filter((r) => !r.ok).map((r) => r.text);
    const code = status === "expired" ? "batch_expired" : "batch_cancelled";
    const message = status === "expired" ? EXPIRED_MESSAGE : CANCELLED_MESSAGE;
    for (const line of this.#lines(batch).slice(done)) {
      errors.push(JSON.stringify({
        id: `batch_req_${unit(line.custom_id).toString(36).slice(2, 14)}`,
        custom_id: line.custom_id,
        response: null,
        error: { code, message },
      }));
    }
    const write = (name: string, lines: string[]) =>
      this.#files.store(
        name,
        "batch_output",
        lines.map((l) => l + "\n").join(""),
      ).id;
    if (output.length > 0) {
      batch.outputFileId = write(`${batch.id}_output.jsonl`, output);
    }
    if (errors.length > 0) {
      batch.errorFileId = write(`${batch.id}_error.jsonl`, errors);
    }
  }

  /** The batch object as `GET /v1/batches/{id}` returns it now. */
  #view(batch: SimBatch): Record<string, unknown> {
    const t = this.#now() - batch.createdMs;
    const status = this.#status(batch, t);
    const stop = this.#stop(batch);
    const until = stop !== null && t >= stop.at ? stop.at : t;
    const done = this.#doneBy(batch, until);
    if (status !== "validating") this.#answer(batch, done);
    if (["completed", "expired", "cancelled", "failed"].includes(status)) {
      this.#finalize(batch, status, done);
    }
    const second = (offset: number) =>
      Math.floor((batch.createdMs + offset) / 1000);
    const step = this.#stepMs;
    const lines = status === "validating" ? null : this.#lines(batch);
    const completed = batch.results.filter((r) => r.ok).length;
    const view: Record<string, unknown> = {
      id: batch.id,
      object: "batch",
      endpoint: batch.endpoint,
      errors: batch.errors.length > 0
        ? {
          object: "list",
          data: batch.errors.map((e) => ({ ...e, param: null })),
        }
        : null,
      input_file_id: batch.input_file_id,
      completion_window: batch.completion_window,
      status,
      output_file_id: batch.outputFileId,
      error_file_id: batch.errorFileId,
      created_at: second(0),
      in_progress_at: t >= step && status !== "failed" && lines !== null
        ? second(step)
        : null,
      expires_at: second(this.#expireAfterMs),
      finalizing_at: t >= 2 * step && status !== "failed"
        ? second(2 * step)
        : null,
      completed_at: status === "completed" ? second(3 * step) : null,
      failed_at: status === "failed" ? second(step) : null,
      expired_at: status === "expired" ? second(this.#expireAfterMs) : null,
      cancelling_at: batch.cancelMs === null ? null : second(batch.cancelMs),
      cancelled_at: status === "cancelled" && batch.cancelMs !== null
        ? second(batch.cancelMs + step)
        : null,
      request_counts: {
        total: lines?.length ?? 0,
        completed,
        failed: batch.results.length - completed +
          (batch.finalized && lines !== null ? lines.length - done : 0),
      },
      metadata: batch.metadata,
    };
    return view;
  }
}
