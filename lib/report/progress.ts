/**
 * Sweep progress in a notebook: a small HTML progress bar, updated in
 * place in the Deno Jupyter kernel.
 *
 * @module
 */
import { formatEta } from "./duration.ts";

/** A progress snapshot (the runner's `SweepProgress`, the fields shown here). */
export interface ProgressSnapshot {
  /** Rows written in this session. */
  done: number;
  /** Rows the sweep plans in all. */
  total: number;
  /** Rows already stored by an earlier session (resume). */
  skipped?: number;
  /** Error rows written in this session. */
  errors: number;
  /** Rows per second in this session. */
  rowsPerSecond: number;
  /** Seconds left at the current rate, or null before any row. */
  etaSeconds: number | null;
  /** Requests in flight. @default 0 */
  asking?: number;
  /** Rows being scored after their reply came in. @default 0 */
  judging?: number;
}

/** A live progress display for a notebook cell. */
export interface NotebookProgress {
  /** Pass as `runSweep(config, { progress: p.update })`. */
  update: (p: ProgressSnapshot) => void;
  /** Waits until every update has been sent (call after the sweep). */
  flush: () => Promise<void>;
}

interface JupyterApi {
  broadcast(
    type: string,
    content: Record<string, unknown>,
  ): Promise<void>;
}

/**
 * Renders a snapshot as a small HTML progress bar.
 *
 * @param p The snapshot.
 * @returns An HTML fragment with a `<progress>` element and a status line.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { progressHtml } from "./mod.ts";
 *
 * const html = progressHtml({ done: 5, total: 10, errors: 1, rowsPerSecond: 2, etaSeconds: 2.5 });
 * assert.match(html, /<progress value="5" max="10">/);
 * assert.match(html, /5\/10 \(50\.0%\), 1 errors/);
 * assert.match(progressHtml({ done: 9, total: 10, errors: 0, rowsPerSecond: 2, etaSeconds: 0.5, asking: 0, judging: 1 }), /judging, 1 row left \(replies in\): 9\/10/);
 * ```
 */
export function progressHtml(p: ProgressSnapshot): string {
  const stored = p.done + (p.skipped ?? 0);
  const pct = p.total === 0 ? 100 : (100 * stored) / p.total;
  const eta = formatEta(p.etaSeconds);
  const judging = p.judging ?? 0;
  // Replies all in, rows still being scored (a sandbox, a judge model).
  const phase = judging > 0 && (p.asking ?? 0) === 0
    ? `judging, ${judging} row${judging === 1 ? "" : "s"} left (replies in): `
    : "";
  return `<div class="eval-progress"><progress value="${stored}" max="${p.total}"></progress> ` +
    `<span>${phase}${stored}/${p.total} (${
      pct.toFixed(1)
    }%), ${p.errors} errors, ` +
    `${p.rowsPerSecond.toFixed(1)} rows/s, ETA ${eta}</span></div>`;
}

/**
 * A live progress display for sweeps run inside a Jupyter notebook (Deno
 * kernel): one output that updates in place through `display_data` and
 * `update_display_data` with a shared display id. Outside a kernel it
 * prints a line per update instead. Updates are throttled.
 *
 * @param options `intervalMs` between updates (default 250).
 * @returns `update` for the runner and `flush` to await the last update.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { notebookProgress } from "./mod.ts";
 *
 * const lines: string[] = [];
 * const p = notebookProgress({ intervalMs: 0, print: (s) => lines.push(s) });
 * p.update({ done: 1, total: 2, errors: 0, rowsPerSecond: 1, etaSeconds: 1 });
 * p.update({ done: 2, total: 2, errors: 0, rowsPerSecond: 1, etaSeconds: 0 });
 * await p.flush();
 * assert.equal(lines.length, 2);
 * assert.match(lines[1]!, /2\/2/);
 * ```
 */
export function notebookProgress(
  options: { intervalMs?: number; print?: (line: string) => void } = {},
): NotebookProgress {
  const { intervalMs = 250, print = console.log } = options;
  const jupyter = jupyterApi();
  const displayId = `eval-progress-${crypto.randomUUID()}`;
  let chain: Promise<void> = Promise.resolve();
  let shown = false;
  let last = -Infinity;
  let pending: ProgressSnapshot | null = null;
  const send = (p: ProgressSnapshot) => {
    if (!jupyter) {
      const html = progressHtml(p).replace(/<[^>]+>/g, "").trim();
      print(html);
      return;
    }
    const type = shown ? "update_display_data" : "display_data";
    shown = true;
    const content = {
      data: { "text/html": progressHtml(p) },
      metadata: {},
      transient: { display_id: displayId },
    };
    chain = chain.then(() => jupyter.broadcast(type, content)).catch(() => {});
  };
  return {
    update(p) {
      const now = performance.now();
      const final = p.done + (p.skipped ?? 0) >= p.total;
      if (final || now - last >= intervalMs) {
        last = now;
        pending = null;
        send(p);
      } else {
        pending = p;
      }
    },
    async flush() {
      if (pending) send(pending);
      pending = null;
      await chain;
    },
  };
}

/** `Deno.jupyter` inside the kernel; elsewhere the getter throws, so null. */
function jupyterApi(): JupyterApi | null {
  try {
    return (Deno as unknown as { jupyter?: JupyterApi }).jupyter ?? null;
  } catch {
    return null;
  }
}
