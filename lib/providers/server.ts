/**
 * The simulated model as an OpenAI-compatible HTTP server, with seeded
 * fault injection.
 *
 * @module
 */
import type { FaultRates } from "./_faults.ts";
import type { BatchServerOptions } from "./_batch_server.ts";
import type { SimServerStats } from "./_server_core.ts";
import { defaultSimBackend, type SimBackend } from "./_sim_backend.ts";
import { importLazily } from "../lazy.ts";

export type { FaultRates } from "./_faults.ts";
export type { BatchServerOptions } from "./_batch_server.ts";
export type { SimServerStats } from "./_server_core.ts";

/** Options of {@linkcode startSimServer}. */
export interface SimServerOptions {
  /** Address to bind. @default {"127.0.0.1"} */
  hostname?: string;
  /** Port; 0 picks any free port. @default {0} */
  port?: number;
  /** Seed of the fault draws. @default {0} */
  seed?: number;
  /** Fixed extra latency per answered request, in ms. @default {0} */
  latencyMs?: number;
  /** Also sleep the sim's own simulated latency. @default {false} */
  useSimLatency?: boolean;
  /** Fault rates; all 0 by default. */
  faults?: FaultRates;
  /** If set, require `Authorization: Bearer <apiKey>`, else answer 401. */
  apiKey?: string | undefined;
  /**
   * HTTP stack: `"deno"` (`Deno.serve`, fastest, cannot hang or drop
   * connections), `"node"` (`node:http`, can), or `"auto"`: node only when
   * `faults.rateHang` or `faults.rateDrop` is above 0. @default {"auto"}
   */
  transport?: "auto" | "deno" | "node";
  /** The simulated model (tests). @default {the real sim} */
  backend?: SimBackend;
  /** Batch API (`/v1/files`, `/v1/batches`): phase length, line failure rate, expiry. */
  batch?: BatchServerOptions;
}

/** A running sim server. */
export interface SimServer {
  /** e.g. `"http://127.0.0.1:41234/v1"`. */
  baseURL: string;
  /** The TCP port it listens on. */
  port: number;
  /** Counts of requests served so far (by outcome). */
  stats(): SimServerStats;
  /** Stops listening and drops every open connection, hung ones included. */
  close(): Promise<void>;
}

/**
 * Starts the sim as an OpenAI-compatible server: `POST /v1/chat/completions`
 * (JSON, or SSE chunks for `stream: true`, with a usage chunk when
 * `stream_options.include_usage`), `GET /v1/models` and
 * `GET /v1/models/{id}`, OpenAI-style JSON error bodies, and seeded faults
 * (429 + `Retry-After`, 500, 503, hangs, dropped connections, truncated
 * bodies), each at its own rate.
 *
 * Served by `Deno.serve`, or by `node:http` when requests must hang or
 * connections be dropped without a response (`socket.destroy()`, which
 * `Deno.serve` handlers cannot do); see `transport`.
 *
 * @param options Address, latency, faults and key.
 * @returns The running server; call `close()` when done.
 * @throws {TypeError} If `transport: "deno"` is combined with hangs or drops.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { startSimServer } from "./server.ts";
 * const server = await startSimServer();
 * const response = await fetch(`${server.baseURL}/models`);
 * const list = await response.json();
 * assert.equal(list.object, "list");
 * assert.ok(list.data.length > 0);
 * assert.equal(server.stats().requests, 1);
 * await server.close();
 * ```
 */
export async function startSimServer(
  options: SimServerOptions = {},
): Promise<SimServer> {
  const {
    hostname = "127.0.0.1",
    port = 0,
    seed = 0,
    latencyMs = 0,
    useSimLatency = false,
    faults = {},
    apiKey,
    transport = "auto",
    backend = defaultSimBackend,
  } = options;
  const needsSockets = (faults.rateDrop ?? 0) > 0 || (faults.rateHang ?? 0) > 0;
  if (transport === "deno" && needsSockets) {
    throw new TypeError(
      'Cannot start sim server: hangs and dropped connections need transport "node" or "auto"',
    );
  }
  // Loaded here, not at import: `node:http` and the batch and fault code
  // weigh on the start-up of every command that imports lib/providers
  // (a sweep never serves).
  const [{ ServerCore }, { serveWithDeno, serveWithNode }] = await Promise.all([
    importLazily<typeof import("./_server_core.ts")>(
      "./_server_core.ts",
      import.meta.url,
    ),
    importLazily<typeof import("./_transport.ts")>(
      "./_transport.ts",
      import.meta.url,
    ),
  ]);
  const core = new ServerCore({
    seed,
    latencyMs,
    useSimLatency,
    faults,
    apiKey,
    backend,
    ...(options.batch ? { batch: options.batch } : {}),
  });
  const useNode = transport === "node" ||
    (transport === "auto" && needsSockets);
  const listening = await (useNode ? serveWithNode : serveWithDeno)(
    core,
    hostname,
    port,
  );
  const host = listening.hostname.includes(":")
    ? `[${listening.hostname}]`
    : listening.hostname;
  return {
    baseURL: `http://${host}:${listening.port}/v1`,
    port: listening.port,
    stats: () => ({
      requests: core.stats.requests,
      byOutcome: { ...core.stats.byOutcome },
    }),
    close: () => listening.close(),
  };
}
