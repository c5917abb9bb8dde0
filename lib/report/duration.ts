/**
 * How the report layer writes a duration.
 *
 * @module
 */
import { formatDuration } from "../duration.ts";

/**
 * A duration in seconds as the notebook's progress bar shows its ETA: one
 * decimal and the unit (`2.5 s`); an en dash while there is no estimate.
 * (The project's one duration formatter, in its seconds style.)
 *
 * @param seconds The duration, or null when unknown.
 * @returns E.g. `"2.5 s"`, or `"–"` for null.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { formatEta } from "./mod.ts";
 * assert.equal(formatEta(2.5), "2.5 s");
 * assert.equal(formatEta(null), "–");
 * ```
 */
export function formatEta(seconds: number | null): string {
  return formatDuration(seconds, { style: "seconds", unknown: "–" });
}
