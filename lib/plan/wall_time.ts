/**
 * Expected wall time of a model's requests under its concurrency, RPM and
 * TPM limits.
 *
 * @module
 */

/** Latency assumed for a real endpoint with nothing measured: fixed part, ms. */
export const ASSUMED_BASE_LATENCY_MS = 1000;
/** Latency assumed for a real endpoint with nothing measured: per output token, ms. */
export const ASSUMED_MS_PER_TOKEN = 20;

/** What {@linkcode wallTime} needs to know about a batch of requests. */
export interface WallTimeInput {
  /** Requests to send. */
  requests: number;
  /** Expected latency of one request, ms. */
  latencyMs: number;
  /** Tokens a TPM limit counts for one request (prompt + max_tokens for OpenAI and the runner). */
  tokensPerRequest: number;
  /** Requests in flight at once. */
  concurrency: number;
  /** Requests per minute; 0 = unlimited. */
  rpm: number;
  /** Tokens per minute; 0 = unlimited. */
  tpm: number;
}

/** Which limit sets the pace. */
export type PaceBound = "concurrency" | "rpm" | "tpm";

/** The pace and the time it gives. */
export interface WallTime {
  /** Expected seconds for all the requests. */
  seconds: number;
  /** Requests per second at that pace. */
  requestsPerSecond: number;
  /** The limit that sets the pace. */
  bound: PaceBound;
}

/**
 * Requests ÷ the slowest of three paces: concurrency ÷ latency, RPM ÷ 60
 * and TPM ÷ tokens per request ÷ 60 (requests per second). Start-up and
 * retries are not counted.
 *
 * @param input Requests, latency, tokens per request and the limits.
 * @returns Seconds, the pace and the limit that sets it.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { wallTime } from "./wall_time.ts";
 * // 16 in flight at 2 s = 8/s; 300 RPM = 5/s; TPM unlimited: RPM binds.
 * const t = wallTime({ requests: 600, latencyMs: 2000, tokensPerRequest: 500, concurrency: 16, rpm: 300, tpm: 0 });
 * assert.equal(t.bound, "rpm");
 * assert.equal(t.seconds, 120);
 * ```
 */
export function wallTime(input: WallTimeInput): WallTime {
  const { requests, latencyMs, tokensPerRequest, concurrency, rpm, tpm } =
    input;
  const paces: [PaceBound, number][] = [
    [
      "concurrency",
      latencyMs > 0 ? concurrency / (latencyMs / 1000) : Infinity,
    ],
  ];
  if (rpm > 0) paces.push(["rpm", rpm / 60]);
  if (tpm > 0 && tokensPerRequest > 0) {
    paces.push(["tpm", tpm / tokensPerRequest / 60]);
  }
  let [bound, pace] = paces[0]!;
  for (const [b, p] of paces) {
    if (p < pace) [bound, pace] = [b, p];
  }
  const seconds = requests === 0 || pace === Infinity ? 0 : requests / pace;
  return { seconds, requestsPerSecond: pace, bound };
}
