/**
 * Which stored rows are a run's own, by what its manifest says: its run
 * id, its models, samples, suites and templates, and a key that the row's
 * fields make. Every reader that counts rows (the report's loader, the
 * sweep's closing table) applies this one rule, so a number is never
 * computed over rows that are not the run's. (A resumed sweep checks more:
 * the questions of its plan, which it has loaded.)
 *
 * @module
 */
import { identityOf } from "./identity.ts";

/** What a run's manifest says its rows may be. Absent: not checked. */
export interface RunMembership {
  /** The run id every row carries. */
  run?: string;
  /** The model names of the run. */
  models?: ReadonlySet<string>;
  /** Samples per question: a row's `sample` is below it. */
  samples?: number;
  /** `suite|template` pairs the run plans (from its identity). */
  suiteTemplates?: ReadonlySet<string>;
}

/**
 * The reasons a row is not its run's, in the order they are checked (the
 * report words its warning with them).
 */
export const NOT_THE_RUNS = {
  run: "rows of another run",
  model: "rows of a model the run does not have",
  sample: "rows of a sample the run does not plan",
  template: "rows of a suite or template the run does not plan",
  key: "rows whose key is not the one their fields make",
  repeat: "rows repeating a key of an earlier row",
} as const;

/**
 * Reads what a parsed manifest says a run's rows may be; a field the
 * manifest lacks (an old or hand-made one) is not checked.
 *
 * @param manifest A parsed `manifest.json`, or null.
 * @returns The membership rule's facts.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { runMembership } from "./membership.ts";
 * const m = runMembership({ run: "r", config: { models: [{ name: "a" }], samples: 2 } });
 * assert.equal(m.run, "r");
 * assert.deepEqual([...m.models!], ["a"]);
 * assert.deepEqual(runMembership(null), {});
 * ```
 */
export function runMembership(manifest: unknown): RunMembership {
  if (typeof manifest !== "object" || manifest === null) return {};
  const m = manifest as Record<string, unknown>;
  const out: RunMembership = {};
  if (typeof m.run === "string") out.run = m.run;
  const config = m.config as Record<string, unknown> | undefined;
  const models = Array.isArray(config?.models)
    ? (config.models as { name?: unknown }[]).map((x) => x?.name)
      .filter((n): n is string => typeof n === "string")
    : [];
  if (models.length > 0) out.models = new Set(models);
  if (typeof config?.samples === "number") out.samples = config.samples;
  const identity = identityOf(manifest);
  if (identity !== null) {
    out.suiteTemplates = new Set(
      identity.suites.flatMap((s) => s.templates.map((t) => `${s.suite}|${t}`)),
    );
  }
  return out;
}

/** The fields of a row the rule reads. */
export interface MembershipFields {
  /** `model|question_id|template|sample`. */
  key?: unknown;
  /** The run id the row carries. */
  run?: unknown;
  /** The model's name. */
  model?: unknown;
  /** The suite's name. */
  suite?: unknown;
  /** The question's id. */
  question_id?: unknown;
  /** The template's id. */
  template?: unknown;
  /** The sample index. */
  sample?: unknown;
}

/**
 * Why a row is not its run's (one of {@linkcode NOT_THE_RUNS} but
 * `repeat`), or null when it is. A field the row lacks (null or absent)
 * breaks no rule: hand-written rows may leave fields out.
 *
 * @param row The row's fields.
 * @param membership What the run's manifest says (see {@linkcode runMembership}).
 * @returns The reason, or null.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { notTheRuns, runMembership } from "./membership.ts";
 * const m = runMembership({ run: "r", config: { models: [{ name: "a" }], samples: 1 } });
 * const row = { key: "a|q|t|0", run: "r", model: "a", question_id: "q", template: "t", sample: 0 };
 * assert.equal(notTheRuns(row, m), null);
 * assert.equal(notTheRuns({ ...row, run: "other" }, m), "rows of another run");
 * assert.equal(notTheRuns({ ...row, key: "a|q|t|1" }, m), "rows whose key is not the one their fields make");
 * assert.equal(notTheRuns({ key: "x" }, m), null);
 * ```
 */
export function notTheRuns(
  row: MembershipFields,
  membership: RunMembership,
): string | null {
  const there = (v: unknown) => v !== null && v !== undefined;
  const { run, models, samples, suiteTemplates } = membership;
  if (run !== undefined && there(row.run) && row.run !== run) {
    return NOT_THE_RUNS.run;
  }
  if (models !== undefined && there(row.model) && !models.has(`${row.model}`)) {
    return NOT_THE_RUNS.model;
  }
  if (
    samples !== undefined && typeof row.sample === "number" &&
    !(row.sample >= 0 && row.sample < samples)
  ) return NOT_THE_RUNS.sample;
  if (
    suiteTemplates !== undefined && there(row.suite) && there(row.template) &&
    !suiteTemplates.has(`${row.suite}|${row.template}`)
  ) return NOT_THE_RUNS.template;
  if (
    [row.key, row.model, row.question_id, row.template, row.sample].every(
      there,
    ) &&
    row.key !==
      `${row.model}|${row.question_id}|${row.template}|${row.sample}`
  ) return NOT_THE_RUNS.key;
  return null;
}

/** Rows set aside for one reason: how many, and the first few row numbers (1-based). */
export interface SetAside {
  /** Rows set aside for it. */
  count: number;
  /** The first few, as row numbers (1-based, in file order). */
  first: number[];
}

/**
 * Counts rows set aside by reason, keeping the first five row numbers of
 * each (for {@linkcode setAsideWarning}).
 *
 * @param tally The counts so far (changed in place).
 * @param row `reason`, why the row is set aside, and `row`, its 1-based
 *   number in the file.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { countSetAside, type SetAside } from "./membership.ts";
 * const tally = new Map<string, SetAside>();
 * countSetAside(tally, { reason: "rows of another run", row: 3 });
 * assert.deepEqual(tally.get("rows of another run"), { count: 1, first: [3] });
 * ```
 */
export function countSetAside(
  tally: Map<string, SetAside>,
  { reason, row }: { reason: string; row: number },
): void {
  const entry = tally.get(reason) ?? { count: 0, first: [] };
  entry.count++;
  if (entry.first.length < 5) entry.first.push(row);
  tally.set(reason, entry);
}

/**
 * The one wording of rows set aside from a count (the report's warning,
 * the sweep's closing table), or null when none were.
 *
 * @param shown The results file.
 * @param tally Rows set aside by reason.
 * @returns The warning, or null.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { setAsideWarning } from "./membership.ts";
 * const tally = new Map([["rows of another run", { count: 6, first: [1, 2, 3, 4, 5] }]]);
 * assert.equal(
 *   setAsideWarning("r/results.jsonl", tally),
 *   "r/results.jsonl: 6 row(s) set aside, counted in no result: rows of another run: 6 (row 1, 2, 3, 4, 5, ...)",
 * );
 * assert.equal(setAsideWarning("x", new Map()), null);
 * ```
 */
export function setAsideWarning(
  shown: string,
  tally: ReadonlyMap<string, SetAside>,
): string | null {
  let total = 0;
  const clauses: string[] = [];
  for (const [reason, { count, first }] of tally) {
    total += count;
    clauses.push(
      `${reason}: ${count} (row ${first.join(", ")}${
        count > first.length ? ", ..." : ""
      })`,
    );
  }
  return total === 0
    ? null
    : `${shown}: ${total} row(s) set aside, counted in no result: ${
      clauses.join("; ")
    }`;
}
