/**
 * The summary table as text: one table per suite (its declared headline
 * metrics, each share as a percentage, intervals in one `95% CI`
 * column), aligned for a terminal; the one formatter the sweep's closing
 * table and `summaryText` share.
 *
 * @module
 */
import {
  type Metric,
  metricParts,
  type MetricResult,
  problemNote,
} from "../judge/metric.ts";
import { groupId } from "./_group_keys.ts";
import type { Completeness } from "./completeness.ts";

import type { SummaryLine } from "./tally.ts";

export const pct = (x: number | null | undefined) =>
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

/** Options of {@linkcode formatSummaryTable}. */
export interface FormatSummaryTableOptions {
  /**
   * The run's rows planned and stored, grouped by `by`.
   * @default none (no planned, stored and error-row columns)
   */
  rows?: Completeness;
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
 * @param options `rows`, the run's rows planned and stored, grouped by `by`.
 * @returns The tables, a blank line between two, header first; then a
 *   `Warning: ` line per warning and a `Note: ` line per note.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { formatSummaryTable } from "./tally_table.ts";
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
 * const withRows = formatSummaryTable(["model"], [line], { rows: {
 *   lines: [{ keys: ["m"], planned: 3, stored: 2, errors: 0 }],
 *   planned: 3, stored: 2, errors: 0,
 *   warnings: ["Incomplete: 2 of 3 planned rows are stored (1 missing)."], notes: [],
 * } });
 * assert.match(withRows, /^model\s+planned\s+stored\s+error rows\s+n\s+accuracy/);
 * assert.match(withRows, /\nm\s+3\s+2\s+0\s+2\s+50\.0%/);
 * assert.match(withRows, /\nWarning: Incomplete: 2 of 3 planned rows/);
 * ```
 */
export function formatSummaryTable(
  by: readonly string[],
  lines: readonly SummaryLine[],
  { rows }: FormatSummaryTableOptions = {},
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
export function alignTable(table: readonly string[][], left: number): string {
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
