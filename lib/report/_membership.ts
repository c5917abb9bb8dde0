/**
 * Which loaded rows are the run's own: a number in a report is never
 * computed over rows that are not. Private to `lib/report` (the loader
 * calls it on each run folder's frame).
 *
 * @module
 */
import pl from "nodejs-polars";
import type { DataFrame, Expr } from "./frame.ts";
import {
  NOT_THE_RUNS,
  type RunMembership,
  runMembership,
  type SetAside,
  setAsideWarning,
} from "../store/mod.ts";

/** The columns the membership rules read (loaded even when not asked for). */
export const MEMBERSHIP_COLUMNS: readonly string[] = [
  "key",
  "run",
  "model",
  "suite",
  "question_id",
  "template",
  "sample",
];

/** A run's own rows, and what was set aside. */
export interface OwnRows {
  /** The rows that are the run's, in file order. */
  frame: DataFrame;
  /** Rows set aside, in all. */
  setAside: number;
  /** One clause per reason, with the first rows' numbers, or null. */
  warning: string | null;
}

/** One membership rule: what a row must satisfy and the reason it fails. */
interface Rule {
  ok: Expr;
  /** The columns it reads: a row missing any of them passes. */
  needs: string[];
  reason: string;
}

/**
 * The store's membership rule (`notTheRuns`) as Polars expressions, over
 * the columns the frame has, in the same order and with the same reasons.
 */
function rulesOf(
  m: RunMembership,
  columns: ReadonlySet<string>,
): Rule[] {
  const rules: Rule[] = [];
  const add = (needs: string[], ok: () => Expr, reason: string) => {
    if (needs.every((n) => columns.has(n))) {
      rules.push({ ok: ok(), needs, reason });
    }
  };
  if (m.run !== undefined) {
    const run = m.run;
    add(["run"], () => pl.col("run").eq(pl.lit(run)), NOT_THE_RUNS.run);
  }
  if (m.models !== undefined) {
    const models = [...m.models];
    add(["model"], () => pl.col("model").isIn(models), NOT_THE_RUNS.model);
  }
  if (m.samples !== undefined) {
    const samples = m.samples;
    add(
      ["sample"],
      () => pl.col("sample").gtEq(0).and(pl.col("sample").lt(samples)),
      NOT_THE_RUNS.sample,
    );
  }
  if (m.suiteTemplates !== undefined) {
    const pairs = [...m.suiteTemplates];
    add(
      ["suite", "template"],
      () =>
        pl.concatString([pl.col("suite"), pl.col("template")], "|").isIn(pairs),
      NOT_THE_RUNS.template,
    );
  }
  add(
    ["key", "model", "question_id", "template", "sample"],
    () =>
      pl.col("key").eq(
        pl.concatString([
          pl.col("model"),
          pl.col("question_id"),
          pl.col("template"),
          pl.col("sample").cast(pl.Utf8),
        ], "|"),
      ),
    NOT_THE_RUNS.key,
  );
  return rules;
}

/**
 * The rows of a run folder's frame that belong to the run its manifest
 * describes: its run id, its models, samples, suites and templates, a key
 * that its fields make, and each key once (the first row of a key counts,
 * as on resume). A rule whose columns or manifest field are absent is not
 * applied. The others are set aside with their row numbers, for the
 * report's warning.
 *
 * @param frame A run folder's rows, in file order.
 * @param manifest The run's parsed manifest, or null (then only repeated
 *   keys are set aside).
 * @param shown The results file, for the warning.
 * @returns The run's rows and what was set aside.
 */
export function ownRows(
  frame: DataFrame,
  manifest: Record<string, unknown> | null,
  shown: string,
): OwnRows {
  if (frame.height === 0) return { frame, setAside: 0, warning: null };
  const columns = new Set(frame.columns);
  const rules = rulesOf(runMembership(manifest), columns);
  const ROW = "__membership_row";
  let indexed = frame.withRowIndex(ROW);
  const tally = new Map<string, SetAside>();
  const setAsideWhere = (ok: Expr, reason: string) => {
    const out = indexed.filter(ok.not());
    if (out.height === 0) return;
    const first = out.getColumn(ROW).head(5).toArray().map((i) =>
      Number(i) + 1
    );
    tally.set(reason, { count: out.height, first });
    indexed = indexed.filter(ok);
  };
  // A value that is not there (a hand-written row without `run` or
  // `sample`) breaks no rule.
  for (const rule of rules) {
    const missing = rule.needs.map((c) => pl.col(c).isNull())
      .reduce((a, b) => a.or(b));
    setAsideWhere(rule.ok.fillNull(true).or(missing), rule.reason);
  }
  if (columns.has("key")) {
    setAsideWhere(pl.col("key").isFirstDistinct(), NOT_THE_RUNS.repeat);
  }
  const warning = setAsideWarning(shown, tally);
  if (warning === null) return { frame, setAside: 0, warning: null };
  return {
    frame: indexed.drop(ROW),
    setAside: [...tally.values()].reduce((n, t) => n + t.count, 0),
    warning,
  };
}
