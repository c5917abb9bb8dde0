/**
 * A `fetch` for the `openai` client that counts attempts per call and turns
 * malformed JSON bodies into retryable responses. Private to `lib/providers`.
 *
 * @module
 */
import { BAD_RESPONSE_HEADER } from "./_errors.ts";

/** Request header that ties each attempt to one `complete()` call. */
export const CALL_HEADER = "x-calc-bench-call";

/**
 * `RequestInit` member that ties each attempt to one `complete()` call
 * without a header: the `openai` client passes a request's `fetchOptions`
 * through to `fetch` on every attempt, and `fetch` ignores unknown members.
 * Cheaper than {@linkcode CALL_HEADER}, which the client merges into its
 * header list and `fetch` converts again on every request.
 */
export const CALL_INIT_KEY = "calcBenchCall";

/** The wrapped fetch plus its per-call bookkeeping. */
export interface CountingFetch {
  fetch: typeof fetch;
  /** Attempts seen for a call id so far. */
  attempts(callId: string): number;
  /** The body parsed by the wrapper for a response it returned, if any. */
  parsedBody(response: Response): unknown;
  /** Forgets a finished call. */
  forget(callId: string): void;
}

/**
 * Wraps `base` so that:
 * - every attempt of a call (the client's retries call fetch again) is counted
 *   by the call id in the init member {@linkcode CALL_INIT_KEY} or, failing
 *   that, the header {@linkcode CALL_HEADER};
 * - a 2xx chat-completion body is read and parsed here. The `openai` client
 *   would throw a plain `SyntaxError` for a malformed body and NOT retry it,
 *   so a body that does not parse (or is not a chat completion) becomes a
 *   synthetic 502 with `x-should-retry: true`, which the client retries with
 *   its own backoff; if every attempt fails, the marker header lets the
 *   provider report `bad_response`. The parsed body is handed to the provider
 *   so it is parsed only once. A body cut off mid-read throws here, which the
 *   client treats as a (retried) connection error.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { CALL_HEADER, countingFetch } from "./_counting_fetch.ts";
 * const counter = countingFetch(() => Promise.resolve(new Response("{trunc", { status: 200 })));
 * const init = { headers: { [CALL_HEADER]: "c1" } };
 * const response = await counter.fetch("http://x/v1/chat/completions", init);
 * assert.equal(response.status, 502);
 * assert.equal(response.headers.get("x-should-retry"), "true");
 * assert.equal(counter.attempts("c1"), 1);
 * ```
 */
export function countingFetch(
  base: typeof fetch = globalThis.fetch,
): CountingFetch {
  const counts = new Map<string, number>();
  const parsed = new WeakMap<Response, unknown>();

  const wrapped = async (
    input: string | URL | Request,
    init?: RequestInit,
  ): Promise<Response> => {
    const marked = (init as Record<string, unknown> | undefined)?.[
      CALL_INIT_KEY
    ];
    const callId = typeof marked === "string"
      ? marked
      : headerOf(init?.headers, CALL_HEADER);
    if (callId !== null) counts.set(callId, (counts.get(callId) ?? 0) + 1);
    const response = await base(input, init);
    if (!response.ok || !isChatCompletions(input)) return response;
    const text = await response.text();
    let json: unknown;
    try {
      json = JSON.parse(text);
    } catch (error) {
      return badResponse(`malformed JSON body (${(error as Error).message})`);
    }
    if (!isChatCompletion(json)) {
      return badResponse("the body is not a chat completion (no choices)");
    }
    // The copy shows the original's Headers object instead of a copy of it:
    // passing `headers` to the constructor copied every header (about 9 µs,
    // the dearest step of a request at 0 ms latency).
    const copy = new Response(text, {
      status: response.status,
      statusText: response.statusText,
    });
    Object.defineProperty(copy, "headers", {
      value: response.headers,
      enumerable: true,
    });
    parsed.set(copy, json);
    return copy;
  };

  return {
    fetch: wrapped as typeof fetch,
    attempts: (callId) => counts.get(callId) ?? 0,
    parsedBody: (response) => parsed.get(response),
    forget: (callId) => void counts.delete(callId),
  };
}

function badResponse(detail: string): Response {
  const body = JSON.stringify({
    error: {
      message: `Cannot parse response: ${detail}`,
      type: "bad_response",
      code: null,
    },
  });
  return new Response(body, {
    status: 502,
    headers: {
      "content-type": "application/json",
      "x-should-retry": "true",
      [BAD_RESPONSE_HEADER]: "1",
    },
  });
}

/** One header of a `HeadersInit`, read without copying it into a new `Headers`
 * (this runs on every attempt). */
function headerOf(
  headers: HeadersInit | undefined,
  name: string,
): string | null {
  if (headers === undefined) return null;
  if (headers instanceof Headers) return headers.get(name);
  if (Array.isArray(headers)) {
    const values = headers.filter(([k]) => k?.toLowerCase() === name)
      .map(([, v]) => v?.trim());
    return values.length > 0 ? values.join(", ") : null;
  }
  let found: string | null = null;
  for (const [key, value] of Object.entries(headers)) {
    if (key.toLowerCase() === name) {
      found = found === null ? value.trim() : `${found}, ${value.trim()}`;
    }
  }
  return found;
}

function isChatCompletions(input: string | URL | Request): boolean {
  const url = typeof input === "string"
    ? input
    : input instanceof URL
    ? input.href
    : input.url;
  return url.includes("/chat/completions");
}

function isChatCompletion(json: unknown): boolean {
  return typeof json === "object" && json !== null &&
    Array.isArray((json as { choices?: unknown }).choices);
}
