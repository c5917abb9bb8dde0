/**
 * The summary table (accuracy with its Wilson interval, format-valid rate,
 * error rate per group) counted from rows in plain JavaScript, without
 * Polars. The sweep CLI prints it at the end of every run: loading Polars
 * for a table of a few lines cost about 0.33 s and 75 MB of a one-row
 * sweep. It follows `summarize`'s rules exactly (unscored rows left out, a
 * failed request counts as not correct, format-valid rate over the rows
 * that have one), and {@linkcode formatSummaryTable} is the one formatter
 * both paths use, so the CLI's table and `summaryText`'s are the same text.
 * With a run's manifest it shows rows planned, stored and error rows, and
 * the warnings, by the rule of `completeness.ts` (which, with this file
 * and `wilson.ts`, is all of the report the sweep CLI loads).
 *
 * @module
 */
import { dirname, join } from "node:path";
import { MANIFEST_FILE, readResults, RESULTS_FILE } from "../store/mod.ts";
import type { ResultRow } from "../types.ts";
import { wilsonInterval, Z95 } from "./wilson.ts";
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
  /** Scored rows (unscored rows are left out). */
  n: number;
  /** Correct rows. */
  correct: number;
  /** correct / n. */
  accuracy: number;
  /** Wilson interval bounds of the accuracy. */
  lo: number;
  /** Wilson interval bounds of the accuracy. */
  hi: number;
  /** Share of format-valid rows among those that say (null: none do). */
  formatValidRate: number | null;
  /** Share of rows whose request failed for good. */
  errorRate: number;
}

/** The fields of a row the tally reads. */
export type TallyRow = Pick<ResultRow, "status" | "correct" | "format_valid">;

interface Counts {
  keys: string[];
  n: number;
  correct: number;
  formatValid: number;
  formatKnown: number;
  errors: number;
  stored: number;
}

/**
 * Counts rows into groups as they come, in bounded memory (one entry per
 * group), for the summary table.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { SummaryTally } from "./tally.ts";
 * const tally = new SummaryTally(["model"]);
 * tally.add({ model: "b", status: "correct", correct: true, format_valid: true });
 * tally.add({ model: "a", status: "error", correct: false, format_valid: false });
 * tally.add({ model: "a", status: "unscored", correct: false, format_valid: true });
 * const [a, b] = tally.lines();
 * assert.deepEqual([a?.keys, a?.n, a?.errorRate], [["a"], 1, 1]);
 * assert.deepEqual([b?.keys, b?.accuracy, b?.hi], [["b"], 1, 1]);
 * assert.deepEqual(tally.stored()[0], { keys: ["a"], stored: 2, errors: 1 });
 * ```
 */
export class SummaryTally {
  /** The grouping columns, in the order they key each line. */
  readonly by: readonly string[];
  readonly #z: number;
  readonly #groups = new Map<string, Counts>();

  /**
   * Starts an empty tally.
   *
   * @param by Grouping columns (row fields such as `suite`, `model`,
   * `template`).
   * @param z Normal quantile of the interval. @default {Z95}
   */
  constructor(by: readonly string[], z: number = Z95) {
    this.by = by;
    this.#z = z;
  }

  /**
   * Counts one row: every row as stored, and the scored ones (not
   * unscored, i.e. with an answer key) for the statistics.
   *
   * @param row A result row (only the grouping columns, `status`,
   * `correct` and `format_valid` are read).
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
        formatValid: 0,
        formatKnown: 0,
        errors: 0,
        stored: 0,
      };
      this.#groups.set(id, counts);
    }
    counts.stored++;
    if (row.status === "unscored") return;
    counts.n++;
    if (row.correct === true) counts.correct++;
    if (typeof row.format_valid === "boolean") {
      counts.formatKnown++;
      if (row.format_valid) counts.formatValid++;
    }
    if (row.status === "error") counts.errors++;
  }

  /**
   * The lines of the groups with scored rows, sorted by their keys.
   *
   * @returns One line per group with at least one scored row.
   */
  lines(): SummaryLine[] {
    return this.#sorted().filter((c) => c.n > 0).map((c) => {
      const { lo, hi } = wilsonInterval(c.correct, c.n, this.#z);
      return {
        keys: c.keys,
        n: c.n,
        correct: c.correct,
        accuracy: c.correct / c.n,
        lo,
        hi,
        formatValidRate: c.formatKnown === 0
          ? null
          : c.formatValid / c.formatKnown,
        errorRate: c.errors / c.n,
      };
    });
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

const pct = (x: number | null) =>
  x !== null && Number.isFinite(x) ? `${(x * 100).toFixed(1)}%` : "-";

/**
 * The summary as an aligned text table: the grouping columns, `n`,
 * accuracy, its 95% interval, the format-valid rate and the error rate.
 * Given a run's {@linkcode completeness}, it also shows rows planned
 * (`?` when the manifest cannot tell), stored and error rows per group
 * after the grouping columns — a group planned but with no scored row
 * gets a line of its own — and the warnings and notes after the table.
 *
 * @param by The grouping columns' names (the header).
 * @param lines The groups, in the order to print.
 * @param rows The run's rows planned and stored, grouped by `by`.
 * @returns The table, header first, one line per group; then a
 *   `Warning: ` line per warning and a `Note: ` line per note.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { formatSummaryTable } from "./tally.ts";
 * const line = {
 *   keys: ["m"], n: 2, correct: 1, accuracy: 0.5, lo: 0.09, hi: 0.91,
 *   formatValidRate: 1, errorRate: 0,
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
  const stats = (line: SummaryLine) => [
    String(line.n),
    pct(line.accuracy),
    `[${pct(line.lo)}, ${pct(line.hi)}]`,
    pct(line.formatValidRate),
    pct(line.errorRate),
  ];
  const header = ["n", "accuracy", "95% CI", "format ok", "errors"];
  if (rows === undefined) {
    return alignTable([
      [...by, ...header],
      ...lines.map((line) => [...line.keys, ...stats(line)]),
    ], by.length);
  }
  const scored = new Map(lines.map((line) => [groupId(line.keys), line]));
  const table = [
    [...by, "planned", "stored", "error rows", ...header],
    ...rows.lines.map((row) => {
      const line = scored.get(groupId(row.keys));
      return [
        ...row.keys,
        row.planned === null ? "?" : String(row.planned),
        String(row.stored),
        String(row.errors),
        ...(line === undefined ? ["0", "-", "[-, -]", "-", "-"] : stats(line)),
      ];
    }),
  ];
  return [
    alignTable(table, by.length),
    ...rows.warnings.map((w) => `Warning: ${w}`),
    ...rows.notes.map((n) => `Note: ${n}`),
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
 * run's `manifest.json`), stored and error rows per line, and a warning
 * after the table when the run is incomplete or holds error rows.
 *
 * @param path The run folder, or its `results.jsonl` (the manifest is
 *   read from the same folder; a run without one shows `?` planned).
 * @returns The table as {@linkcode formatSummaryTable} prints it.
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
export async function summarizeResultsText(path: string): Promise<string> {
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
  const withTemplate = new SummaryTally(["suite", "model", "template"]);
  const without = new SummaryTally(["suite", "model"]);
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
    tally.lines(),
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
  const scored = new Map(tally.lines().map((line) => [line.keys[0], line]));
  return [...rows].map(([model, n]) => {
    const line = scored.get(model);
    return {
      model,
      n,
      accuracy: line?.accuracy ?? null,
      // Error rows are never unscored, so the line counts them all.
      errors: line === undefined ? 0 : Math.round(line.errorRate * line.n),
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
