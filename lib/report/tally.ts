/**
 * The summary table (accuracy with its Wilson interval, format-valid rate,
 * error rate per group) counted from rows in plain JavaScript, without
 * Polars. The sweep CLI prints it at the end of every run: loading Polars
 * for a table of a few lines cost about 0.33 s and 75 MB of a one-row
 * sweep. It follows `summarize`'s rules exactly (unscored rows left out, a
 * failed request counts as not correct, format-valid rate over the rows
 * that have one), and {@linkcode formatSummaryTable} is the one formatter
 * both paths use, so the CLI's table and `summaryText`'s are the same text.
 *
 * It also owns the rule for rows planned against rows stored
 * ({@linkcode plannedRows}, {@linkcode completeness}): the closing table,
 * `summary.csv` and the report all say how many rows a run planned, how
 * many it stored and how many failed, and warn in the same words when a
 * run is incomplete, interrupted or holds error rows. (It lives here, not
 * in a file of its own, because the sweep CLI may load only this file and
 * `wilson.ts` of the report.)
 *
 * @module
 */
import { dirname, join } from "node:path";
import { MANIFEST_FILE, readResults, RESULTS_FILE } from "../store/mod.ts";
import type { ResultRow } from "../types.ts";
import { wilsonInterval, Z95 } from "./wilson.ts";

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

/** Rows stored in one group, and how many of them are error rows. */
export interface StoredCount {
  /** The group's value of each grouping column, in `by` order. */
  keys: readonly string[];
  /** Rows stored (unscored ones included). */
  stored: number;
  /** Rows whose request failed for good (status `error`). */
  errors: number;
}

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
    const id = keys.join("\u0000");
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

/** Code-point order, as Polars sorts strings (UTF-8 byte order). */
function compareKeys(a: readonly string[], b: readonly string[]): number {
  for (let i = 0; i < a.length; i++) {
    const x = a[i]!, y = b[i]!;
    if (x === y) continue;
    const xs = [...x], ys = [...y];
    for (let j = 0; j < Math.min(xs.length, ys.length); j++) {
      const d = xs[j]!.codePointAt(0)! - ys[j]!.codePointAt(0)!;
      if (d !== 0) return d;
    }
    return xs.length - ys.length;
  }
  return 0;
}

/** The rows a run plans for one suite × model × template. */
export interface PlannedCell {
  /** The suite's name. */
  suite: string;
  /** The model's name. */
  model: string;
  /** The template id. */
  template: string;
  /** Rows planned: questions × samples. */
  rows: number;
}

/** Suites whose planned rows per model a manifest cannot tell, and why. */
export interface UnknownPlan {
  /** The suite, or null when no suite's planned rows can be told. */
  suite: string | null;
  /** Why, as a clause ("the run is shard 2/4 of a sweep, ..."). */
  why: string;
}

/** What a run's manifest says about the rows it plans and how it ended. */
export interface PlannedRows {
  /** Rows planned in all, or null when the manifest cannot tell. */
  total: number | null;
  /** Rows planned per suite × model × template, for the suites it can tell. */
  cells: readonly PlannedCell[];
  /** The suites it cannot tell (a suite null: none of them). */
  unknown: readonly UnknownPlan[];
  /** Whether the last session was stopped before its work was done. */
  interrupted: boolean;
  /** The shard the run holds (`--shard i/n`, n > 1), or null. */
  shard: { index: number; count: number } | null;
  /** Shard folders a merged run came from, or null for a run not merged. */
  mergedFrom: number | null;
  /** Rows the manifest recorded as stored (`counts.rows`), or null. */
  recorded: number | null;
}

const isCount = (x: unknown): x is number =>
  Number.isSafeInteger(x) && (x as number) >= 0;

/** A record's fields, or none for anything else. */
const fields = (x: unknown): Record<string, unknown> =>
  typeof x === "object" && x !== null ? x as Record<string, unknown> : {};

/**
 * Rows a run plans per suite × model × template, read from its manifest:
 * questions of the suite (`questions`, after `--limit`) × samples, for each
 * model and template. A suite's templates are those its config entry
 * lists; when it lists none (the suite's defaults, which the manifest does
 * not record) they are the templates seen in its stored rows, trusted only
 * when every suite's rows then add up to the manifest's planned `total`.
 * Nothing is guessed: a shard (whose rows per model depend on hashes of the
 * question ids), a suite listed twice with different templates, a total
 * that does not add up, or an old or hand-made manifest leaves the suites
 * concerned in `unknown` with the reason, and the total as recorded.
 *
 * @param manifest A parsed `manifest.json` (any shape; null for none).
 * @param observed Templates seen in the stored rows, by suite.
 * @returns The planned rows and how the run ended.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { plannedRows } from "./tally.ts";
 * const manifest = {
 *   config: { models: [{ name: "a" }, { name: "b" }], samples: 2,
 *     suites: [{ name: "s", templates: ["t1", "t2"] }] },
 *   questions: { s: 3 }, total: 24, interrupted: true,
 * };
 * const plan = plannedRows(manifest);
 * assert.equal(plan.total, 24);
 * assert.equal(plan.cells.length, 4);
 * assert.deepEqual(plan.cells[0], { suite: "s", model: "a", template: "t1", rows: 6 });
 * assert.equal(plan.interrupted, true);
 * const shard = plannedRows({ ...manifest, total: 11, shard: { index: 1, count: 2 } });
 * assert.deepEqual([shard.total, shard.cells.length, shard.unknown[0]?.suite], [11, 0, null]);
 * ```
 */
export function plannedRows(
  manifest: unknown,
  observed: ReadonlyMap<string, ReadonlySet<string>> = new Map(),
): PlannedRows {
  const m = fields(manifest);
  const shardField = fields(m.shard);
  const shard = isCount(shardField.index) && isCount(shardField.count) &&
      shardField.count > 1
    ? { index: shardField.index, count: shardField.count }
    : null;
  const recorded = fields(m.counts).rows;
  const recordedTotal = isCount(m.total) ? m.total : null;
  const base = {
    interrupted: m.interrupted === true,
    shard,
    mergedFrom: Array.isArray(m.mergedFrom) ? m.mergedFrom.length : null,
    recorded: isCount(recorded) ? recorded : null,
  };
  const none = (why: string): PlannedRows => ({
    ...base,
    total: recordedTotal,
    cells: [],
    unknown: [{ suite: null, why }],
  });
  if (manifest === null || manifest === undefined) {
    return none("the run folder has no readable manifest.json");
  }
  if (shard !== null) {
    return none(
      `the run is shard ${shard.index}/${shard.count} of a sweep, and its manifest records only the shard's ${
        recordedTotal ?? "?"
      } planned rows in all (which rows fall in a shard depends on each question's id)`,
    );
  }
  const config = fields(m.config);
  const models = (Array.isArray(config.models) ? config.models : [])
    .map((model) => fields(model).name)
    .filter((name): name is string => typeof name === "string");
  const entries = (Array.isArray(config.suites) ? config.suites : [])
    .map(fields);
  const questions = fields(m.questions);
  if (
    models.length === 0 || entries.length === 0 ||
    !isCount(config.samples) || Object.keys(questions).length === 0
  ) {
    return none(
      "its manifest does not record the models, suites, samples and questions per suite (an old or hand-made manifest)",
    );
  }
  const samples = config.samples;
  const unknown: UnknownPlan[] = [];
  const known: { suite: string; templates: string[]; seen: boolean }[] = [];
  for (const [suite, count] of Object.entries(questions)) {
    const lists = entries.filter((e) => e.name === suite).map((e) =>
      Array.isArray(e.templates) ? e.templates.map(String) : null
    );
    const given = lists.filter((l): l is string[] => l !== null)
      .map((l) => [...new Set(l)].sort());
    const same = given.every((l) => l.join("\n") === given[0]!.join("\n"));
    if (!isCount(count)) {
      unknown.push({ suite, why: "its question count is not a number" });
    } else if (lists.length === 0) {
      unknown.push({ suite, why: "it is not among the config's suites" });
    } else if (given.length === lists.length && same) {
      known.push({ suite, templates: given[0]!, seen: false });
    } else if (given.length === 0) {
      // The suite's default templates: the manifest does not list them.
      const seen = [...(observed.get(suite) ?? [])].sort();
      if (seen.length === 0) {
        unknown.push({
          suite,
          why:
            "it runs the suite's default templates, which the manifest does not list, and no row of it is stored",
        });
      } else known.push({ suite, templates: seen, seen: true });
    } else {
      unknown.push({
        suite,
        why:
          "it is listed more than once with different templates, and the manifest counts its questions together",
      });
    }
  }
  const cellsOf = (list: typeof known) =>
    list.flatMap(({ suite, templates }) =>
      models.flatMap((model) =>
        templates.map((template) => ({
          suite,
          model,
          template,
          rows: (questions[suite] as number) * samples,
        }))
      )
    );
  const sum = (cells: readonly PlannedCell[]) =>
    cells.reduce((total, cell) => total + cell.rows, 0);
  let cells = cellsOf(known);
  // Templates seen in rows are the planned ones only if the whole plan
  // then adds up to the recorded total (a template with no row stored
  // would be missing from both the cells and the check).
  const adds = unknown.length === 0 && recordedTotal === sum(cells);
  if (!adds && known.some((k) => k.seen)) {
    for (const k of known.filter((k) => k.seen)) {
      unknown.push({
        suite: k.suite,
        why: recordedTotal === null
          ? "it runs the suite's default templates, which the manifest does not list, and no planned total confirms the ones its rows show"
          : "it runs the suite's default templates, which the manifest does not list, and the ones its rows show do not add up to the planned total",
      });
    }
    cells = cellsOf(known.filter((k) => !k.seen));
  } else if (!adds && unknown.length === 0 && recordedTotal !== null) {
    return none(
      `its manifest's planned total (${recordedTotal}) is not models × questions × templates × samples (${
        sum(cells)
      })`,
    );
  }
  return {
    ...base,
    total: recordedTotal ?? (unknown.length === 0 ? sum(cells) : null),
    cells,
    unknown,
  };
}

/** The grouping columns a plan can count rows of. */
const PLAN_COLUMNS: readonly string[] = ["suite", "model", "template"];

/** Planned rows of one group, or null when the plan cannot tell them. */
function plannedIn(
  plan: PlannedRows,
  by: readonly string[],
  keys: readonly string[],
): number | null {
  if (by.some((column) => !PLAN_COLUMNS.includes(column))) return null;
  const at = by.indexOf("suite");
  const suite = at < 0 ? null : keys[at];
  if (
    plan.unknown.some((u) =>
      u.suite === null || suite === null || u.suite === suite
    )
  ) return null;
  let rows = 0;
  for (const cell of plan.cells) {
    if (by.every((column, i) => cellKey(cell, column) === keys[i])) {
      rows += cell.rows;
    }
  }
  return rows;
}

const cellKey = (cell: PlannedCell, column: string): string =>
  column === "suite"
    ? cell.suite
    : column === "model"
    ? cell.model
    : cell.template;

/** One group's rows planned, stored and failed. */
export interface CompletenessLine {
  /** The group's value of each grouping column, in `by` order. */
  keys: readonly string[];
  /** Rows planned, or null when the manifest cannot tell. */
  planned: number | null;
  /** Rows stored (unscored ones included). */
  stored: number;
  /** Error rows (requests that failed for good). */
  errors: number;
}

/** A run's rows planned against rows stored, per group and in all, with what to say about it. */
export interface Completeness {
  /** Every group that has rows stored or planned, sorted by its keys. */
  lines: CompletenessLine[];
  /** Rows planned in all, or null when the manifest cannot tell. */
  planned: number | null;
  /** Rows stored in all. */
  stored: number;
  /** Error rows in all. */
  errors: number;
  /**
   * What makes the numbers less than the run planned: an interrupted
   * run, rows missing (a merge with gaps too), more rows than planned,
   * error rows. Empty for a complete run without error rows.
   */
  warnings: string[];
  /** What the manifest cannot tell (planned rows per group of a shard, ...). */
  notes: string[];
}

/** Options of {@linkcode completeness}. */
export interface CompletenessOptions {
  /** The run folder, named in the advice to resume. @default none (the advice names no folder) */
  runDir?: string;
}

/**
 * Compares the rows a run stored with those it planned, per group and in
 * all, and says in words what is incomplete: the run was interrupted, rows
 * are missing (fewer stored than planned, in a merged run too; and how
 * many went from `results.jsonl` after the manifest counted them), there
 * are more rows than planned, or some rows are error rows (requests that
 * failed for good, which count as not correct). Groups planned but with
 * no row stored get a line too. Planned counts exist for groups by
 * `suite`, `model` and `template` only.
 *
 * @param plan What {@linkcode plannedRows} read from the manifest.
 * @param by The grouping columns of `stored`.
 * @param stored Rows stored per group (see {@linkcode SummaryTally.stored}).
 * @param options The run folder, for the advice to resume.
 * @returns The lines, the totals, warnings and notes.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { completeness, plannedRows } from "./tally.ts";
 * const plan = plannedRows({
 *   config: { models: [{ name: "a" }, { name: "b" }], samples: 1, suites: [{ name: "s", templates: ["t"] }] },
 *   questions: { s: 4 }, total: 8,
 * });
 * const c = completeness(plan, ["suite", "model"], [{ keys: ["s", "a"], stored: 4, errors: 1 }]);
 * assert.deepEqual(c.lines.map((l) => [l.keys[1], l.planned, l.stored]), [["a", 4, 4], ["b", 4, 0]]);
 * assert.match(c.warnings[0]!, /^Incomplete: 4 of 8 planned rows are stored \(4 missing\)/);
 * assert.match(c.warnings[1]!, /^1 error row:/);
 * ```
 */
export function completeness(
  plan: PlannedRows,
  by: readonly string[],
  stored: readonly StoredCount[],
  options: CompletenessOptions = {},
): Completeness {
  const groups = new Map<string, CompletenessLine>();
  const id = (keys: readonly string[]) => keys.join("\u0000");
  for (const count of stored) {
    groups.set(id(count.keys), {
      keys: count.keys,
      planned: plannedIn(plan, by, count.keys),
      stored: count.stored,
      errors: count.errors,
    });
  }
  if (by.every((column) => PLAN_COLUMNS.includes(column))) {
    for (const cell of plan.cells) {
      const keys = by.map((column) => cellKey(cell, column));
      if (groups.has(id(keys))) continue;
      groups.set(id(keys), {
        keys,
        planned: plannedIn(plan, by, keys),
        stored: 0,
        errors: 0,
      });
    }
  }
  const lines = [...groups.values()].sort((a, b) =>
    compareKeys(a.keys, b.keys)
  );
  const total = stored.reduce((n, c) => n + c.stored, 0);
  const errors = stored.reduce((n, c) => n + c.errors, 0);
  return {
    lines,
    planned: plan.total,
    stored: total,
    errors,
    ...messages(plan, total, errors, options.runDir),
  };
}

/** The warnings and notes of {@linkcode completeness}: one wording for every output. */
function messages(
  plan: PlannedRows,
  stored: number,
  errors: number,
  runDir: string | undefined,
): { warnings: string[]; notes: string[] } {
  const warnings: string[] = [];
  const planned = plan.total;
  const missing = planned !== null && stored < planned ? planned - stored : 0;
  const of = planned === null
    ? `${stored} rows (of a number planned the manifest does not record)`
    : `${stored} of ${planned} planned rows`;
  const gone = plan.recorded !== null && plan.recorded > stored
    ? ` The manifest counted ${plan.recorded} rows stored: ${
      plan.recorded - stored
    } have gone from results.jsonl since.`
    : "";
  const resume = runDir === undefined
    ? " Resume the run (deno task sweep --resume <run folder>) to fill them."
    : ` Resume it to fill them: deno task sweep --resume ${runDir}`;
  const counted = " Every n and rate counts only the stored rows.";
  if (plan.interrupted) {
    warnings.push(
      `Interrupted: the run's last session was stopped before its work was done; ${of} are stored${
        missing > 0 ? ` (${missing} missing)` : ""
      }.${gone}${missing > 0 ? counted + resume : ""}`,
    );
  } else if (missing > 0) {
    warnings.push(
      plan.mergedFrom === null
        ? `Incomplete: ${of} are stored (${missing} missing).${gone}${counted}${resume}`
        : `Merged from ${plan.mergedFrom} shards with gaps: ${of} are stored (${missing} missing).${gone}${counted}`,
    );
  }
  if (planned !== null && stored > planned) {
    warnings.push(
      `More rows than planned: ${stored} stored, ${planned} planned; the manifest may not describe these rows.`,
    );
  }
  if (errors > 0) {
    warnings.push(
      errors === 1
        ? "1 error row: a request that failed for good (after retries), stored and counted as not correct; its error_kind says why."
        : `${errors} error rows: requests that failed for good (after retries), stored and counted as not correct; their error_kind says why.`,
    );
  }
  const notes = plan.unknown.map(({ suite, why }) =>
    suite === null
      ? `Rows planned per suite and model are not shown: ${why}.`
      : `Rows planned of suite ${suite} are not shown: ${why}.`
  );
  return { warnings, notes };
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
  const scored = new Map(lines.map((line) => [line.keys.join("\u0000"), line]));
  const table = [
    [...by, "planned", "stored", "error rows", ...header],
    ...rows.lines.map((row) => {
      const line = scored.get(row.keys.join("\u0000"));
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
