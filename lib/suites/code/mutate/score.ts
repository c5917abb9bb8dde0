/**
 * Mutation scores of the problem bank: the share of the reference's
 * mutants that the problem's functional and edge tests kill.
 *
 * @module
 */
import { type CodeProblem, compareOutput, loadBank } from "../bank/mod.ts";
import {
  type CallResult,
  createSandbox,
  type Sandbox,
} from "../../../sandbox/mod.ts";
import { type BatchLimits, type JobRuns, runBatch } from "./_batch.ts";
import { EQUIVALENT_MUTANTS } from "./equivalent.ts";
import { jsMutants } from "./_js.ts";
import { pyMutants } from "./_py.ts";
import { type Mutant, spread } from "./_types.ts";

/** Languages the bank has references in. */
export type MutationLanguage = "python" | "javascript";

/** A mutant the tests did not kill. */
export interface SurvivingMutant {
  /** comparison, off_by_one, arithmetic, drop_return, negate_if or logical. */
  operator: string;
  /** 1-based line of the changed node in the reference. */
  line: number;
  /** 1-based column of the changed node in the reference. */
  column: number;
  /** Operator, change and location, e.g. "comparison < → <= at 4:7". */
  description: string;
  /** The changed lines of the regenerated program: `- before`, `+ after`. */
  diff: string;
  /** The mutated program (for review). */
  code: string;
}

/** A mutant listed in `EQUIVALENT_MUTANTS`: run, but not counted. */
export interface ListedEquivalent extends SurvivingMutant {
  /** Why no input can tell it from the reference (from the list). */
  reason: string;
  /** The tests killed it after all: the listing is wrong. */
  killed: boolean;
}

/** The mutation score of one problem's reference in one language. */
export interface MutationReport {
  /** Problem id. */
  problem: string;
  /** The reference's language. */
  language: MutationLanguage;
  /** Distinct mutants counted (after the cap; listed equivalents excluded). */
  mutants: number;
  /** Counted mutants the tests killed. */
  killed: number;
  /** killed / mutants (1 when there are no mutants). */
  score: number;
  /** Distinct mutants before the cap, listed equivalents excluded. */
  available: number;
  /** Counted mutants the tests did not kill, in source order. */
  survivors: SurvivingMutant[];
  /** Mutants of this problem and language in `EQUIVALENT_MUTANTS`. */
  equivalent: ListedEquivalent[];
  /** Sandbox requests used (1 unless a mutant killed its batch). */
  requests: number;
}

/** Options of `mutationScores`. */
export interface MutationOptions {
  /** Problem ids (default: the whole bank). */
  problems?: string[];
  /** Languages to score. @default ["javascript", "python"] */
  languages?: MutationLanguage[];
  /** Cap on mutants per problem and language (evenly spread over the program). @default 100 */
  maxMutants?: number;
  /** Cap for Python only (Python workers are slower). @default maxMutants */
  maxPythonMutants?: number;
  /**
   * CPU time one mutant may use on all the tests, at most, ms; it may use
   * `10 ×` its reference's CPU time, and never less than 100 ms
   * (JavaScript) or 250 ms (Python). A mutant that runs out is killed.
   * @default 1000
   */
  timeoutMs?: number;
  /**
   * Problems whose mutants share one sandbox request (a request costs a
   * process start, and ~1 s in Python). @default 12
   */
  problemsPerRequest?: number;
  /**
   * The sandbox to run in (default: a private one without warm workers,
   * closed at the end). Internal: `lib/sandbox` is not part of the
   * documented API, so only the project's own callers pass one.
   *
   * @internal
   */
  sandbox?: Sandbox;
  /** Problems from elsewhere (default: `loadBank()`). */
  bank?: CodeProblem[];
}

/** Default cap on mutants per problem and language. */
export const DEFAULT_MAX_MUTANTS = 100;

/** Default number of problems whose mutants share one sandbox request. */
export const DEFAULT_PROBLEMS_PER_REQUEST = 12;

function differs(
  p: CodeProblem,
  expected: unknown[],
  results: CallResult[],
): boolean {
  return p.tests.some((t, i) => {
    const got = results[i];
    return !got?.ok ||
      !compareOutput(expected[i], got.value, {
        rule: p.compare,
        args: t.args,
        checker: p.checker,
      });
  });
}

/** The mutants of one problem and language that a run covers. */
interface Plan {
  problem: CodeProblem;
  language: MutationLanguage;
  /** Counted mutants (after the cap), then the listed equivalents. */
  counted: Mutant[];
  equivalent: Mutant[];
  reasons: Map<string, string>;
  available: number;
}

function plan(
  p: CodeProblem,
  language: MutationLanguage,
  all: Mutant[],
  max: number,
): Plan {
  const reasons = new Map(
    EQUIVALENT_MUTANTS.filter((e) =>
      e.problem === p.id && e.language === language
    ).map((e) => [e.mutant, e.reason]),
  );
  const equivalent = all.filter((m) => reasons.has(m.description));
  return {
    problem: p,
    language,
    counted: spread(all.filter((m) => !reasons.has(m.description)), max),
    equivalent,
    reasons,
    available: all.length - equivalent.length,
  };
}

function view(m: Mutant): SurvivingMutant {
  return {
    operator: m.operator,
    line: m.line,
    column: m.column,
    description: m.description,
    diff: m.diff,
    code: m.code,
  };
}

function report(
  { problem: p, language, counted, equivalent, reasons, available }: Plan,
  runs: JobRuns,
  requests: number,
): MutationReport {
  const ref = runs.reference;
  const failed = ref.status === "ok"
    ? ref.results.find((x) => !x.ok)
    : undefined;
  if (ref.status !== "ok" || failed) {
    throw new Error(
      `Cannot score the mutants of ${p.id} (${language}): the reference itself fails (${
        ref.status !== "ok" ? ref.why : failed && !failed.ok ? failed.error : ""
      }); fix the reference first`,
    );
  }
  const expected = ref.results.map((x) => x.ok ? x.value : undefined);
  const verdicts = runs.mutants.map((run) =>
    run.status !== "ok" || differs(p, expected, run.results)
  );
  const survivors = counted.filter((_, i) => !verdicts[i]).map(view);
  const n = counted.length;
  const k = n - survivors.length;
  return {
    problem: p.id,
    language,
    mutants: n,
    killed: k,
    score: n === 0 ? 1 : k / n,
    available,
    survivors,
    equivalent: equivalent.map((m, i) => ({
      ...view(m),
      reason: reasons.get(m.description)!,
      killed: verdicts[n + i]!,
    })),
    requests,
  };
}

/** Runs plans of one language, `perRequest` problems per sandbox request. */
async function runPlans(
  sandbox: Sandbox,
  plans: Plan[],
  perRequest: number,
  limits: BatchLimits,
): Promise<MutationReport[]> {
  const chunks: Plan[][] = [];
  for (let i = 0; i < plans.length; i += perRequest) {
    chunks.push(plans.slice(i, i + perRequest));
  }
  const done = await Promise.all(chunks.map(async (chunk) => {
    const { runs, requests } = await runBatch(
      sandbox,
      chunk[0]!.language,
      chunk.map(({ problem: p, language, counted, equivalent }) => ({
        entry: p.entry[language],
        calls: p.tests.map((t) => t.args),
        reference: p.reference[language],
        mutants: [...counted, ...equivalent].map((m) => m.code),
      })),
      limits,
    );
    return chunk.map((pl, i) => report(pl, runs[i]!, requests));
  }));
  return done.flat();
}

/**
 * Runs mutants of every problem's reference solutions against the
 * problem's functional and edge tests in the sandbox and reports the share
 * killed. JavaScript mutants come from acorn + astring, Python mutants from
 * Python's `ast` inside the sandbox; operators: flipped comparisons,
 * off-by-one integer bounds, swapped arithmetic/bitwise operators, dropped
 * early returns, negated `if` conditions, `&&`↔`||`. A mutant is killed
 * when an output differs from the reference's under the problem's compare
 * rule, or it errors or times out.
 *
 * @param options Problems, languages, caps, the per-mutant timeout.
 * @returns One report per problem and language, in bank order.
 * @throws {RangeError} When a problem id is not in the bank.
 * @throws {Error} When a reference itself fails its tests.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { mutationScores } from "./mod.ts";
 * const [r] = await mutationScores({
 *   problems: ["mod_pow"],
 *   languages: ["javascript"],
 *   maxMutants: 4,
 * });
 * assert.equal(r!.problem, "mod_pow");
 * assert.equal(r!.mutants, 4);
 * assert.equal(r!.killed + r!.survivors.length, r!.mutants);
 * ```
 */
export async function mutationScores(
  options: MutationOptions = {},
): Promise<MutationReport[]> {
  const bank = options.bank ?? await loadBank();
  const languages = options.languages ?? ["javascript", "python"];
  const max = options.maxMutants ?? DEFAULT_MAX_MUTANTS;
  const maxPy = options.maxPythonMutants ?? max;
  const timeoutMs = options.timeoutMs ?? 1000;
  const perRequest = options.problemsPerRequest ??
    DEFAULT_PROBLEMS_PER_REQUEST;
  for (
    const [name, v, least] of [
      ["maxMutants", max, 0],
      ["maxPythonMutants", maxPy, 0],
      ["problemsPerRequest", perRequest, 1],
    ] as const
  ) {
    if (!Number.isInteger(v) || v < least) {
      throw new RangeError(
        `Cannot run mutation testing: ${name} must be an integer of at least ${least}, got ${v}`,
      );
    }
  }
  if (!Number.isFinite(timeoutMs) || timeoutMs <= 0) {
    throw new RangeError(
      `Cannot run mutation testing: timeoutMs must be a positive number, got ${timeoutMs}`,
    );
  }
  let problems = bank;
  if (options.problems) {
    const byId = new Map(bank.map((p) => [p.id, p]));
    problems = options.problems.map((id) => {
      const p = byId.get(id);
      if (!p) {
        throw new RangeError(
          `Cannot run mutation testing: no problem "${id}" in the bank; use one of ${
            [...byId.keys()].join(", ")
          }`,
        );
      }
      return p;
    });
  }
  // Few, long requests: warm spare workers would only burn CPU (a Python
  // one restores Pyodide) beside them.
  const sandbox = options.sandbox ?? createSandbox({ warm: 0 });
  try {
    const runs: Promise<MutationReport[]>[] = [];
    if (languages.includes("python")) {
      runs.push((async () => {
        const sources = problems.map((p) => p.reference.python);
        const mutants = await pyMutants(sandbox, sources);
        return await runPlans(
          sandbox,
          problems.map((p, i) => plan(p, "python", mutants[i]!, maxPy)),
          perRequest,
          {
            capMs: timeoutMs,
            floorMs: Math.min(timeoutMs, 250),
            factor: 10,
          },
        );
      })());
    }
    if (languages.includes("javascript")) {
      runs.push(runPlans(
        sandbox,
        problems.map((p) =>
          plan(p, "javascript", jsMutants(p.reference.javascript), max)
        ),
        perRequest,
        { capMs: timeoutMs, floorMs: Math.min(timeoutMs, 100), factor: 10 },
      ));
    }
    const reports = (await Promise.all(runs)).flat();
    const order = new Map(problems.map((p, i) => [p.id, i]));
    return reports.sort((a, b) =>
      order.get(a.problem)! - order.get(b.problem)! ||
      a.language.localeCompare(b.language)
    );
  } finally {
    if (!options.sandbox) await sandbox.close();
  }
}
