/**
 * A suite's headline metrics, declared once: each is a name, a short
 * label and a function from the suite's scored rows to a value (with its
 * interval where it has one), as inspect_ai attaches metrics to a scorer
 * (a `Metric` is `list[Score] -> Value`). The report's overview, the
 * sweep's closing table, `summary.csv` and the notebooks read these
 * declarations (through the suites the registry loaded) and show the same
 * numbers; a suite that declares none gets {@linkcode DEFAULT_METRICS}.
 *
 * This module loads no Polars: the sweep's closing table computes
 * accuracy-like metrics from plain rows, and a metric that needs a frame
 * asks for one ({@linkcode MetricRows.frame}), which loads Polars then.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { ACCURACY, evaluateMetrics, FORMAT_VALID_RATE, recordRows } from "./metric.ts";
 * const rows = recordRows([
 *   { correct: true, format_valid: true },
 *   { correct: false, format_valid: false },
 * ]);
 * const [accuracy, format] = await evaluateMetrics([ACCURACY, FORMAT_VALID_RATE], rows);
 * assert.equal(accuracy?.value.value, 0.5);
 * assert.ok(accuracy!.value.lo! < 0.5 && accuracy!.value.hi! > 0.5);
 * assert.equal(format?.value.value, 0.5);
 * ```
 *
 * @module
 */
import type pl from "nodejs-polars";
import { importLazily } from "../lazy.ts";
import { wilsonInterval } from "./wilson.ts";

/**
 * A `nodejs-polars` DataFrame, as a metric gets one: the report's
 * `DataFrame`, named here because this module sits below the report.
 */
export type MetricFrame = pl.DataFrame;

/** One row as a metric reads it: field name → value. */
export type MetricRecord = Readonly<Record<string, unknown>>;

/**
 * One group's scored rows (one suite × model, for instance), as a metric
 * reads them: as records or as a Polars frame, whichever it computes on.
 * Only scored rows (`isScored` in `status.ts`) are ever given.
 */
export interface MetricRows {
  /** How many rows. */
  readonly n: number;
  /**
   * The rows as records: result-row fields, with each dim and per-row
   * metric as a field of its own under the name the report's frame gives
   * it (`dim_<name>` when it clashed). They hold at least the fields the
   * metrics list in {@linkcode Metric.columns} that the rows have.
   */
  records(): readonly MetricRecord[];
  /** The same rows as a Polars frame (Polars loads when first asked for). */
  frame(): Promise<MetricFrame>;
}

/** What a metric gives for one group of rows. */
export interface MetricValue {
  /** The value, or null when the rows cannot give it. */
  value: number | null;
  /** Lower bound of its 95% interval, when the metric has one. */
  lo?: number | null;
  /** Upper bound of its 95% interval, when the metric has one. */
  hi?: number | null;
  /**
   * The value of each part, for a figure per part (accuracy per matrix
   * size): part → value (null when that part has no rows).
   */
  parts?: Readonly<Record<string, number | null>>;
}

/** A headline metric a suite declares. */
export interface Metric {
  /**
   * Its name: the column in `summary.csv` and in the report's overview
   * (e.g. `"accuracy"`, `"subject_mean"`, `"pass@1"`). Suites that
   * declare the same name mean the same metric.
   */
  name: string;
  /** A short header for the closing table (e.g. `"HARD mean"`). */
  label: string;
  /** One line on what it measures, for the report's note. */
  description: string;
  /**
   * The row fields it reads (dims and per-row metrics by their column
   * names), so the closing table keeps only those of each row.
   */
  columns: readonly string[];
  /** A share (shown as a percentage) or a plain number. @default "share" */
  kind?: "share" | "number";
  /**
   * The column names of its 95% interval's bounds, when it gives one
   * (`summary.csv` and the overview; the closing table prints one
   * `95% CI` column).
   */
  interval?: readonly [lo: string, hi: string];
  /**
   * For a figure per part: the header of one part's column (`"3×3"` for
   * part `"3"`). The metric then gives `parts`, each its own column,
   * named `<name>_<part>`, and no `value`.
   */
  partLabel?: (part: string) => string;
  /**
   * The metric over one group's scored rows. May await (to load the
   * suite's analysis code, as report sections do). Throwing says the rows
   * cannot give it: the tables show no value and a note why.
   */
  value(rows: MetricRows): MetricValue | Promise<MetricValue>;
}

/** A metric with its value for one group, or why there is none. */
export interface MetricResult {
  /** The metric. */
  metric: Metric;
  /** Its value (`{ value: null }` when it could not be computed). */
  value: MetricValue;
  /** Why it could not be computed, if it could not. */
  problem?: string;
}

/** correct / n with its Wilson 95% interval (NaN-free: null for no rows). */
function accuracyOf(records: readonly MetricRecord[]): MetricValue {
  const n = records.length;
  if (n === 0) return { value: null, lo: null, hi: null };
  const correct = records.filter((r) => r.correct === true).length;
  const { p, lo, hi } = wilsonInterval(correct, n);
  return { value: p, lo, hi };
}

/**
 * Accuracy: correct rows ÷ scored rows (a failed request counts as not
 * correct), with its Wilson 95% interval (`acc_lo`, `acc_hi`).
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { ACCURACY, recordRows } from "./metric.ts";
 * const v = await ACCURACY.value(recordRows([{ correct: true }, { correct: false }, { correct: false }]));
 * assert.equal(v.value, 1 / 3);
 * ```
 */
export const ACCURACY: Metric = {
  name: "accuracy",
  label: "accuracy",
  description:
    "correct rows ÷ scored rows (failed requests count as not correct), with its Wilson 95% interval",
  columns: ["correct"],
  interval: ["acc_lo", "acc_hi"],
  value: (rows) => accuracyOf(rows.records()),
};

/**
 * Format-valid rate: the share of rows whose reply was in the instructed
 * format, among the rows that say (null when none does).
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { FORMAT_VALID_RATE, recordRows } from "./metric.ts";
 * const v = await FORMAT_VALID_RATE.value(recordRows([{ format_valid: true }, { format_valid: null }, { format_valid: false }]));
 * assert.equal(v.value, 0.5);
 * ```
 */
export const FORMAT_VALID_RATE: Metric = {
  name: "format_valid_rate",
  label: "format ok",
  description: "share of replies in the instructed format",
  columns: ["format_valid"],
  value: (rows) => {
    const known = rows.records().filter((r) =>
      typeof r.format_valid === "boolean"
    );
    return {
      value: known.length === 0
        ? null
        : known.filter((r) => r.format_valid === true).length / known.length,
    };
  },
};

/** The metrics of a suite that declares none: accuracy and format-valid rate. */
export const DEFAULT_METRICS: readonly Metric[] = [ACCURACY, FORMAT_VALID_RATE];

/** Options of {@linkcode accuracyBy}. */
export interface AccuracyByOptions {
  /** The metric's name (its columns are `<name>_<part>`). */
  name: string;
  /** Its label. */
  label: string;
  /** What it measures. */
  description: string;
  /** The header of one part's column. @default the part itself */
  partLabel?: (part: string) => string;
}

/**
 * Accuracy per value of a column (a figure per part, like inspect_ai's
 * `grouped`): each part's correct ÷ scored rows, as {@linkcode ACCURACY}
 * counts them.
 *
 * @param column The row field whose values are the parts (e.g. `"size"`).
 * @param options Name, label and description, and the parts' headers.
 * @returns The metric.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { accuracyBy, recordRows } from "./metric.ts";
 * const bySize = accuracyBy("size", { name: "accuracy_size", label: "by size", description: "" });
 * const v = await bySize.value(recordRows([
 *   { size: 3, correct: true }, { size: 3, correct: true }, { size: 5, correct: false }, { size: null, correct: true },
 * ]));
 * assert.deepEqual(v.parts, { "3": 1, "5": 0 });
 * assert.equal(v.value, null);
 * ```
 */
export function accuracyBy(column: string, options: AccuracyByOptions): Metric {
  const { partLabel = (part: string) => part } = options;
  return {
    name: options.name,
    label: options.label,
    description: options.description,
    columns: [column, "correct"],
    partLabel,
    value: (rows) => {
      const groups = new Map<string, MetricRecord[]>();
      for (const r of rows.records()) {
        const part = r[column];
        if (part === null || part === undefined) continue;
        const key = String(part);
        let list = groups.get(key);
        if (list === undefined) groups.set(key, list = []);
        list.push(r);
      }
      const parts: Record<string, number | null> = {};
      for (const key of sortParts([...groups.keys()])) {
        parts[key] = accuracyOf(groups.get(key)!).value ?? null;
      }
      return { value: null, parts };
    },
  };
}

/** Parts in order: numerically when every part is a number, else by text. */
export function sortParts(parts: readonly string[]): string[] {
  const numeric = parts.every((p) => p.trim() !== "" && Number.isFinite(+p));
  return [...parts].sort((a, b) =>
    numeric ? Number(a) - Number(b) : a < b ? -1 : a > b ? 1 : 0
  );
}

/** A suite as the metric tables see it: its name and declared metrics. */
export interface MetricSource {
  /** The suite's registry name. */
  name: string;
  /** Its headline metrics. @default {DEFAULT_METRICS} */
  metrics?: readonly Metric[];
}

/**
 * The metrics of rows of these suites: a suite's declared metrics (the
 * defaults for a suite that declares none or is not among `suites`);
 * for rows of several suites in one group, the metrics all of them
 * declare (by name, in the first one's order).
 *
 * @param names The suites of a group's rows (empty: rows without a suite).
 * @param suites The suites the caller knows (from the registry).
 * @returns The metrics to show for the group.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { ACCURACY, metricsFor } from "./metric.ts";
 * const suites = [{ name: "a", metrics: [ACCURACY] }];
 * assert.deepEqual(metricsFor(["a"], suites).map((m) => m.name), ["accuracy"]);
 * assert.deepEqual(metricsFor(["b"], suites).map((m) => m.name), ["accuracy", "format_valid_rate"]);
 * assert.deepEqual(metricsFor(["a", "b"], suites).map((m) => m.name), ["accuracy"]);
 * ```
 */
export function metricsFor(
  names: readonly string[],
  suites: readonly MetricSource[],
): readonly Metric[] {
  const declared = (name: string) =>
    suites.find((s) => s.name === name)?.metrics ?? DEFAULT_METRICS;
  const [first, ...rest] = [...new Set(names)];
  if (first === undefined) return DEFAULT_METRICS;
  return declared(first).filter((m) =>
    rest.every((name) => declared(name).some((o) => o.name === m.name))
  );
}

/**
 * Computes metrics over one group's rows. A metric that throws gets no
 * value and the reason; the others are unaffected.
 *
 * @param metrics The metrics.
 * @param rows The group's scored rows.
 * @returns One result per metric, in order.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { evaluateMetrics, recordRows } from "./metric.ts";
 * const broken = { name: "x", label: "x", description: "", columns: [], value: () => { throw new Error("no subject column"); } };
 * const [r] = await evaluateMetrics([broken], recordRows([{}]));
 * assert.equal(r?.value.value, null);
 * assert.equal(r?.problem, "no subject column");
 * ```
 */
export async function evaluateMetrics(
  metrics: readonly Metric[],
  rows: MetricRows,
): Promise<MetricResult[]> {
  return await Promise.all(metrics.map(async (metric) => {
    try {
      return { metric, value: await metric.value(rows) };
    } catch (error) {
      return {
        metric,
        value: { value: null },
        problem: error instanceof Error ? error.message : String(error),
      };
    }
  }));
}

/**
 * What the tables say of a metric that could not be computed, or null.
 *
 * @param result The metric's result for a group.
 * @param suite The group's suite, when the table is by suite.
 * @returns `"<suite>: <label> not shown: <why>"`, or null when it has a value.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { ACCURACY, problemNote } from "./metric.ts";
 * const result = { metric: ACCURACY, value: { value: null }, problem: "no\ncorrect column" };
 * assert.equal(problemNote(result, "s"), "s: accuracy not shown: no correct column");
 * assert.equal(problemNote({ metric: ACCURACY, value: { value: 1 } }), null);
 * ```
 */
export function problemNote(
  result: MetricResult,
  suite?: string | null,
): string | null {
  if (result.problem === undefined) return null;
  return `${suite ? `${suite}: ` : ""}${result.metric.label} not shown: ${
    result.problem.replace(/\s+/g, " ")
  }`;
}

/** One column a metric fills in a table (`summary.csv`, the overview). */
export interface MetricColumn {
  /** The column's name. */
  name: string;
  /** Whether it reads as a percentage. */
  share: boolean;
  /** Its cell for one result of the metric. */
  cell(value: MetricValue): number | null;
}

/**
 * The columns a metric fills: its value, then its interval's bounds when
 * it has one; for a figure per part, one column per part seen in
 * `values` (`<name>_<part>`, parts in order).
 *
 * @param metric The metric.
 * @param values Its values in the table's groups (for the parts seen).
 * @returns The columns, in order.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { ACCURACY, accuracyBy, metricColumns } from "./metric.ts";
 * assert.deepEqual(metricColumns(ACCURACY, []).map((c) => c.name), ["accuracy", "acc_lo", "acc_hi"]);
 * const bySize = accuracyBy("size", { name: "accuracy_size", label: "", description: "" });
 * const cols = metricColumns(bySize, [{ value: null, parts: { "5": 0.2, "3": 1 } }]);
 * assert.deepEqual(cols.map((c) => c.name), ["accuracy_size_3", "accuracy_size_5"]);
 * assert.equal(cols[1]!.cell({ value: null, parts: { "5": 0.2 } }), 0.2);
 * ```
 */
export function metricColumns(
  metric: Metric,
  values: readonly MetricValue[],
): MetricColumn[] {
  const share = (metric.kind ?? "share") === "share";
  if (metric.partLabel !== undefined) {
    return metricParts(values).map((part) => ({
      name: `${metric.name}_${part}`,
      share,
      cell: (v) => v.parts?.[part] ?? null,
    }));
  }
  const columns: MetricColumn[] = [{
    name: metric.name,
    share,
    cell: (v) => v.value,
  }];
  if (metric.interval !== undefined) {
    const [lo, hi] = metric.interval;
    columns.push(
      { name: lo, share, cell: (v) => v.lo ?? null },
      { name: hi, share, cell: (v) => v.hi ?? null },
    );
  }
  return columns;
}

/**
 * The parts seen in a metric's values, in order (see {@linkcode sortParts}).
 *
 * @param values Values of a figure per part.
 * @returns The parts.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { metricParts } from "./metric.ts";
 * assert.deepEqual(metricParts([{ value: null, parts: { "10": 1 } }, { value: null, parts: { "9": 1 } }]), ["9", "10"]);
 * ```
 */
export function metricParts(values: readonly MetricValue[]): string[] {
  return sortParts([
    ...new Set(values.flatMap((v) => Object.keys(v.parts ?? {}))),
  ]);
}

type Polars = typeof import("nodejs-polars");

/**
 * Rows given as records, as a {@linkcode MetricRows}: the frame is made
 * from them when a metric asks for one (loading Polars then).
 *
 * @param records The rows.
 * @returns The rows for a metric.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { recordRows } from "./metric.ts";
 * const rows = recordRows([{ correct: true, size: 3 }, { correct: false, size: 5 }]);
 * assert.equal(rows.n, 2);
 * assert.deepEqual((await rows.frame()).getColumn("size").toArray(), [3, 5]);
 * ```
 */
export function recordRows(records: readonly MetricRecord[]): MetricRows {
  let frame: Promise<MetricFrame> | undefined;
  return {
    n: records.length,
    records: () => records,
    frame: () =>
      frame ??= importLazily<Polars>("nodejs-polars").then(({ default: pl }) =>
        records.length === 0
          ? pl.DataFrame({})
          : pl.readRecords([...records] as Record<string, unknown>[], {
            inferSchemaLength: records.length,
          })
      ),
  };
}
