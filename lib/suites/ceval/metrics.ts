/**
 * The C-Eval suite's headline metrics: accuracy over the scored questions,
 * C-Eval's official figure (the unweighted mean of subject accuracies)
 * and the C-Eval HARD mean. The two C-Eval figures are
 * `cevalSummary`'s `average` and `hard_average` (`tables.ts`), computed once
 * per group of rows; its module loads (with Polars) only when a table
 * shows them, so the suite itself stays light.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { CEVAL_METRICS } from "./metrics.ts";
 * assert.deepEqual(CEVAL_METRICS.map((m) => m.name), ["accuracy", "subject_mean", "hard_mean"]);
 * ```
 *
 * @module
 */
import { ACCURACY, type Metric, type MetricRows } from "../../judge/metric.ts";
import { importLazily } from "../../lazy.ts";

type Tables = typeof import("./tables.ts");

/** The row fields `cevalSummary` reads. */
const FIELDS = [
  "subject",
  "subject_zh",
  "category",
  "level",
  "hard",
  "correct",
  "status",
  "expected",
];

const summaries = new WeakMap<MetricRows, Promise<Record<string, unknown>>>();

/** `cevalSummary` of a group's rows (one line: the group), computed once. */
function summaryOf(rows: MetricRows): Promise<Record<string, unknown>> {
  let summary = summaries.get(rows);
  if (summary === undefined) {
    summary = (async () => {
      const { cevalSummary } = await importLazily<Tables>(
        "./tables.ts",
        import.meta.url,
      );
      return cevalSummary(await rows.frame(), { by: [] }).toRecords()[0] ??
        {};
    })();
    summaries.set(rows, summary);
  }
  return summary;
}

const num = (x: unknown) => typeof x === "number" ? x : null;

/** C-Eval's official figure: the mean of subject accuracies, each subject weighing the same. */
export const SUBJECT_MEAN: Metric = {
  name: "subject_mean",
  label: "subject mean",
  description:
    "C-Eval's official figure: the unweighted mean of the subjects' accuracies",
  columns: FIELDS,
  value: async (rows) => ({ value: num((await summaryOf(rows)).average) }),
};

/** The C-Eval HARD mean: the mean of the HARD subjects' accuracies (null without one). */
export const HARD_MEAN: Metric = {
  name: "hard_mean",
  label: "HARD mean",
  description:
    "C-Eval HARD: the unweighted mean over the HARD subjects present",
  columns: FIELDS,
  value: async (rows) => ({
    value: num((await summaryOf(rows)).hard_average),
  }),
};

/** The C-Eval suite's headline metrics, in the order the tables show them. */
export const CEVAL_METRICS: readonly Metric[] = [
  ACCURACY,
  SUBJECT_MEAN,
  HARD_MEAN,
];
