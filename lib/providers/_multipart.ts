/**
 * Multipart form fields of a request body read as text (the sim server's
 * file uploads). Private to `lib/providers`.
 *
 * @module
 */

/** One field of a multipart form: its file name (for a file) and value. */
export interface MultipartField {
  filename: string | null;
  value: string;
}

/**
 * Multipart form fields of a body read as text. By hand: the core gets the
 * body as a string without headers (the boundary is read from the body's
 * first line), and `Response.formData()` is asynchronous while the core
 * answers synchronously.
 *
 * @param body The request body.
 * @returns The fields by name; null when the body is not multipart.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { parseMultipart } from "./_multipart.ts";
 * const body = ["--b", 'Content-Disposition: form-data; name="file"; filename="in.jsonl"', "", "{}", "--b--", ""].join("\r\n");
 * assert.deepEqual(parseMultipart(body)?.get("file"), { filename: "in.jsonl", value: "{}" });
 * assert.equal(parseMultipart("{}"), null);
 * ```
 */
export function parseMultipart(
  body: string,
): Map<string, MultipartField> | null {
  const eol = body.indexOf("\r\n");
  if (!body.startsWith("--") || eol < 0) return null;
  const delimiter = "\r\n" + body.slice(0, eol);
  const fields = new Map<string, MultipartField>();
  for (const part of ("\r\n" + body).split(delimiter).slice(1)) {
    if (part.startsWith("--")) break;
    const split = part.indexOf("\r\n\r\n");
    if (split < 0) return null;
    const headers = part.slice(2, split);
    const name = /name="([^"]*)"/i.exec(headers)?.[1];
    if (name === undefined) continue;
    const filename = /filename="([^"]*)"/i.exec(headers)?.[1] ?? null;
    fields.set(name, { filename, value: part.slice(split + 4) });
  }
  return fields;
}
