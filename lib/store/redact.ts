/**
 * The one rule for keeping known secrets (API key values) out of what a
 * run stores: results, manifest and response cache.
 *
 * @module
 */

/** What a secret becomes in everything a run stores. */
const REDACTED = "[redacted]";

/**
 * Replaces every occurrence of each secret in `text` with `[redacted]`.
 * An empty secret is skipped (it would match between every character);
 * callers pass `secretsOf`'s list, which already drops keys under 4
 * characters.
 *
 * @param text The text to clean.
 * @param secrets The secret values to remove.
 * @returns The text with no secret left in it.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { redactSecrets } from "./redact.ts";
 * assert.equal(
 *   redactSecrets("Bearer sk-abcd1234 and sk-wxyz", ["sk-abcd1234", "sk-wxyz", ""]),
 *   "Bearer [redacted] and [redacted]",
 * );
 * ```
 */
export function redactSecrets(
  text: string,
  secrets: readonly string[],
): string {
  for (const secret of secrets) {
    if (secret !== "") text = text.replaceAll(secret, REDACTED);
  }
  return text;
}
