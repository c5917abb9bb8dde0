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
 * @module
 */
import { readResults } from "../store/mod.ts";
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

interface Counts {
  keys: string[];
  n: number;
  correct: number;
  formatValid: number;
  formatKnown: number;
  errors: number;
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
   * Counts one row; unscored rows (no answer key) are left out.
   *
   * @param row A result row (only the grouping columns, `status`,
   * `correct` and `format_valid` are read).
   */
  add(row: TallyRow & Record<string, unknown>): void {
    if (row.status === "unscored") return;
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
      };
      this.#groups.set(id, counts);
    }
    counts.n++;
    if (row.correct === true) counts.correct++;
    if (typeof row.format_valid === "boolean") {
      counts.formatKnown++;
      if (row.format_valid) counts.formatValid++;
    }
    if (row.status === "error") counts.errors++;
  }

  /**
   * The groups' lines, sorted by their keys.
   *
   * @returns One line per group seen.
   */
  lines(): SummaryLine[] {
    return [...this.#groups.values()]
      .sort((a, b) => compareKeys(a.keys, b.keys))
      .map((c) => {
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

const pct = (x: number | null) =>
  x !== null && Number.isFinite(x) ? `${(x * 100).toFixed(1)}%` : "-";

/**
 * The summary as an aligned text table: the grouping columns, `n`,
 * accuracy, its 95% interval, the format-valid rate and the error rate.
 *
 * @param by The grouping columns' names (the header).
 * @param lines The groups, in the order to print.
 * @returns The table, header first, one line per group.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { formatSummaryTable } from "./tally.ts";
 * const text = formatSummaryTable(["model"], [{
 *   keys: ["m"], n: 2, correct: 1, accuracy: 0.5, lo: 0.09, hi: 0.91,
 *   formatValidRate: 1, errorRate: 0,
 * }]);
 * assert.match(text, /^model\s+n\s+accuracy\s+95% CI\s+format ok\s+errors\n/);
 * assert.match(text, /m\s+2\s+50\.0%\s+\[9\.0%, 91\.0%\]\s+100\.0%\s+0\.0%$/);
 * ```
 */
export function formatSummaryTable(
  by: readonly string[],
  lines: readonly SummaryLine[],
): string {
  const table = [
    [...by, "n", "accuracy", "95% CI", "format ok", "errors"],
    ...lines.map((line) => [
      ...line.keys,
      String(line.n),
      pct(line.accuracy),
      `[${pct(line.lo)}, ${pct(line.hi)}]`,
      pct(line.formatValidRate),
      pct(line.errorRate),
    ]),
  ];
  return alignTable(table, by.length);
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

/**
 * The closing summary of a results file, streamed: suite × model, with
 * the template as a third column when the run has several.
 *
 * @param path A `results.jsonl`.
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
 * const text = await summarizeResultsText(`${dir}/results.jsonl`);
 * assert.match(text, /^suite\s+model\s+template\s+n/);
 * assert.equal(text.split("\n").length, 3);
 * await Deno.remove(dir, { recursive: true });
 * ```
 */
export async function summarizeResultsText(path: string): Promise<string> {
  // Counted both ways in one pass; the template column is kept only when
  // the run has more than one template.
  const withTemplate = new SummaryTally(["suite", "model", "template"]);
  const without = new SummaryTally(["suite", "model"]);
  const templates = new Set<string>();
  for await (const row of readResults(path, { onBadLine: () => {} })) {
    const fields = row as unknown as TallyRow & Record<string, unknown>;
    withTemplate.add(fields);
    without.add(fields);
    templates.add(row.template);
  }
  const tally = templates.size > 1 ? withTemplate : without;
  return formatSummaryTable(tally.by, tally.lines());
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
