/**
 * Reading a batch's input file: one JSON request per line, each checked as
 * OpenAI checks it while a batch is `validating`. Private to
 * `lib/providers`.
 *
 * @module
 */

/** One request of a batch input file. */
export interface BatchLine {
  custom_id: string;
  body: unknown;
}

/** A problem of an input file, as a batch's `errors` list shows it. */
export interface InputProblem {
  code: string;
  message: string;
  line: number | null;
}

/**
 * Parses and checks a batch input file: every non-blank line JSON, with a
 * `custom_id` of its own, `method` "POST", `url` the batch's endpoint and a
 * `body` object; at least one request.
 *
 * @param content The file's text.
 * @param endpoint The batch's endpoint (each line's `url`).
 * @returns The requests, and the problems (none when all is well).
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { readBatchInput } from "./_batch_input.ts";
 * const line = JSON.stringify({ custom_id: "a", method: "POST", url: "/v1/chat/completions", body: {} });
 * assert.equal(readBatchInput(line, "/v1/chat/completions").lines.length, 1);
 * assert.equal(readBatchInput(`${line}\n${line}`, "/v1/chat/completions").errors[0]?.message, "Line 2 repeats custom_id a");
 * assert.equal(readBatchInput("", "/v1/chat/completions").errors[0]?.code, "empty_file");
 * ```
 */
export function readBatchInput(
  content: string,
  endpoint: string,
): { lines: BatchLine[]; errors: InputProblem[] } {
  const lines: BatchLine[] = [];
  const errors: InputProblem[] = [];
  const seen = new Set<string>();
  const fail = (line: number, message: string) =>
    errors.push({ code: "invalid_request", message, line });
  for (const [i, text] of content.split("\n").entries()) {
    if (text.trim() === "") continue;
    let value: Record<string, unknown>;
    try {
      value = JSON.parse(text);
    } catch {
      fail(i + 1, `Line ${i + 1} is not valid JSON`);
      continue;
    }
    const customId = value?.custom_id;
    if (typeof customId !== "string" || customId === "") {
      fail(i + 1, `Line ${i + 1} has no custom_id`);
    } else if (seen.has(customId)) {
      fail(i + 1, `Line ${i + 1} repeats custom_id ${customId}`);
    } else if (value.method !== "POST" || value.url !== endpoint) {
      fail(
        i + 1,
        `Line ${i + 1} must have method "POST" and url "${endpoint}"`,
      );
    } else if (typeof value.body !== "object" || value.body === null) {
      fail(i + 1, `Line ${i + 1} has no body object`);
    } else {
      seen.add(customId);
      lines.push({ custom_id: customId, body: value.body });
    }
  }
  if (lines.length === 0 && errors.length === 0) {
    errors.push({
      code: "empty_file",
      message: "The input file has no requests",
      line: null,
    });
  }
  return { lines, errors };
}
