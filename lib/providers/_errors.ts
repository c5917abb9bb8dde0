/**
 * Maps failures of the `openai` client to the ErrorKind taxonomy and keeps
 * secrets out of messages. Private to `lib/providers`.
 *
 * @module
 */
import {
  APIConnectionError,
  APIConnectionTimeoutError,
  APIError,
  APIUserAbortError,
} from "openai";
import type { Completion, ErrorKind } from "../types.ts";

/** Header the counting fetch sets on a synthetic response for a malformed body. */
export const BAD_RESPONSE_HEADER = "x-calc-bench-bad-response";

/**
 * Classifies an error thrown by the `openai` client after its retries into
 * an ErrorKind, with the secret removed from the message.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { APIConnectionTimeoutError } from "openai";
 * import { classifyError } from "./_errors.ts";
 * assert.equal(classifyError(new APIConnectionTimeoutError(), "sk-x1234").kind, "timeout");
 * ```
 */
export function classifyError(
  error: unknown,
  secret: string | undefined,
): NonNullable<Completion["error"]> {
  const message = redact(describe(error), secret);
  if (error instanceof APIUserAbortError) return { kind: "aborted", message };
  if (error instanceof APIConnectionTimeoutError) {
    return { kind: "timeout", message };
  }
  if (error instanceof APIConnectionError) {
    return { kind: "connection", message };
  }
  if (error instanceof APIError && typeof error.status === "number") {
    const status = error.status;
    const headers = error.headers as Headers | undefined;
    return { kind: kindOfStatus(status, headers), message, status };
  }
  if (error instanceof SyntaxError) return { kind: "bad_response", message };
  if (error instanceof DOMException && error.name === "AbortError") {
    return { kind: "aborted", message };
  }
  return { kind: "unknown", message };
}

/**
 * The ErrorKind of an HTTP status (a batch error line carries only the
 * status).
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { errorKindOfStatus } from "./_errors.ts";
 * assert.equal(errorKindOfStatus(503), "server");
 * assert.equal(errorKindOfStatus(429), "rate_limit");
 * ```
 */
export function errorKindOfStatus(status: number): ErrorKind {
  return kindOfStatus(status, undefined);
}

function kindOfStatus(status: number, headers: Headers | undefined): ErrorKind {
  if (headers?.get(BAD_RESPONSE_HEADER)) return "bad_response";
  if (status === 429) return "rate_limit";
  if (status === 401 || status === 403) return "auth";
  if (status === 408) return "timeout";
  if (status >= 500) return "server";
  return "client";
}

function describe(error: unknown): string {
  const text = error instanceof Error ? error.message : String(error);
  return `Cannot complete chat request: ${
    text || (error as Error)?.name || "unknown error"
  }`;
}

/**
 * Replaces every occurrence of the secret with `***` (secrets under 4
 * characters are left alone: they would mask ordinary text).
 * Not store's `redactSecrets`: one request's key in an error message, as `***`.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { redact } from "./_errors.ts";
 * assert.equal(redact("bad key sk-abcd1234", "sk-abcd1234"), "bad key ***");
 * ```
 */
export function redact(text: string, secret: string | undefined): string {
  if (!secret || secret.length < 4) return text;
  return text.split(secret).join("***");
}
