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
 * with this file, `tally_table.ts`, `tally_file.ts` and `wilson.ts`, is
 * all of the report the sweep CLI loads; `tests/cli/startup_graph_test.ts`
 * holds it to that).
 *
 * @module
 */
import type { ResultRow } from "../types.ts";
import { isScored } from "../judge/status.ts";
import {
  evaluateMetrics,
  type MetricRecord,
  type MetricResult,
  metricsFor,
  type MetricSource,
  recordRows,
} from "../judge/metric.ts";
import { compareKeys, groupId } from "./_group_keys.ts";
import type { StoredCount } from "./completeness.ts";

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
    // A grouping column may be a dim (`--by category`), as in the frame.
    const keys = this.by.map((column) => String(fieldOf(row, column) ?? "-"));
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
