/**
 * The summary table (rows, each suite's declared headline metrics, error
 * rate per group) counted from rows in plain JavaScript, without Polars.
 * The sweep CLI prints it at the end of every run: loading Polars for a
 * table of a few lines cost about 0.33 s and 75 MB of a one-row sweep, so
 * only a suite whose metrics need a frame (C-Eval's subject mean, the
 * code suite's pass@k) loads it, at the end. It follows `summarize`'s
 * rules exactly (the scored rows of `isScored`, a failed request counts
 * as not correct), and {@linkcode formatSummaryTable} is the one
 * formatter both paths use, so the CLI's table and `summaryText`'s are
 * the same text. With a run's manifest it shows rows planned, stored and
 * error rows, and the warnings, by the rule of `completeness.ts` (which,
 * with this file and `wilson.ts`, is all of the report the sweep CLI
 * loads).
 *
 * @module
 */
import { dirname, join } from "node:path";
import { MANIFEST_FILE, readResults, RESULTS_FILE } from "../store/mod.ts";
import type { ResultRow } from "../types.ts";
import { isScored } from "../judge/status.ts";
import {
  evaluateMetrics,
  type Metric,
  metricParts,
  type MetricRecord,
  type MetricResult,
  metricsFor,
  type MetricSource,
  problemNote,
  recordRows,
} from "../judge/metric.ts";
import { compareKeys, groupId } from "./_group_keys.ts";
import {
  type Completeness,
  completeness,
  plannedRows,
  type StoredCount,
} from "./completeness.ts";

/** One group's line of the summary table. */
export interface SummaryLine {
  /** The group's value of each grouping column, in `by` order. */
  keys: readonly string[];
  /** Scored rows (`isScored`). */
  n: number;
  /** Correct rows. */
  correct: number;
  /** Share of scored rows whose request failed for good. */
  errorRate: number;
  /** The headline metrics of the group's suite, as it declares them, with their values. */
  metrics: readonly MetricResult[];
}

/** The fields of a row the tally reads (and those its suite's metrics name). */
export type TallyRow = Pick<ResultRow, "status" | "correct" | "format_valid">;

/** Options of {@linkcode SummaryTally}. */
export interface SummaryTallyOptions {
  /**
   * The suites whose declared metrics the lines show (the suites the
   * registry loaded); rows of another suite get the default metrics.
   * @default none
   */
  suites?: readonly MetricSource[];
}

interface Counts {
  keys: string[];
  n: number;
  correct: number;
  errors: number;
  scoredErrors: number;
  stored: number;
  /** The suites of the group's scored rows. */
  suites: Set<string>;
  /** The scored rows' fields that metrics read, column by column. */
  fields: Map<string, unknown[]>;
}

/**
 * A row's field as the report's frame names its columns: a result-row
 * field, else a dim, else a per-row metric (`dim_<name>` and
 * `metric_<name>` name one whose name clashed, as `loadRuns` names them).
 */
function fieldOf(row: Record<string, unknown>, name: string): unknown {
  if (name in row && name !== "dims" && name !== "metrics") return row[name];
  const dims = row.dims as Record<string, unknown> | undefined;
  const metrics = row.metrics as Record<string, unknown> | undefined;
  if (name.startsWith("dim_") && dims?.[name.slice(4)] !== undefined) {
    return dims[name.slice(4)];
  }
  if (name.startsWith("metric_") && metrics?.[name.slice(7)] !== undefined) {
    return metrics[name.slice(7)];
  }
  return dims?.[name] ?? metrics?.[name];
}

/**
 * Counts rows into groups as they come, for the summary table: one entry
 * per group, plus, of each scored row, the fields its suite's metrics
 * read (one value per field and row).
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { SummaryTally } from "./tally.ts";
 * const tally = new SummaryTally(["model"]);
 * tally.add({ model: "b", status: "correct", correct: true, format_valid: true });
 * tally.add({ model: "a", status: "error", correct: false, format_valid: false });
 * tally.add({ model: "a", status: "unscored", correct: false, format_valid: true });
 * const [a, b] = await tally.lines();
 * assert.deepEqual([a?.keys, a?.n, a?.errorRate], [["a"], 1, 1]);
 * assert.deepEqual(b?.metrics.map((m) => [m.metric.name, m.value.value]), [["accuracy", 1], ["format_valid_rate", 1]]);
 * assert.deepEqual(tally.stored()[0], { keys: ["a"], stored: 2, errors: 1 });
 * ```
 */
export class SummaryTally {
  /** The grouping columns, in the order they key each line. */
  readonly by: readonly string[];
  readonly #suites: readonly MetricSource[];
  readonly #groups = new Map<string, Counts>();
  readonly #fields = new Map<string, readonly string[]>();

  /**
   * Starts an empty tally.
   *
   * @param by Grouping columns (row fields such as `suite`, `model`,
   * `template`).
   * @param options The suites whose metrics the lines show.
   */
  constructor(by: readonly string[], options: SummaryTallyOptions = {}) {
    this.by = by;
    this.#suites = options.suites ?? [];
  }

  /**
   * Counts one row: every row as stored, and the scored ones
   * (`isScored`) for the statistics.
   *
   * @param row A result row (only the grouping columns, `suite`, `status`,
   * `expected` and the fields its suite's metrics name are read).
   */
  add(row: TallyRow & Record<string, unknown>): void {
    const keys = this.by.map((column) => String(row[column] ?? "-"));
    const id = groupId(keys);
    let counts = this.#groups.get(id);
    if (counts === undefined) {
      counts = {
        keys,
        n: 0,
        correct: 0,
        errors: 0,
        scoredErrors: 0,
        stored: 0,
        suites: new Set(),
        fields: new Map(),
      };
      this.#groups.set(id, counts);
    }
    counts.stored++;
    if (row.status === "error") counts.errors++;
    if (!isScored(row as { status?: string; expected?: string })) return;
    if (row.correct === true) counts.correct++;
    if (row.status === "error") counts.scoredErrors++;
    const suite = typeof row.suite === "string" ? row.suite : null;
    if (suite !== null) counts.suites.add(suite);
    for (const name of this.#fieldsOf(suite)) {
      let values = counts.fields.get(name);
      if (values === undefined) {
        counts.fields.set(name, values = new Array(counts.n).fill(undefined));
      }
      values.push(fieldOf(row, name));
    }
    counts.n++;
    // A field another suite's rows of the group did not need stays aligned.
    for (const values of counts.fields.values()) {
      if (values.length < counts.n) values.push(undefined);
    }
  }

  /** The fields a suite's metrics read. */
  #fieldsOf(suite: string | null): readonly string[] {
    const key = suite ?? "";
    let fields = this.#fields.get(key);
    if (fields === undefined) {
      const metrics = metricsFor(suite === null ? [] : [suite], this.#suites);
      fields = [...new Set(metrics.flatMap((m) => m.columns))];
      this.#fields.set(key, fields);
    }
    return fields;
  }

  /**
   * The lines of the groups with scored rows, sorted by their keys, with
   * the metrics their suite declares (awaited: a metric may load its
   * suite's analysis code).
   *
   * @returns One line per group with at least one scored row.
   */
  async lines(): Promise<SummaryLine[]> {
    return await Promise.all(
      this.#sorted().filter((c) => c.n > 0).map(async (c) => {
        const records: MetricRecord[] = [];
        for (let i = 0; i < c.n; i++) {
          const record: Record<string, unknown> = {};
          for (const [name, values] of c.fields) {
            if (values[i] !== undefined) record[name] = values[i];
          }
          records.push(record);
        }
        const metrics = metricsFor([...c.suites].sort(), this.#suites);
        return {
          keys: c.keys,
          n: c.n,
          correct: c.correct,
          errorRate: c.scoredErrors / c.n,
          metrics: await evaluateMetrics(metrics, recordRows(records)),
        };
      }),
    );
  }

  /**
   * Rows stored and error rows of every group seen (unscored-only groups
   * too), sorted by their keys.
   *
   * @returns One count per group.
   */
  stored(): StoredCount[] {
    return this.#sorted().map((c) => ({
      keys: c.keys,
      stored: c.stored,
      errors: c.errors,
    }));
  }

  #sorted(): Counts[] {
    return [...this.#groups.values()].sort((a, b) =>
      compareKeys(a.keys, b.keys)
    );
  }
}

const pct = (x: number | null | undefined) =>
  typeof x === "number" && Number.isFinite(x)
    ? `${(x * 100).toFixed(1)}%`
    : "-";

/** A number that is not a share: integers as they are, others to 3 digits. */
const plain = (x: number | null | undefined) =>
  typeof x !== "number" || !Number.isFinite(x)
    ? "-"
    : Number.isInteger(x)
    ? String(x)
    : x.toPrecision(3);

/** The text columns of one metric in a block: headers and cells. */
interface TextColumns {
  headers: string[];
  cells(result: MetricResult | undefined): string[];
}

/** How a metric prints: its value, its interval, or one cell per part. */
function textColumns(metric: Metric, results: MetricResult[]): TextColumns {
  const show = (metric.kind ?? "share") === "share" ? pct : plain;
  if (metric.partLabel !== undefined) {
    const label = metric.partLabel;
    const parts = metricParts(results.map((r) => r.value));
    return {
      headers: parts.map((p) => label(p)),
      cells: (r) => parts.map((p) => show(r?.value.parts?.[p])),
    };
  }
  return {
    headers: [metric.label, ...(metric.interval ? ["95% CI"] : [])],
    cells: (r) => [
      show(r?.value.value),
      ...(metric.interval
        ? [`[${show(r?.value.lo)}, ${show(r?.value.hi)}]`]
        : []),
    ],
  };
}

/** One line of the printed table: a group's keys, its completeness and its statistics. */
interface Entry {
  keys: readonly string[];
  rows?: readonly string[];
  line: SummaryLine | undefined;
}

/** The lines of one block as an aligned table, with the block's metric columns. */
function blockTable(
  by: readonly string[],
  entries: readonly Entry[],
  withRows: boolean,
): string {
  const metrics = new Map<string, MetricResult[]>();
  for (const e of entries) {
    for (const r of e.line?.metrics ?? []) {
      const list = metrics.get(r.metric.name);
      if (list === undefined) metrics.set(r.metric.name, [r]);
      else list.push(r);
    }
  }
  const columns = [...metrics.values()].map((results) => ({
    name: results[0]!.metric.name,
    text: textColumns(results[0]!.metric, results),
  }));
  const header = [
    ...by,
    ...(withRows ? ["planned", "stored", "error rows"] : []),
    "n",
    ...columns.flatMap((c) => c.text.headers),
    "errors",
  ];
  return alignTable([
    header,
    ...entries.map((e) => [
      ...e.keys,
      ...(e.rows ?? []),
      String(e.line?.n ?? 0),
      ...columns.flatMap((c) =>
        c.text.cells(e.line?.metrics.find((r) => r.metric.name === c.name))
      ),
      e.line === undefined ? "-" : pct(e.line.errorRate),
    ]),
  ], by.length);
}

/**
 * The summary as aligned text: one table per suite (when `by` has a
 * `suite` column), each with the grouping columns, `n`, the suite's
 * declared headline metrics (a 95% interval after a metric that has one,
 * a column per part of a figure per part) and the error rate. Given a
 * run's {@linkcode completeness}, it also shows rows planned (`?` when
 * the manifest cannot tell), stored and error rows per group after the
 * grouping columns — a group planned but with no scored row gets a line
 * of its own — and the warnings and notes after the tables; a metric
 * that could not be computed says why in a note.
 *
 * @param by The grouping columns' names (the header).
 * @param lines The groups, in the order to print.
 * @param rows The run's rows planned and stored, grouped by `by`.
 * @returns The tables, a blank line between two, header first; then a
 *   `Warning: ` line per warning and a `Note: ` line per note.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { formatSummaryTable } from "./tally.ts";
 * import { ACCURACY, FORMAT_VALID_RATE } from "../judge/metric.ts";
 * const line = {
 *   keys: ["m"], n: 2, correct: 1, errorRate: 0,
 *   metrics: [
 *     { metric: ACCURACY, value: { value: 0.5, lo: 0.09, hi: 0.91 } },
 *     { metric: FORMAT_VALID_RATE, value: { value: 1 } },
 *   ],
 * };
 * const text = formatSummaryTable(["model"], [line]);
 * assert.match(text, /^model\s+n\s+accuracy\s+95% CI\s+format ok\s+errors\n/);
 * assert.match(text, /m\s+2\s+50\.0%\s+\[9\.0%, 91\.0%\]\s+100\.0%\s+0\.0%$/);
 * const withRows = formatSummaryTable(["model"], [line], {
 *   lines: [{ keys: ["m"], planned: 3, stored: 2, errors: 0 }],
 *   planned: 3, stored: 2, errors: 0,
 *   warnings: ["Incomplete: 2 of 3 planned rows are stored (1 missing)."], notes: [],
 * });
 * assert.match(withRows, /^model\s+planned\s+stored\s+error rows\s+n\s+accuracy/);
 * assert.match(withRows, /\nm\s+3\s+2\s+0\s+2\s+50\.0%/);
 * assert.match(withRows, /\nWarning: Incomplete: 2 of 3 planned rows/);
 * ```
 */
export function formatSummaryTable(
  by: readonly string[],
  lines: readonly SummaryLine[],
  rows?: Completeness,
): string {
  const scored = new Map(lines.map((line) => [groupId(line.keys), line]));
  const entries: Entry[] = rows === undefined
    ? lines.map((line) => ({ keys: line.keys, line }))
    : rows.lines.map((row) => ({
      keys: row.keys,
      rows: [
        row.planned === null ? "?" : String(row.planned),
        String(row.stored),
        String(row.errors),
      ],
      line: scored.get(groupId(row.keys)),
    }));
  const suiteAt = by.indexOf("suite");
  const blocks = new Map<string, Entry[]>();
  for (const e of entries) {
    const suite = suiteAt < 0 ? "" : e.keys[suiteAt]!;
    const block = blocks.get(suite);
    if (block === undefined) blocks.set(suite, [e]);
    else block.push(e);
  }
  const problems = new Set<string>();
  for (const [suite, block] of blocks) {
    for (const r of block.flatMap((e) => e.line?.metrics ?? [])) {
      const note = problemNote(r, suite);
      if (note !== null) problems.add(note);
    }
  }
  return [
    [...blocks.values()].map((block) =>
      blockTable(by, block, rows !== undefined)
    ).join("\n\n"),
    ...(rows?.warnings ?? []).map((w) => `Warning: ${w}`),
    ...(rows?.notes ?? []).map((n) => `Note: ${n}`),
    ...[...problems].map((p) => `Note: ${p}`),
  ].join("\n");
}

/**
 * Rows of cells as aligned text: the first `left` columns padded on the
 * right, the others (numbers) on the left, two spaces between columns.
 */
function alignTable(table: readonly string[][], left: number): string {
  const widths = table[0]!.map((_, i) =>
    Math.max(...table.map((line) => line[i]!.length))
  );
  return table.map((line) =>
    line.map((cell, i) =>
      i < left ? cell.padEnd(widths[i]!) : cell.padStart(widths[i]!)
    )
      .join("  ").trimEnd()
  ).join("\n");
}

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
 * @param suites The suites whose declared metrics to show (the sweep
 *   passes the ones the registry loaded for it); others get the default
 *   metrics. @default none
 * @returns The tables as {@linkcode formatSummaryTable} prints them.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { summarizeResultsText } from "./tally.ts";
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
  suites: readonly MetricSource[] = [],
): Promise<string> {
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
  const seen = new Map<string, Set<string>>();
  for await (const row of readResults(results, { onBadLine: () => {} })) {
    const fields = row as unknown as TallyRow & Record<string, unknown>;
    withTemplate.add(fields);
    without.add(fields);
    addTemplate(seen, row.suite, row.template);
  }
  // Read as the report's loader reads it (any JSON), so the closing table
  // and the report agree on an old or hand-made manifest.
  const manifest = await Deno.readTextFile(join(runDir, MANIFEST_FILE))
    .then((text) => JSON.parse(text) as unknown, () => null)
    .catch(() => null);
  const plan = plannedRows(manifest, seen);
  const templates = new Set([
    ...[...seen.values()].flatMap((set) => [...set]),
    ...plan.cells.map((cell) => cell.template),
  ]);
  const tally = templates.size > 1 ? withTemplate : without;
  return formatSummaryTable(
    tally.by,
    await tally.lines(),
    completeness(plan, tally.by, tally.stored(), { runDir }),
  );
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
 * (in order of first appearance), by the same rule as the summary table.
 *
 * @param path The `results.jsonl` path.
 * @returns One summary per model.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { summarizeResults } from "./tally.ts";
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
  for await (const row of readResults(path, { onBadLine: () => {} })) {
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
 * import { formatSummary } from "./tally.ts";
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
