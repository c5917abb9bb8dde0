/**
 * The C-Eval tables over the result frame of `loadRuns`: accuracy per
 * subject and per subject fact (category, level, HARD) as the mean of
 * subject accuracies, and the headline summary (the average over
 * subjects, C-Eval's official figure, beside the average over questions,
 * and the HARD average) that the suite's declared metrics read. Polars
 * only (the charts are in `report.ts`), so a sweep's closing table that
 * shows C-Eval's metrics loads no chart code.
 *
 * Rows without a known key are left out of every accuracy by the one
 * rule (`isScored`); they only feed the submission (`report.ts`).
 *
 * @module
 */
import pl from "nodejs-polars";
import type { DataFrame } from "../../report/mod.ts";
import { requireColumns } from "../../report/columns.ts";
import { scoredRows } from "../../report/scored.ts";
import { NO_ANSWER_STATUSES } from "../../judge/status.ts";

/** Options shared by the C-Eval report functions. */
export interface CevalReportOptions {
  /** Columns that split the report (one result per combination). @default ["model", "template"] */
  by?: readonly string[];
}

/** Extraction failures: replies judged without an answer to compare. */
const FAILED = [...NO_ANSWER_STATUSES];

/** The column check's advice: these rows come from a ceval run. */
const CEVAL = { suite: "ceval" } as const;

/**
 * The scored C-Eval rows: suite `ceval` (when the frame has a suite
 * column), scored by the one rule every table uses (`isScored`: a known
 * key; an error row of a withheld test question does not count).
 *
 * @param frame A result frame.
 * @returns The rows that count for accuracy.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import pl from "nodejs-polars";
 * import { cevalScored } from "./tables.ts";
 * const f = pl.DataFrame({
 *   suite: ["ceval", "ceval", "ceval", "arithmetic"],
 *   status: ["wrong", "unscored", "error", "correct"], expected: ["A", "", "", "4"],
 * });
 * assert.equal(cevalScored(f).height, 1);
 * ```
 */
export function cevalScored(frame: DataFrame): DataFrame {
  return scoredRows(
    frame.columns.includes("suite")
      ? frame.filter(pl.col("suite").eq(pl.lit("ceval")))
      : frame,
  );
}

function groupCols(frame: DataFrame, by: readonly string[]): string[] {
  return by.filter((c) => frame.columns.includes(c));
}

/**
 * Accuracy per subject (and per `by` group), worst first, with the
 * subject's facts and its extraction failures (`parse_error` or
 * `truncated` rows).
 *
 * @param frame A result frame with the ceval dims.
 * @param options Grouping columns.
 * @returns Columns: ...by, subject, subject_zh, category, level, hard, n,
 *   correct, accuracy, extraction_failures, failure_rate.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import pl from "nodejs-polars";
 * import { cevalBySubject } from "./tables.ts";
 * const f = pl.DataFrame({
 *   model: ["m", "m", "m"], expected: ["A", "B", "C"], correct: [true, false, false],
 *   status: ["correct", "wrong", "parse_error"],
 *   subject: ["logic", "law", "law"], subject_zh: ["逻辑学", "法学", "法学"],
 *   category: ["Humanities", "Humanities", "Humanities"], level: ["college", "college", "college"], hard: [false, false, false],
 * });
 * const t = cevalBySubject(f, { by: ["model"] }).toRecords();
 * assert.equal(t[0]!.subject, "law");
 * assert.equal(t[0]!.extraction_failures, 1);
 * ```
 */
export function cevalBySubject(
  frame: DataFrame,
  options: CevalReportOptions = {},
): DataFrame {
  const { by = ["model", "template"] } = options;
  const facts = ["subject", "subject_zh", "category", "level", "hard"];
  requireColumns(frame, [...facts, "correct", "status"], {
    action: "build C-Eval report",
    ...CEVAL,
  });
  const f = cevalScored(frame);
  const keys = [...groupCols(f, by), ...facts];
  return f.groupBy(keys).agg(
    pl.len().alias("n"),
    pl.col("correct").cast(pl.Int64).sum().alias("correct"),
    pl.col("status").isIn(FAILED).cast(pl.Int64).sum().alias(
      "extraction_failures",
    ),
  ).withColumns(
    pl.col("correct").cast(pl.Float64).div(pl.col("n")).alias("accuracy"),
    pl.col("extraction_failures").cast(pl.Float64).div(pl.col("n")).alias(
      "failure_rate",
    ),
  ).select(
    ...keys,
    "n",
    "correct",
    "accuracy",
    "extraction_failures",
    "failure_rate",
  ).sort(["accuracy", ...keys], false);
}

/**
 * Accuracy per value of a subject fact (`category`, `level` or `hard`):
 * `accuracy` is the unweighted mean of the subject accuracies in the
 * group (C-Eval's way), `accuracy_questions` pools the questions.
 *
 * @param frame A result frame with the ceval dims.
 * @param fact The column to group by.
 * @param options Grouping columns.
 * @returns Columns: ...by, fact, subjects, n, accuracy, accuracy_questions.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import pl from "nodejs-polars";
 * import { cevalByFact } from "./tables.ts";
 * const f = pl.DataFrame({
 *   model: ["m", "m", "m", "m"], expected: ["A", "A", "A", "A"], correct: [true, true, true, false],
 *   status: ["correct", "correct", "correct", "wrong"],
 *   subject: ["logic", "law", "law", "law"], subject_zh: ["逻辑学", "法学", "法学", "法学"],
 *   category: ["Humanities", "Humanities", "Humanities", "Humanities"], level: ["college", "college", "college", "college"], hard: [false, false, false, false],
 * });
 * const [row] = cevalByFact(f, "category", { by: ["model"] }).toRecords();
 * assert.equal(row!.accuracy, (1 + 2 / 3) / 2);
 * assert.equal(row!.accuracy_questions, 3 / 4);
 * ```
 */
export function cevalByFact(
  frame: DataFrame,
  fact: "category" | "level" | "hard",
  options: CevalReportOptions = {},
): DataFrame {
  const { by = ["model", "template"] } = options;
  const subjects = cevalBySubject(frame, { by });
  const keys = [...groupCols(subjects, by), fact];
  return subjects.groupBy(keys).agg(
    pl.len().alias("subjects"),
    pl.col("n").sum().alias("n"),
    pl.col("correct").sum().alias("correct"),
    pl.col("accuracy").mean().alias("accuracy"),
  ).withColumns(
    pl.col("correct").cast(pl.Float64).div(pl.col("n")).alias(
      "accuracy_questions",
    ),
  ).select(...keys, "subjects", "n", "accuracy", "accuracy_questions")
    .sort(keys);
}

/**
 * The headline C-Eval numbers per group: the average over subjects
 * (unweighted, as C-Eval reports it), the average over questions, the
 * C-Eval HARD average (over the HARD subjects present; null when none),
 * and extraction failures.
 *
 * @param frame A result frame with the ceval dims.
 * @param options Grouping columns.
 * @returns Columns: ...by, subjects, n, average, average_questions,
 *   hard_average, hard_subjects, extraction_failures.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import pl from "nodejs-polars";
 * import { cevalSummary } from "./tables.ts";
 * const f = pl.DataFrame({
 *   model: ["m", "m", "m"], expected: ["A", "A", "A"], correct: [true, false, false],
 *   status: ["correct", "wrong", "wrong"],
 *   subject: ["logic", "college_physics", "college_physics"], subject_zh: ["逻辑学", "大学物理", "大学物理"],
 *   category: ["Humanities", "STEM", "STEM"], level: ["college", "college", "college"], hard: [false, true, true],
 * });
 * const [row] = cevalSummary(f, { by: ["model"] }).toRecords();
 * assert.equal(row!.average, 0.5);
 * assert.equal(row!.average_questions, 1 / 3);
 * assert.equal(row!.hard_average, 0);
 * ```
 */
export function cevalSummary(
  frame: DataFrame,
  options: CevalReportOptions = {},
): DataFrame {
  const { by = ["model", "template"] } = options;
  const subjects = cevalBySubject(frame, { by });
  const keys = groupCols(subjects, by);
  const hard = pl.col("hard").cast(pl.Bool);
  const aggs = [
    pl.len().alias("subjects"),
    pl.col("n").sum().alias("n"),
    pl.col("correct").sum().alias("correct"),
    pl.col("accuracy").mean().alias("average"),
    pl.col("accuracy").filter(hard).mean().alias("hard_average"),
    hard.cast(pl.Int64).sum().alias("hard_subjects"),
    pl.col("extraction_failures").sum().alias("extraction_failures"),
  ];
  const grouped = keys.length > 0
    ? subjects.groupBy(keys).agg(...aggs)
    : subjects.select(...aggs);
  const out = grouped.withColumns(
    pl.col("correct").cast(pl.Float64).div(pl.col("n")).alias(
      "average_questions",
    ),
  ).select(
    ...keys,
    "subjects",
    "n",
    "average",
    "average_questions",
    "hard_average",
    "hard_subjects",
    "extraction_failures",
  );
  return keys.length > 0 ? out.sort(keys) : out;
}
