/**
 * The replies of the sim server's files and batches routes, with OpenAI's
 * error body. Private to `lib/providers`.
 *
 * @module
 */

/** What the core sends back for a batch route. */
export interface BatchReply {
  status: number;
  body: string;
  /** Stats outcome: `batch`, `bad_request` or `not_found`. */
  outcome: string;
}

/** OpenAI's error body. */
export function errorBody(message: string, type: string, code: string | null) {
  return { error: { message, type, code, param: null } };
}

/** A 200 with `value` as JSON. */
export function ok(value: unknown): BatchReply {
  return { status: 200, body: JSON.stringify(value), outcome: "batch" };
}

/** A 400 `invalid_request_error`. */
export function badRequest(message: string): BatchReply {
  return {
    status: 400,
    body: JSON.stringify(errorBody(message, "invalid_request_error", null)),
    outcome: "bad_request",
  };
}

/** A 404 `invalid_request_error`. */
export function notFound(message: string): BatchReply {
  return {
    status: 404,
    body: JSON.stringify(errorBody(message, "invalid_request_error", null)),
    outcome: "not_found",
  };
}
