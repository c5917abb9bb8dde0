/**
 * The rule for rows planned against rows stored: {@linkcode plannedRows}
 * reads what a run's manifest plans (per suite × model × template, or why
 * it cannot tell), and {@linkcode completeness} compares it with the rows
 * stored per group and says, in the one wording every output uses, when a
 * run is incomplete, interrupted or holds error rows. The sweep's closing
 * table (`tally.ts`), `summary.csv`, `summaryText` and the report all call
 * it; the counting of stored rows in Polars frames and the report's HTML
 * warning are in `_completeness_frame.ts` and `_runs_html.ts`. Plain
 * JavaScript without Polars: the sweep CLI loads this file at start-up.
 *
 * @module
 */
import { compareKeys, groupId } from "./_group_keys.ts";

/** Rows stored in one group, and how many of them are error rows. */
export interface StoredCount {
  /** The group's value of each grouping column, in `by` order. */
  keys: readonly string[];
  /** Rows stored (unscored ones included). */
  stored: number;
  /** Rows whose request failed for good (status `error`). */
  errors: number;
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
 * import { plannedRows } from "./completeness.ts";
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
  const spared = sparedRows(m.adaptive);
  const cellsOf = (list: typeof known) =>
    list.flatMap(({ suite, templates }) =>
      models.flatMap((model) =>
        templates.map((template) => ({
          suite,
          model,
          template,
          rows: (questions[suite] as number) * samples -
            (spared.get(`${suite}|${model}|${template}`) ?? 0),
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

/**
 * Rows adaptive designs that stopped took off the plan (their questions
 * never asked), per `suite|model|template`, from a manifest's `adaptive`
 * states; a design that has not stopped still plans its whole pool.
 */
function sparedRows(adaptive: unknown): Map<string, number> {
  const out = new Map<string, number>();
  for (const state of Array.isArray(adaptive) ? adaptive.map(fields) : []) {
    const { suite, model, template, questions, rows, stopped } = state;
    if (
      stopped === null || stopped === undefined || !isCount(questions) ||
      !isCount(rows) || rows > questions
    ) continue;
    const key = `${suite}|${model}|${template}`;
    out.set(key, (out.get(key) ?? 0) + questions - rows);
  }
  return out;
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

/** What {@linkcode completeness} compares with the plan. */
export interface CompletenessInput extends CompletenessOptions {
  /** The grouping columns of `stored`. */
  by: readonly string[];
  /** Rows stored per group (see {@linkcode SummaryTally.stored}). */
  stored: readonly StoredCount[];
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
 * @param input `by`, the grouping columns of `stored`; `stored`, the rows
 *   stored per group (see {@linkcode SummaryTally.stored}); and the run
 *   folder, for the advice to resume.
 * @returns The lines, the totals, warnings and notes.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { completeness, plannedRows } from "./completeness.ts";
 * const plan = plannedRows({
 *   config: { models: [{ name: "a" }, { name: "b" }], samples: 1, suites: [{ name: "s", templates: ["t"] }] },
 *   questions: { s: 4 }, total: 8,
 * });
 * const c = completeness(plan, { by: ["suite", "model"], stored: [{ keys: ["s", "a"], stored: 4, errors: 1 }] });
 * assert.deepEqual(c.lines.map((l) => [l.keys[1], l.planned, l.stored]), [["a", 4, 4], ["b", 4, 0]]);
 * assert.match(c.warnings[0]!, /^Incomplete: 4 of 8 planned rows are stored \(4 missing\)/);
 * assert.match(c.warnings[1]!, /^1 error row:/);
 * ```
 */
export function completeness(
  plan: PlannedRows,
  { by, stored, ...options }: CompletenessInput,
): Completeness {
  const groups = new Map<string, CompletenessLine>();
  for (const count of stored) {
    groups.set(groupId(count.keys), {
      keys: count.keys,
      planned: plannedIn(plan, by, count.keys),
      stored: count.stored,
      errors: count.errors,
    });
  }
  if (by.every((column) => PLAN_COLUMNS.includes(column))) {
    for (const cell of plan.cells) {
      const keys = by.map((column) => cellKey(cell, column));
      if (groups.has(groupId(keys))) continue;
      groups.set(groupId(keys), {
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
