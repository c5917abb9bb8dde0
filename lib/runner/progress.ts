/**
 * Progress reporting: a `cli-progress` bar on a terminal, plain lines when
 * output is not one, or a callback (notebooks).
 *
 * @module
 */
import { formatDuration } from "../duration.ts";
import { importLazily } from "../lazy.ts";

/** A snapshot of a running sweep. */
export interface SweepProgress {
  /** Rows written in this session. */
  done: number;
  /** Rows the sweep plans in all (including already stored ones). */
  total: number;
  /** Rows already stored by an earlier session (resume). */
  skipped: number;
  /** Error rows written in this session. */
  errors: number;
  /** Error rows of this session by error kind (`timeout`, `rate_limit`...). */
  errorsByKind: Record<string, number>;
  /** Rows per second in this session. */
  rowsPerSecond: number;
  /** Seconds left at the current rate, or null before any row. */
  etaSeconds: number | null;
  /** Seconds since this session started. */
  elapsedSeconds: number;
  /** Requests in flight. @default 0 */
  asking?: number;
  /**
   * Rows whose reply is in and which are being scored (the code suite's
   * sandbox, a judge model). When every request is answered and rows
   * are still being judged, the sweep is in its judging phase. @default 0
   */
  judging?: number;
}

/**
 * What a sweep is doing now, in words: `"judging, 12 rows left"` once every
 * request is answered and rows are still being scored, else an empty
 * string (asking, or done).
 *
 * @param p A snapshot.
 * @returns The phase, or `""`.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { phaseOf } from "./progress.ts";
 * const p = { done: 8, total: 10, skipped: 0, errors: 0, errorsByKind: {}, rowsPerSecond: 1, etaSeconds: 2, elapsedSeconds: 8 };
 * assert.equal(phaseOf({ ...p, asking: 0, judging: 2 }), "judging, 2 rows left");
 * assert.equal(phaseOf({ ...p, asking: 3, judging: 2 }), "");
 * ```
 */
export function phaseOf(p: SweepProgress): string {
  const judging = p.judging ?? 0;
  if (judging === 0 || (p.asking ?? 0) > 0) return "";
  return `judging, ${judging} row${judging === 1 ? "" : "s"} left`;
}

/** How to report progress. */
export type ProgressMode =
  | "auto"
  | "bar"
  | "lines"
  | "none"
  | ((p: SweepProgress) => void);

/** Receives snapshots while a sweep runs, and the last one at the end. */
export interface ProgressReporter {
  /** Shows a snapshot (a reporter may skip some, e.g. lines every 5 s). */
  update(p: SweepProgress): void;
  /** Shows the last snapshot and ends the display. */
  stop(p: SweepProgress): void;
}

/**
 * Formats a snapshot as one plain line.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { formatProgressLine } from "./progress.ts";
 * const line = formatProgressLine({ done: 40, total: 100, skipped: 10, errors: 2, errorsByKind: { timeout: 2 }, rowsPerSecond: 20, etaSeconds: 2.5, elapsedSeconds: 2 });
 * assert.match(line, /^50\/100 \(50\.0%\)/);
 * assert.match(line, /timeout 2/);
 * const judging = formatProgressLine({ done: 98, total: 100, skipped: 0, errors: 0, errorsByKind: {}, rowsPerSecond: 20, etaSeconds: 0.1, elapsedSeconds: 5, asking: 0, judging: 2 });
 * assert.match(judging, /^judging, 2 rows left: 98\/100/);
 * ```
 */
export function formatProgressLine(p: SweepProgress): string {
  const stored = p.done + p.skipped;
  const pct = p.total === 0 ? 100 : (100 * stored) / p.total;
  const kinds = Object.entries(p.errorsByKind)
    .map(([k, n]) => `${k} ${n}`)
    .join(", ");
  const phase = phaseOf(p);
  return `${phase === "" ? "" : `${phase}: `}${stored}/${p.total} (${
    pct.toFixed(1)
  }%) ${p.rowsPerSecond.toFixed(1)} rows/s, ETA ${
    formatSeconds(p.etaSeconds)
  }, elapsed ${formatSeconds(p.elapsedSeconds)}, errors ${p.errors}${
    kinds === "" ? "" : ` (${kinds})`
  }`;
}

/**
 * Seconds as `1h02m03s` / `2m05s` / `7s`; `?` for null or a number that is
 * not finite. (The project's one duration formatter, in its clock style.)
 *
 * @param s The duration in seconds, or null when unknown.
 * @returns E.g. `"1h02m03s"`, or `"?"`.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { formatSeconds } from "./progress.ts";
 * assert.equal(formatSeconds(3723), "1h02m03s");
 * assert.equal(formatSeconds(null), "?");
 * ```
 */
export function formatSeconds(s: number | null): string {
  return formatDuration(s, { style: "clock", unknown: "?" });
}

/** Plain lines every `everyMs` on a write function (stdout by default). */
function linesReporter(
  everyMs: number,
  write: (line: string) => void,
): ProgressReporter {
  let last = -Infinity;
  return {
    update(p) {
      const now = p.elapsedSeconds * 1000;
      if (now - last < everyMs) return;
      last = now;
      write(`[sweep] ${formatProgressLine(p)}`);
    },
    stop(p) {
      write(`[sweep] done: ${formatProgressLine(p)}`);
    },
  };
}

async function barReporter(): Promise<ProgressReporter> {
  // Loaded only for a terminal: `cli-progress` (and the Node modules it
  // pulls) cost about 50 ms of every start-up that prints no bar.
  const { default: cliProgress } = await importLazily<
    typeof import("cli-progress")
  >("cli-progress");
  const bar = new cliProgress.SingleBar({
    format:
      "{bar} {value}/{total} | {rate} rows/s | ETA {eta_h} | errors {errors}{phase}",
    hideCursor: true,
    clearOnComplete: false,
  }, cliProgress.Presets.shades_classic);
  let started = false;
  const payload = (p: SweepProgress) => ({
    phase: phaseOf(p) === "" ? "" : ` | ${phaseOf(p)} (replies in)`,
    rate: p.rowsPerSecond.toFixed(1),
    eta_h: formatSeconds(p.etaSeconds),
    errors: p.errors === 0
      ? "0"
      : `${p.errors} (${
        Object.entries(p.errorsByKind).map(([k, n]) => `${k} ${n}`).join(", ")
      })`,
  });
  const update = (p: SweepProgress) => {
    if (!started) {
      bar.start(p.total, p.done + p.skipped, payload(p));
      started = true;
    } else bar.update(p.done + p.skipped, payload(p));
  };
  return {
    update,
    stop(p) {
      update(p);
      bar.stop();
    },
  };
}

/**
 * Makes the reporter for a mode. `auto` is a bar when stdout is a
 * terminal, plain lines every 5 s otherwise.
 *
 * @param mode The mode or a callback.
 * @param write Where `lines` mode prints. @default console.log
 * @returns A reporter (a promise: the bar's library loads only for a bar).
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { createReporter } from "./progress.ts";
 * const seen: number[] = [];
 * const r = await createReporter((p) => seen.push(p.done));
 * const p = { done: 1, total: 2, skipped: 0, errors: 0, errorsByKind: {}, rowsPerSecond: 1, etaSeconds: 1, elapsedSeconds: 1 };
 * r.update(p);
 * r.stop({ ...p, done: 2 });
 * assert.deepEqual(seen, [1, 2]);
 * ```
 */
export async function createReporter(
  mode: ProgressMode,
  write: (line: string) => void = console.log,
): Promise<ProgressReporter> {
  if (typeof mode === "function") return { update: mode, stop: mode };
  if (mode === "auto") mode = Deno.stdout.isTerminal() ? "bar" : "lines";
  switch (mode) {
    case "bar":
      return await barReporter();
    case "lines":
      return linesReporter(5_000, write);
    case "none":
      return { update() {}, stop() {} };
  }
}
