/**
 * What a report says about the runs it was made from, above its contents:
 * the warning box when results are incomplete (rows missing, an
 * interrupted run, error rows), the list of run folders with their rows
 * stored and planned, and the loader's warnings; and the notes on what the
 * manifests cannot tell.
 *
 * @module
 */
import pl from "nodejs-polars";
import type { DataType } from "./frame.ts";
import type { LoadedRuns } from "./load.ts";
import { escapeHtml } from "./plot.ts";
import { tableHtml } from "./table.ts";
import type { RunCompleteness } from "./_completeness_frame.ts";

/**
 * The part of the page between its title and its contents: the warning
 * box ({@linkcode warningHtml}), when it was generated, one line per run
 * folder (rows stored, of how many planned, when it ran, a torn last line
 * dropped) and the loader's warnings.
 *
 * @param loaded What `loadRuns` returned.
 * @param completeness What `runsCompleteness` returned (empty for no rows).
 * @returns An HTML fragment.
 */
export function runsHtml(
  loaded: LoadedRuns,
  completeness: readonly RunCompleteness[],
): string {
  const runs = loaded.runs.map((r, i) => {
    const m = r.manifest ?? {};
    const when = [
      m.startedAt ?? m.started_at ?? m.start,
      m.endedAt ?? m.finishedAt ?? m.end,
    ]
      .filter((x) => typeof x === "string").join(" → ");
    const own = completeness[i];
    const planned = own?.dir === r.dir ? own.completeness.planned : null;
    return `<li><code>${escapeHtml(r.dir)}</code>: ${r.rows}${
      typeof planned === "number" ? ` of ${planned} planned` : ""
    } rows${when ? `, ${escapeHtml(when)}` : ""}${
      r.torn ? " (torn last line dropped)" : ""
    }</li>`;
  }).join("");
  const warnings = loaded.warnings.length
    ? `<ul class="warn">${
      loaded.warnings.map((w) => `<li>${escapeHtml(w)}</li>`).join("")
    }</ul>`
    : "";
  return `${simBanner(loaded)}${warningHtml(completeness)}
<p>Generated ${new Date().toISOString()} from:</p><ul>${runs}</ul>${warnings}`;
}

/** Whether a manifest's model is the simulated one (in process, or served on this machine). */
function isSim(model: Record<string, unknown>): boolean {
  if (model.provider === "sim") return true;
  const id = String(model.model ?? model.name ?? "");
  const url = typeof model.baseURL === "string" ? model.baseURL : "";
  return /^sim(-|$)/.test(id) &&
    /^https?:\/\/(127\.\d+\.\d+\.\d+|localhost|\[::1\])(:|\/|$)/.test(url);
}

/**
 * The line at the top of a report whose models are all the simulated one
 * (the demo, a dry run): its numbers show the toolkit, not a real model.
 * Empty when any model is real or a manifest does not say.
 */
function simBanner(loaded: LoadedRuns): string {
  const models = loaded.runs.flatMap((r) =>
    Array.isArray(r.manifest?.models)
      ? r.manifest.models as Record<string, unknown>[]
      : [null]
  );
  if (models.length === 0 || !models.every((m) => m !== null && isSim(m))) {
    return "";
  }
  return `<p class="sim-banner"><strong>Simulated models only.</strong> Every model in ${
    loaded.runs.length === 1 ? "this run" : "these runs"
  } is the toolkit's simulated model (sim profiles, in process or served on this machine): the numbers show what the toolkit measures, not how any real model computes.</p>\n`;
}

/**
 * The warning at the top of a report: each run's warnings (interrupted,
 * incomplete, a merge with gaps, more rows than planned, error rows) and
 * a table of the suite × model lines that miss rows or hold error rows;
 * empty when every run is complete and has no error row.
 *
 * @param runs What `runsCompleteness` returned.
 * @returns An HTML fragment, or "".
 */
export function warningHtml(runs: readonly RunCompleteness[]): string {
  const several = runs.length > 1;
  const items = runs.flatMap((run) =>
    run.completeness.warnings.map((w) =>
      `<li>${several ? `<code>${escapeHtml(run.dir)}</code>: ` : ""}${
        escapeHtml(w)
      }</li>`
    )
  );
  if (items.length === 0) return "";
  const rows = runs.flatMap((run) =>
    run.completeness.lines
      .filter((l) =>
        l.errors > 0 || (l.planned !== null && l.planned !== l.stored)
      )
      .map((l) => ({ run, line: l }))
  );
  const column = (name: string, cells: unknown[], type: DataType = pl.Utf8) =>
    pl.Series(name, cells, type);
  const table = rows.length === 0 ? "" : tableHtml(
    pl.DataFrame([
      ...(several ? [column("run", rows.map((r) => r.run.dir))] : []),
      column("suite", rows.map((r) => r.line.keys[0] ?? "-")),
      column("model", rows.map((r) => r.line.keys[1] ?? "-")),
      column("planned", rows.map((r) => r.line.planned), pl.Int64),
      column("stored", rows.map((r) => r.line.stored), pl.Int64),
      column(
        "missing",
        rows.map((r) =>
          r.line.planned === null
            ? null
            : Math.max(0, r.line.planned - r.line.stored)
        ),
        pl.Int64,
      ),
      column("error_rows", rows.map((r) => r.line.errors), pl.Int64),
    ]),
    { maxRows: 50 },
  );
  return `<div class="run-warning" id="run-warning" role="alert"><p><strong>Warning: incomplete results.</strong></p><ul>${
    items.join("")
  }</ul>${table}</div>`;
}

/**
 * The report's notes on what the manifests cannot tell (rows planned of a
 * shard, of an old manifest, ...), as HTML paragraphs.
 *
 * @param runs What `runsCompleteness` returned.
 * @returns The notes, one paragraph each.
 */
export function notesHtml(runs: readonly RunCompleteness[]): string[] {
  const several = runs.length > 1;
  return runs.flatMap((run) =>
    run.completeness.notes.map((n) =>
      `<p class="note">${several ? `${escapeHtml(run.dir)}: ` : ""}${
        escapeHtml(n)
      }</p>`
    )
  );
}
