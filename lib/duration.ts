/**
 * Writing a duration for people to read: the one formatter behind the
 * plan's table, the sweep's progress lines and the notebook's ETA.
 *
 * @module
 */

/** How {@linkcode formatDuration} writes a duration. */
export interface FormatDurationOptions {
  /**
   * `"unit"`: the unit that reads best (`45 s`, `12 min`, `3.0 h`, `2.1 d`);
   * `"clock"`: hours, minutes and seconds (`1h02m03s`, `2m05s`, `7s`);
   * `"seconds"`: seconds with one decimal (`2.5 s`).
   *
   * @default {"unit"}
   */
  style?: "unit" | "clock" | "seconds";
  /**
   * What an unknown duration prints: null, and for `"clock"` also a
   * number that is not finite.
   *
   * @default {"?"}
   */
  unknown?: string;
}

/**
 * Formats a duration in seconds.
 *
 * @param seconds The duration, or null when unknown.
 * @param options The style and what an unknown duration prints.
 * @returns E.g. `"12 min"`, `"1h02m03s"` or `"2.5 s"`.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { formatDuration } from "./duration.ts";
 * assert.equal(formatDuration(45), "45 s");
 * assert.equal(formatDuration(720), "12 min");
 * assert.equal(formatDuration(3 * 3600), "3.0 h");
 * assert.equal(formatDuration(3723, { style: "clock" }), "1h02m03s");
 * assert.equal(formatDuration(2.5, { style: "seconds" }), "2.5 s");
 * assert.equal(formatDuration(null, { unknown: "–" }), "–");
 * ```
 */
export function formatDuration(
  seconds: number | null,
  options: FormatDurationOptions = {},
): string {
  const { style = "unit", unknown = "?" } = options;
  if (seconds === null) return unknown;
  switch (style) {
    case "unit":
      return inUnit(seconds);
    case "clock":
      return Number.isFinite(seconds) ? onClock(seconds) : unknown;
    case "seconds":
      return `${seconds.toFixed(1)} s`;
  }
}

function inUnit(seconds: number): string {
  if (seconds < 90) return `${Math.round(seconds)} s`;
  if (seconds < 90 * 60) return `${Math.round(seconds / 60)} min`;
  if (seconds < 48 * 3600) return `${(seconds / 3600).toFixed(1)} h`;
  return `${(seconds / 86400).toFixed(1)} d`;
}

function onClock(seconds: number): string {
  const t = Math.round(seconds);
  const h = Math.floor(t / 3600);
  const m = Math.floor((t % 3600) / 60);
  const sec = t % 60;
  const pad = (n: number) => String(n).padStart(2, "0");
  if (h > 0) return `${h}h${pad(m)}m${pad(sec)}s`;
  if (m > 0) return `${m}m${pad(sec)}s`;
  return `${sec}s`;
}
