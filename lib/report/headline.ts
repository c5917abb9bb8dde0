/**
 * The headline table of a result frame: per group, the scored rows and
 * the headline metrics each suite declares (`Suite.metrics`, the defaults
 * for a suite that declares none), beside the generic per-group
 * statistics of {@linkcode summarize}. The report's overview,
 * `summary.csv`, `summaryText` and the notebooks' headline tables are
 * this table; the sweep's closing table computes the same lines without
 * Polars (`tally.ts`).
 *
 * @module
 */
import pl from "nodejs-polars";
import type { DataFrame } from "./frame.ts";
import {
  evaluateMetrics,
  type Metric,
  type MetricColumn,
  metricColumns,
  type MetricRecord,
  type MetricRows,
  metricsFor,
  type MetricSource,
  problemNote,
} from "../judge/metric.ts";
import { summarize } from "./summarize.ts";
import { scoredRows } from "./scored.ts";
import type { SummaryLine } from "./tally.ts";
import { groupId } from "./_group_keys.ts";
import { distinct } from "./_distinct.ts";

/**
 * The columns of {@linkcode summarize} that declared metrics replace:
 * accuracy, its interval and the format-valid rate are headline metrics
 * (a suite's declaration says whether they are its).
 */
const DECLARED = ["accuracy", "acc_lo", "acc_hi", "format_valid_rate"];

/** Options of {@linkcode headline}. */
export interface HeadlineOptions {
  /**
   * The suites whose declared metrics to show (the suites the registry
   * loaded); rows of another suite get the default metrics.
   * @default none
   */
  suites?: readonly MetricSource[];
}

/** The metric columns of one suite's groups in a headline. */
export interface SuiteColumns {
  /** The suite (null when the table is not grouped by suite). */
  suite: string | null;
  /** Its metrics, in its declared order. */
  metrics: readonly Metric[];
  /** The columns they fill, in order. */
  columns: readonly MetricColumn[];
}

/** What {@linkcode headline} returns. */
export interface Headline {
  /**
   * One row per group, as {@linkcode summarize} gives it, with the
   * declared metrics' columns after `correct` in place of its accuracy,
   * interval and format-valid columns: a group's cell of a metric its
   * suite does not declare is null.
   */
  frame: DataFrame;
  /** The grouping columns (those of `by` the frame has). */
  by: readonly string[];
  /** The same groups as lines for the text table (`formatSummaryTable`). */
  lines: SummaryLine[];
  /** The metric columns of each suite's groups, suite by suite in order. */
  suites: readonly SuiteColumns[];
  /** Whether a column reads as a percentage. */
  share(column: string): boolean;
  /** Metrics that could not be computed and why (`"<suite>: <label> not shown: <why>"`). */
  notes: readonly string[];
  /** The suites whose declarations were read. */
  sources: readonly MetricSource[];
}

/** A group's key values as one identity, as the tally and completeness key them. */
const keyId = (keys: readonly unknown[]) =>
  groupId(keys.map((k) => String(k ?? "-")));

/**
 * A group's rows for its metrics: the frame as it is, and its records
 * with only the fields the metrics read (made when first asked for).
 */
function frameRows(frame: DataFrame, fields: readonly string[]): MetricRows {
  let records: MetricRecord[] | undefined;
  return {
    n: frame.height,
    records: () => {
      if (records !== undefined) return records;
      const present = fields.filter((c) => frame.columns.includes(c));
      records = present.length === 0
        ? Array.from({ length: frame.height }, () => ({}))
        : frame.select(...present).toRecords();
      return records;
    },
    frame: () => Promise.resolve(frame),
  };
}

/**
 * Per group of `by`: the rows scored (`isScored`), the generic statistics
 * and each declared headline metric. A group's metrics are its suite's
 * (the intersection of its suites' when `by` has no `suite` column and a
 * group holds rows of several).
 *
 * @param frame Result rows (a frame from `loadRuns`).
 * @param by Grouping columns (those missing from the frame are skipped).
 * @param options The suites whose declarations to read.
 * @returns The table, its lines and its columns per suite.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import pl from "nodejs-polars";
 * import { headline } from "./headline.ts";
 * import { ACCURACY } from "../judge/metric.ts";
 * const frame = pl.DataFrame({
 *   suite: ["s", "s", "t", "t"], model: ["m", "m", "m", "m"],
 *   status: ["correct", "wrong", "correct", "unscored"], correct: [true, false, true, false],
 *   format_valid: [true, true, false, true],
 * });
 * const h = await headline(frame, ["suite", "model"], { suites: [{ name: "s", metrics: [ACCURACY] }] });
 * const [s, t] = h.frame.toRecords();
 * assert.deepEqual([s?.n, s?.accuracy, s?.format_valid_rate], [2, 0.5, null]);
 * assert.deepEqual([t?.n, t?.accuracy, t?.format_valid_rate], [1, 1, 0]);
 * assert.deepEqual(h.suites.map((c) => c.columns.map((col) => col.name)), [
 *   ["accuracy", "acc_lo", "acc_hi"], ["accuracy", "acc_lo", "acc_hi", "format_valid_rate"],
 * ]);
 * ```
 */
export async function headline(
  frame: DataFrame,
  by: readonly string[],
  options: HeadlineOptions = {},
): Promise<Headline> {
  const { suites = [] } = options;
  by = by.filter((column) => frame.columns.includes(column));
  const summary = summarize(frame, by);
  const scored = scoredRows(frame);
  const groups = new Map<string, DataFrame>();
  if (by.length === 0) groups.set(keyId([]), scored);
  else if (scored.height > 0) {
    for (const part of scored.partitionBy([...by])) {
      groups.set(keyId(by.map((c) => part.getColumn(c).get(0))), part);
    }
  }
  const records = summary.toRecords();
  const suiteAt = by.indexOf("suite");
  const hasSuite = frame.columns.includes("suite");
  const lines: SummaryLine[] = [];
  const suiteOf: (string | null)[] = [];
  for (const r of records) {
    const keys = by.map((c) => r[c]);
    const rows = groups.get(keyId(keys)) ?? scored.head(0);
    const names = suiteAt >= 0
      ? (typeof keys[suiteAt] === "string" ? [keys[suiteAt] as string] : [])
      : hasSuite
      ? distinct(rows, "suite").filter((s) => typeof s === "string")
        .map(String)
      : [];
    const metrics = metricsFor(names.sort(), suites);
    const fields = [...new Set(metrics.flatMap((m) => m.columns))];
    const num = (x: unknown) => typeof x === "number" ? x : Number(x ?? NaN);
    lines.push({
      keys: keys.map((k) => String(k ?? "-")),
      n: num(r.n),
      correct: num(r.correct),
      errorRate: num(r.error_rate),
      metrics: await evaluateMetrics(metrics, frameRows(rows, fields)),
    });
    suiteOf.push(suiteAt >= 0 ? (names[0] ?? null) : null);
  }
  // The metric columns of each suite's groups, suites in order of the rows;
  // each column once in the frame, with the metric that fills it.
  const blocks: SuiteColumns[] = [];
  const owners = new Map<string, { column: MetricColumn; metric: string }>();
  const notes = new Set<string>();
  for (const suite of [...new Set(suiteOf)]) {
    const results = lines.filter((_, i) => suiteOf[i] === suite)
      .flatMap((line) => line.metrics);
    const metrics = [
      ...new Map(results.map((res) => [res.metric.name, res.metric])).values(),
    ];
    const columns = metrics.flatMap((m) => {
      const values = results.filter((res) => res.metric.name === m.name)
        .map((res) => res.value);
      const own = metricColumns(m, values);
      for (const column of own) {
        if (!owners.has(column.name)) {
          owners.set(column.name, { column, metric: m.name });
        }
      }
      return own;
    });
    blocks.push({ suite, metrics, columns });
    for (const res of results) {
      const note = problemNote(res, suite);
      if (note !== null) notes.add(note);
    }
  }
  const cells = [...owners.values()].map(({ column, metric }) =>
    pl.Series(
      column.name,
      lines.map((line) => {
        const res = line.metrics.find((m) => m.metric.name === metric);
        return res === undefined ? null : column.cell(res.value);
      }),
      pl.Float64,
    )
  );
  const rest = summary.columns.filter((c) => !DECLARED.includes(c));
  const at = rest.indexOf("correct") + 1;
  const kept = summary.select(...rest);
  const out = (cells.length > 0 ? kept.withColumns(...cells) : kept).select(
    ...rest.slice(0, at),
    ...owners.keys(),
    ...rest.slice(at),
  );
  const shares = new Set(
    [...owners.values()].filter((o) => o.column.share).map((o) =>
      o.column.name
    ),
  );
  return {
    frame: out,
    by,
    lines,
    suites: blocks,
    share: (column) => shares.has(column),
    notes: [...notes],
    sources: suites,
  };
}
