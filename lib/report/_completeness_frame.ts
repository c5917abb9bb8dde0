/**
 * Rows planned against rows stored, over Polars frames: the report's
 * overview and warning, `summary.csv` and `summaryText` count stored rows
 * here and leave the rule (what was planned, what to say) to
 * {@linkcode completeness} in `completeness.ts`, which the sweep's closing
 * table uses too. The report's HTML of it is in `_runs_html.ts`.
 *
 * @module
 */
import pl from "nodejs-polars";
import type { DataFrame } from "./frame.ts";
import type { LoadedRuns } from "./load.ts";
import {
  type Completeness,
  completeness,
  type CompletenessLine,
  type CompletenessOptions,
  type PlannedRows,
  plannedRows,
  type StoredCount,
} from "./completeness.ts";
import { distinct } from "./_distinct.ts";
import { groupId } from "./_group_keys.ts";

/** The columns a completeness frame adds to a summary, in order. */
export const COMPLETENESS_COLUMNS = ["planned", "stored", "error_rows"];

const id = (keys: readonly unknown[]) =>
  groupId(keys.map((k) => String(k ?? "-")));

/**
 * The templates of a frame's rows, by suite (what {@linkcode plannedRows}
 * trusts, once they add up, for suites run with their default templates).
 *
 * @param frame Result rows.
 * @returns Suite → templates seen.
 */
export function frameTemplates(frame: DataFrame): Map<string, Set<string>> {
  const seen = new Map<string, Set<string>>();
  if (!frame.columns.includes("suite") || !frame.columns.includes("template")) {
    return seen;
  }
  for (const r of frame.select("suite", "template").unique().toRecords()) {
    if (typeof r.suite !== "string" || typeof r.template !== "string") continue;
    let set = seen.get(r.suite);
    if (set === undefined) seen.set(r.suite, set = new Set());
    set.add(r.template);
  }
  return seen;
}

/** Stored and error rows per group, with each group's key values as the frame has them. */
interface Counted {
  counts: StoredCount[];
  values: Map<string, unknown[]>;
}

/** Counts stored rows (unscored ones included) and error rows per group. */
function storedCounts(frame: DataFrame, by: readonly string[]): Counted {
  const errors = frame.columns.includes("status")
    ? pl.col("status").eq(pl.lit("error")).cast(pl.Int64).sum()
    : pl.lit(0).cast(pl.Int64);
  if (by.length === 0) {
    const count = frame.height === 0
      ? 0
      : Number(frame.select(errors.alias("e")).getColumn("e").get(0) ?? 0);
    return {
      counts: [{ keys: [], stored: frame.height, errors: count }],
      values: new Map([["", []]]),
    };
  }
  const counts: StoredCount[] = [];
  const values = new Map<string, unknown[]>();
  const records = frame.groupBy([...by])
    .agg(pl.len().alias("_stored"), errors.alias("_errors")).toRecords();
  for (const r of records) {
    const native = by.map((column) => r[column] ?? null);
    const keys = native.map((v) => String(v ?? "-"));
    values.set(id(keys), native);
    counts.push({
      keys,
      stored: Number(r._stored),
      errors: Number(r._errors ?? 0),
    });
  }
  return { counts, values };
}

/**
 * A run's rows planned (from its manifest) against those stored in its
 * frame, grouped by `by`.
 *
 * @param frame The run's rows.
 * @param manifest Its parsed `manifest.json`, or null.
 * @param by Grouping columns present in the frame.
 * @param options The run folder, for the advice to resume.
 * @returns What {@linkcode completeness} says.
 */
export function frameCompleteness(
  frame: DataFrame,
  manifest: unknown,
  by: readonly string[],
  options: CompletenessOptions = {},
): Completeness {
  const plan = plannedRows(manifest, frameTemplates(frame));
  return completeness(plan, {
    by,
    stored: storedCounts(frame, by).counts,
    ...options,
  });
}

/**
 * Completeness lines as a frame: the grouping columns (typed as in
 * `frame`), then `planned` (null when unknown), `stored` and `error_rows`.
 */
function linesFrame(
  frame: DataFrame,
  by: readonly string[],
  lines: readonly CompletenessLine[],
  values: ReadonlyMap<string, unknown[]> = new Map(),
): DataFrame {
  const keys = by.map((column, i) => {
    const cells = lines.map((l) => values.get(id(l.keys))?.[i] ?? l.keys[i]);
    try {
      return pl.Series(column, cells, frame.getColumn(column).dtype);
    } catch {
      return pl.Series(column, cells);
    }
  });
  return pl.DataFrame([
    ...keys,
    pl.Series("planned", lines.map((l) => l.planned), pl.Int64),
    pl.Series("stored", lines.map((l) => l.stored), pl.Int64),
    pl.Series("error_rows", lines.map((l) => l.errors), pl.Int64),
  ]);
}

/**
 * Adds `planned`, `stored` and `error_rows` to a summary grouped by `by`,
 * with a row (n 0, other statistics null) for each group planned or
 * stored that the summary lacks: a model with no row stored, a group of
 * unscored rows only.
 *
 * @param summary A summary of `frame` (from `summarize`) grouped by `by`.
 * @param frame The rows it summarizes (for the key columns' types).
 * @param by Its grouping columns.
 * @param lines The completeness lines of the same groups.
 * @param values Key values of stored groups as the frame has them.
 * @returns The summary with the three columns after the keys, sorted by them.
 */
function joinLines(
  summary: DataFrame,
  frame: DataFrame,
  by: readonly string[],
  lines: readonly CompletenessLine[],
  values?: ReadonlyMap<string, unknown[]>,
): DataFrame {
  const rest = summary.columns.filter((c) => !by.includes(c));
  if (by.length === 0) {
    const line = lines[0];
    return summary.withColumns(
      pl.lit(line?.planned ?? null).cast(pl.Int64).alias("planned"),
      pl.lit(line?.stored ?? 0).cast(pl.Int64).alias("stored"),
      pl.lit(line?.errors ?? 0).cast(pl.Int64).alias("error_rows"),
    ).select(...COMPLETENESS_COLUMNS, ...rest);
  }
  const fill = ["n", "correct"].filter((c) => rest.includes(c))
    .map((c) => pl.col(c).fillNull(0));
  const joined = summary.join(linesFrame(frame, by, lines, values), {
    on: [...by],
    how: "full",
    coalesce: true,
  });
  return (fill.length ? joined.withColumns(...fill) : joined)
    .sort([...by])
    .select(...by, ...COMPLETENESS_COLUMNS, ...rest);
}

/**
 * A summary of one run with its rows planned, stored and failed per group
 * (see {@linkcode joinLines}), and what {@linkcode completeness} says.
 *
 * @param summary A summary of `frame` grouped by `by`.
 * @param frame The run's rows.
 * @param manifest Its parsed `manifest.json`, or null.
 * @param by The summary's grouping columns.
 * @param options The run folder, for the advice to resume.
 * @returns The summary with the three columns, and the completeness.
 */
export function withCompleteness(
  summary: DataFrame,
  frame: DataFrame,
  manifest: unknown,
  by: readonly string[],
  options: CompletenessOptions = {},
): { summary: DataFrame; completeness: Completeness } {
  const plan = plannedRows(manifest, frameTemplates(frame));
  const { counts, values } = storedCounts(frame, by);
  const c = completeness(plan, { by, stored: counts, ...options });
  return {
    summary: joinLines(summary, frame, by, c.lines, values),
    completeness: c,
  };
}

/** One run folder of a report, with its rows planned against stored. */
export interface RunCompleteness {
  /** The folder as given (empty for rows not loaded from a folder). */
  dir: string;
  /** The `run` value of its rows when they have exactly one, else null. */
  label: string | null;
  /** Its rows. */
  frame: DataFrame;
  /** What its manifest plans. */
  plan: PlannedRows;
  /** Per suite × model, and what to say. */
  completeness: Completeness;
}

/**
 * Rows planned against stored for each run of a report, per suite ×
 * model. Each run's rows are its slice of the frame (`loadRuns` stacks
 * them in order); rows not loaded from folders (no `runs`) count as one
 * run without a manifest.
 *
 * @param loaded What `loadRuns` returned.
 * @param frame Its frame with a `suite` on every row.
 * @returns One entry per run, in order.
 */
export function runsCompleteness(
  loaded: LoadedRuns,
  frame: DataFrame,
): RunCompleteness[] {
  const runs = loaded.runs.length > 0 &&
      loaded.runs.reduce((n, r) => n + r.rows, 0) === frame.height
    ? loaded.runs
    : [{ dir: "", manifest: null, rows: frame.height }];
  const out: RunCompleteness[] = [];
  let offset = 0;
  for (const run of runs) {
    const sub = frame.slice(offset, run.rows);
    offset += run.rows;
    const labels = distinct(sub, "run");
    const plan = plannedRows(run.manifest, frameTemplates(sub));
    const by = ["suite", "model"].filter((c) => sub.columns.includes(c));
    out.push({
      dir: run.dir,
      label: labels.length === 1 ? String(labels[0]) : null,
      frame: sub,
      plan,
      completeness: completeness(plan, {
        by,
        stored: storedCounts(sub, by).counts,
        ...(run.dir === "" ? {} : { runDir: run.dir }),
      }),
    });
  }
  return out;
}

/**
 * The report's overview with `planned`, `stored` and `error_rows` per
 * group: `by` is `suite, model`, or `run, suite, model` with several runs
 * (a run's groups are labelled by its rows' `run`).
 *
 * @param summary The overview (a summary grouped by `by`).
 * @param frame All rows, with a `suite` on every row.
 * @param by The overview's grouping columns.
 * @param runs What {@linkcode runsCompleteness} returned.
 * @returns The overview with the three columns after the keys.
 */
export function overviewWithCompleteness(
  summary: DataFrame,
  frame: DataFrame,
  by: readonly string[],
  runs: readonly RunCompleteness[],
): DataFrame {
  const byRun = by[0] === "run";
  const merged = new Map<string, CompletenessLine>();
  for (const run of runs) {
    const lines = !byRun
      ? run.completeness.lines
      : run.label !== null
      ? run.completeness.lines.map((l) => ({
        ...l,
        keys: [run.label!, ...l.keys],
      }))
      : completeness(run.plan, {
        by,
        stored: storedCounts(run.frame, by).counts,
      }).lines;
    for (const line of lines) {
      const key = id(line.keys);
      const prior = merged.get(key);
      merged.set(
        key,
        prior === undefined ? line : {
          keys: line.keys,
          planned: prior.planned === null || line.planned === null
            ? null
            : prior.planned + line.planned,
          stored: prior.stored + line.stored,
          errors: prior.errors + line.errors,
        },
      );
    }
  }
  return joinLines(summary, frame, by, [...merged.values()]);
}
