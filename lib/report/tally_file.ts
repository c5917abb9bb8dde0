/**
 * The summary of a run folder's results file: the sweep's closing table
 * (`summarizeResultsText`), and per-model accuracy for scripts
 * (`summarizeResults`, `formatSummary`), counted without Polars.
 *
 * @module
 */
import { dirname, join } from "node:path";
import {
  countSetAside,
  MANIFEST_FILE,
  NOT_THE_RUNS,
  notTheRuns,
  readResults,
  RESULTS_FILE,
  runMembership,
  type SetAside,
  setAsideWarning,
} from "../store/mod.ts";
import type { MetricSource } from "../judge/metric.ts";
import type { ResultRow } from "../types.ts";
import { completeness, plannedRows } from "./completeness.ts";

import { SummaryTally, type TallyRow } from "./tally.ts";
import { alignTable, formatSummaryTable, pct } from "./tally_table.ts";

/**
 * The rows of a results file that are its run's own by the store's rule
 * (`notTheRuns`, and each key once), counting the others in `setAside`.
 */
async function* ownRowsOf(
  results: string,
  manifest: unknown,
  setAside: Map<string, SetAside>,
): AsyncGenerator<ResultRow> {
  const membership = runMembership(manifest);
  const keys = new Set<string>();
  let ordinal = 0;
  for await (const row of readResults(results, { onBadLine: () => {} })) {
    ordinal++;
    const why = notTheRuns(row, membership) ??
      (keys.has(row.key) ? NOT_THE_RUNS.repeat : null);
    if (why !== null) countSetAside(setAside, { reason: why, row: ordinal });
    else {
      keys.add(row.key);
      yield row;
    }
  }
}

/** Options of {@linkcode summarizeResultsText}. */
export interface ResultsTextOptions {
  /**
   * The suites whose declared metrics to show (the sweep passes the ones
   * the registry loaded for it); others get the default metrics.
   * @default none
   */
  suites?: readonly MetricSource[];
  /**
   * Dims (or row fields) to break the table down by as well (`--by
   * category`): a second table grouped by suite, model and these.
   * @default none
   */
  by?: readonly string[];
}

/** Row fields a `by` may name besides the dims. */
const PLAIN = new Set(["suite", "model", "template", "run", "status"]);

/** Templates by suite, as a plan reads them from rows. */
function addTemplate(
  seen: Map<string, Set<string>>,
  suite: unknown,
  template: unknown,
): void {
  if (typeof suite !== "string" || typeof template !== "string") return;
  let set = seen.get(suite);
  if (set === undefined) seen.set(suite, set = new Set());
  set.add(template);
}

/**
 * The closing summary of a run, streamed: suite × model, with the template
 * as a third column when the run has several; rows planned (from the
 * run's `manifest.json`), stored and error rows per line, each suite's
 * declared headline metrics, and a warning after the tables when the run
 * is incomplete or holds error rows.
 *
 * @param path The run folder, or its `results.jsonl` (the manifest is
 *   read from the same folder; a run without one shows `?` planned).
 * @param options The suites whose declared metrics to show, and dims to
 *   break the table down by as well.
 * @returns The tables as {@linkcode formatSummaryTable} prints them.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { summarizeResultsText } from "./tally_file.ts";
 * const dir = await Deno.makeTempDir();
 * const row = { suite: "s", model: "m", status: "correct", correct: true, format_valid: true };
 * await Deno.writeTextFile(`${dir}/results.jsonl`, [
 *   { key: "a", template: "t1", ...row },
 *   { key: "b", template: "t2", ...row },
 * ].map((r) => JSON.stringify(r) + "\n").join(""));
 * await Deno.writeTextFile(`${dir}/manifest.json`, JSON.stringify({
 *   config: { models: [{ name: "m" }], suites: [{ name: "s", templates: ["t1", "t2"] }], samples: 1 },
 *   questions: { s: 2 }, total: 4,
 * }));
 * const text = await summarizeResultsText(`${dir}/results.jsonl`);
 * assert.match(text, /^suite\s+model\s+template\s+planned\s+stored\s+error rows\s+n/);
 * assert.match(text, /\ns\s+m\s+t1\s+2\s+1\s+0\s+1\s+100\.0%/);
 * assert.match(text, /\nWarning: Incomplete: 2 of 4 planned rows are stored \(2 missing\)/);
 * assert.equal(text, await summarizeResultsText(dir));
 * await Deno.remove(dir, { recursive: true });
 * ```
 */
export async function summarizeResultsText(
  path: string,
  options: ResultsTextOptions = {},
): Promise<string> {
  const { suites = [], by = [] } = options;
  let runDir = dirname(path);
  let results = path;
  try {
    if ((await Deno.stat(path)).isDirectory) {
      runDir = path;
      results = join(path, RESULTS_FILE);
    }
  } catch {
    // Missing: readResults says so below.
  }
  // Counted both ways in one pass; the template column is kept only when
  // the run has (or plans) more than one template.
  const withTemplate = new SummaryTally(["suite", "model", "template"], {
    suites,
  });
  const without = new SummaryTally(["suite", "model"], { suites });
  const extra = by.length === 0
    ? null
    : new SummaryTally(["suite", "model", ...by], { suites });
  const dimsSeen = new Set<string>();
  const seen = new Map<string, Set<string>>();
  // Read as the report's loader reads it (any JSON), so the closing table
  // and the report agree on an old or hand-made manifest, and count only
  // the run's own rows by the same rule.
  const manifest = await Deno.readTextFile(join(runDir, MANIFEST_FILE))
    .then((text) => JSON.parse(text) as unknown, () => null)
    .catch(() => null);
  const setAside = new Map<string, SetAside>();
  for await (const row of ownRowsOf(results, manifest, setAside)) {
    const fields = row as unknown as TallyRow & Record<string, unknown>;
    withTemplate.add(fields);
    without.add(fields);
    extra?.add(fields);
    addTemplate(seen, row.suite, row.template);
    if (extra !== null) {
      for (const dim of Object.keys(row.dims ?? {})) dimsSeen.add(dim);
    }
  }
  const plan = plannedRows(manifest, seen);
  const templates = new Set([
    ...[...seen.values()].flatMap((set) => [...set]),
    ...plan.cells.map((cell) => cell.template),
  ]);
  const tally = templates.size > 1 ? withTemplate : without;
  const rows = completeness(plan, {
    by: tally.by,
    stored: tally.stored(),
    runDir,
  });
  const aside = setAsideWarning(results, setAside);
  if (aside !== null) rows.warnings.unshift(aside);
  const main = formatSummaryTable(tally.by, await tally.lines(), { rows });
  if (extra === null) return main;
  const absent = by.filter((d) => !dimsSeen.has(d) && !PLAIN.has(d));
  return `${main}\n\nBy ${by.join(", ")}:\n${
    absent.length > 0
      ? `Note: no row has ${absent.join(", ")}; the rows' dims are ${
        [...dimsSeen].sort().join(", ") || "none"
      }.`
      : formatSummaryTable(extra.by, await extra.lines())
  }`;
}

/** One model's line of {@linkcode summarizeResults}. */
export interface ModelSummary {
  /** The model name as configured. */
  model: string;
  /** Rows stored (unscored ones included). */
  n: number;
  /**
   * Correct rows ÷ scored rows (a failed request counts as not correct;
   * unscored rows are left out), or null when no row is scored.
   */
  accuracy: number | null;
  /** Error rows (requests that failed for good). */
  errors: number;
}

/**
 * Streams a results file and counts rows, accuracy and errors per model
 * (only the run's own rows, by the manifest beside the file, as the report)
 * (in order of first appearance), by the same rule as the summary table.
 *
 * @param path The `results.jsonl` path.
 * @returns One summary per model.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { summarizeResults } from "./tally_file.ts";
 * const dir = await Deno.makeTempDir();
 * await Deno.writeTextFile(`${dir}/r.jsonl`, [
 *   { key: "a", model: "m", correct: true, status: "correct" },
 *   { key: "b", model: "m", correct: false, status: "error" },
 *   { key: "c", model: "m", correct: false, status: "wrong" },
 * ].map((r) => JSON.stringify(r) + "\n").join(""));
 * const [m] = await summarizeResults(`${dir}/r.jsonl`);
 * assert.deepEqual(m, { model: "m", n: 3, accuracy: 1 / 3, errors: 1 });
 * await Deno.remove(dir, { recursive: true });
 * ```
 */
export async function summarizeResults(path: string): Promise<ModelSummary[]> {
  const tally = new SummaryTally(["model"]);
  const rows = new Map<string, number>();
  const manifest = await Deno.readTextFile(join(dirname(path), MANIFEST_FILE))
    .then((text) => JSON.parse(text) as unknown, () => null)
    .catch(() => null);
  for await (const row of ownRowsOf(path, manifest, new Map())) {
    rows.set(row.model, (rows.get(row.model) ?? 0) + 1);
    tally.add(row as unknown as TallyRow & Record<string, unknown>);
  }
  const scored = new Map(
    (await tally.lines()).map((line) => [line.keys[0], line]),
  );
  const errors = new Map(tally.stored().map((c) => [c.keys[0], c.errors]));
  return [...rows].map(([model, n]) => {
    const line = scored.get(model);
    return {
      model,
      n,
      accuracy: line === undefined ? null : line.correct / line.n,
      errors: errors.get(model) ?? 0,
    };
  });
}

/**
 * Formats per-model summaries as an aligned text table.
 *
 * @param rows The summaries.
 * @returns The table, header first.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { formatSummary } from "./tally_file.ts";
 * const text = formatSummary([{ model: "sim-strong", n: 10, accuracy: 0.9, errors: 0 }]);
 * assert.match(text, /sim-strong\s+10\s+90\.0%\s+0/);
 * ```
 */
export function formatSummary(rows: readonly ModelSummary[]): string {
  return alignTable([
    ["model", "n", "accuracy", "errors"],
    ...rows.map((
      r,
    ) => [r.model, String(r.n), pct(r.accuracy), String(r.errors)]),
  ], 1);
}
