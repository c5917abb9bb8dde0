/**
 * Mutation scores of the problem bank: the share of the reference's
 * mutants that the problem's functional and edge tests kill.
 *
 * @module
 */
import { type CodeProblem, compareOutput, loadBank } from "../bank/mod.ts";
import {
  createSandbox,
  type RunResult,
  type Sandbox,
} from "../../../sandbox/mod.ts";
import { jsMutants } from "./_js.ts";
import { PY_BATCH, pyMutants } from "./_py.ts";
import { type Mutant, spread } from "./_types.ts";

/** Languages the bank has references in. */
export type MutationLanguage = "python" | "javascript";

/** A mutant the tests did not kill. */
export interface SurvivingMutant {
  operator: string;
  line: number;
  column: number;
  /** Operator, change and location, e.g. "comparison < → <= at 4:7". */
  description: string;
  /** The mutated program (for review). */
  code: string;
}

/** The mutation score of one problem's reference in one language. */
export interface MutationReport {
  problem: string;
  language: MutationLanguage;
  /** Distinct mutants run (after the cap). */
  mutants: number;
  killed: number;
  /** killed / mutants (1 when there are no mutants). */
  score: number;
  /** Distinct mutants before the cap. */
  available: number;
  survivors: SurvivingMutant[];
}

/** Options of `mutationScores`. */
export interface MutationOptions {
  /** Problem ids (default: the whole bank). */
  problems?: string[];
  /** @default ["javascript", "python"] */
  languages?: MutationLanguage[];
  /** Cap on mutants per problem and language (spread over the program). @default 40 */
  maxMutants?: number;
  /** Cap for Python only (Python workers are slower). @default maxMutants */
  maxPythonMutants?: number;
  /** Wall time of one mutant's run, ms; a mutant that takes longer is killed. @default 2000 */
  timeoutMs?: number;
  /** The sandbox to run in (default: a private one, closed at the end). */
  sandbox?: Sandbox;
  /** Problems from elsewhere (default: `loadBank()`). */
  bank?: CodeProblem[];
}

/** Default cap on mutants per problem and language. */
export const DEFAULT_MAX_MUTANTS = 40;

function why(r: RunResult): string {
  const failed = r.results.find((x) => !x.ok);
  return r.error ?? (failed && !failed.ok ? failed.error : r.status);
}

async function expectedOutputs(
  sandbox: Sandbox,
  p: CodeProblem,
  language: MutationLanguage,
): Promise<unknown[]> {
  const r = await sandbox.runCode({
    language,
    code: p.reference[language],
    entry: p.entry[language],
    calls: p.tests.map((t) => t.args),
  });
  if (r.status !== "ok" || r.results.some((x) => !x.ok)) {
    throw new Error(
      `Cannot score the mutants of ${p.id} (${language}): the reference itself fails (${
        why(r)
      }); fix the reference first`,
    );
  }
  return r.results.map((x) => x.ok ? x.value : undefined);
}

async function killed(
  sandbox: Sandbox,
  p: CodeProblem,
  language: MutationLanguage,
  mutant: Mutant,
  expected: unknown[],
  timeoutMs: number,
): Promise<boolean> {
  const r = await sandbox.runCode({
    language,
    code: mutant.code,
    entry: p.entry[language],
    calls: p.tests.map((t) => t.args),
    timeoutMs,
  });
  if (r.status !== "ok") return true;
  return differs(p, expected, r.results);
}

function differs(
  p: CodeProblem,
  expected: unknown[],
  results: RunResult["results"],
): boolean {
  return p.tests.some((t, i) => {
    const got = results[i];
    return !got?.ok ||
      !compareOutput(p.compare, t.args, expected[i], got.value, p.checker);
  });
}

/**
 * Python mutants of one problem in one request (a Python worker costs
 * ~0.3–1 s to restore, so one request per mutant would take minutes for
 * the bank): the trusted harness runs each mutant in a fresh namespace and
 * returns its outputs. When the batch does not finish (a mutant loops,
 * crashes the worker or returns a value that cannot cross), each mutant
 * gets its own request, as in JavaScript.
 */
async function pyBatch(
  sandbox: Sandbox,
  p: CodeProblem,
  mutants: Mutant[],
  timeoutMs: number,
): Promise<boolean[]> {
  if (mutants.length === 0) return [];
  const calls = p.tests.map((t) => t.args);
  // The reference goes first: its outputs are the expected ones.
  const r = await sandbox.runCode({
    language: "python",
    code: PY_BATCH,
    entry: "run_mutants",
    calls: [[
      [p.reference.python, ...mutants.map((m) => m.code)],
      p.entry.python,
      calls,
    ]],
    timeoutMs: timeoutMs + 300 * mutants.length,
  });
  const first = r.results[0];
  const rows = r.status === "ok" && first?.ok && Array.isArray(first.value)
    ? (first.value as unknown[]).map((row) =>
      Array.isArray(row)
        ? (row as [boolean, unknown][]).map(([ok, value]) =>
          ok
            ? { ok: true as const, value: value as never, ms: 0 }
            : { ok: false as const, error: String(value) }
        )
        : undefined
    )
    : undefined;
  const reference = rows?.[0];
  if (rows && reference && reference.every((x) => x.ok)) {
    const expected = reference.map((x) => x.ok ? x.value : undefined);
    // A mutant that does not load is killed.
    return mutants.map((_, i) => {
      const results = rows[i + 1];
      return !results || differs(p, expected, results);
    });
  }
  const expected = await expectedOutputs(sandbox, p, "python");
  return await Promise.all(
    mutants.map((m) => killed(sandbox, p, "python", m, expected, timeoutMs)),
  );
}

async function scoreOne(
  sandbox: Sandbox,
  p: CodeProblem,
  language: MutationLanguage,
  all: Mutant[],
  max: number,
  timeoutMs: number,
): Promise<MutationReport> {
  const chosen = spread(all, max);
  let verdicts: boolean[];
  if (language === "python") {
    verdicts = await pyBatch(sandbox, p, chosen, timeoutMs);
  } else {
    const expected = await expectedOutputs(sandbox, p, language);
    verdicts = await Promise.all(
      chosen.map((m) => killed(sandbox, p, language, m, expected, timeoutMs)),
    );
  }
  const survivors = chosen.filter((_, i) => !verdicts[i]).map((m) => ({
    operator: m.operator,
    line: m.line,
    column: m.column,
    description: m.description,
    code: m.code,
  }));
  const n = chosen.length;
  const k = n - survivors.length;
  return {
    problem: p.id,
    language,
    mutants: n,
    killed: k,
    score: n === 0 ? 1 : k / n,
    available: all.length,
    survivors,
  };
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
  const timeoutMs = options.timeoutMs ?? 2000;
  for (
    const [name, v] of [["maxMutants", max], [
      "maxPythonMutants",
      maxPy,
    ]] as const
  ) {
    if (!Number.isInteger(v) || v < 0) {
      throw new RangeError(
        `Cannot run mutation testing: ${name} must be a non-negative integer, got ${v}`,
      );
    }
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
  const sandbox = options.sandbox ?? createSandbox();
  try {
    const jobs: Promise<MutationReport>[] = [];
    if (languages.includes("python")) {
      const sources = problems.map((p) => p.reference.python);
      const mutants = await pyMutants(sandbox, sources);
      problems.forEach((p, i) =>
        jobs.push(
          scoreOne(sandbox, p, "python", mutants[i]!, maxPy, timeoutMs),
        )
      );
    }
    if (languages.includes("javascript")) {
      for (const p of problems) {
        jobs.push(
          scoreOne(
            sandbox,
            p,
            "javascript",
            jsMutants(p.reference.javascript),
            max,
            timeoutMs,
          ),
        );
      }
    }
    const reports = await Promise.all(jobs);
    const order = new Map(problems.map((p, i) => [p.id, i]));
    return reports.sort((a, b) =>
      order.get(a.problem)! - order.get(b.problem)! ||
      a.language.localeCompare(b.language)
    );
  } finally {
    if (!options.sandbox) await sandbox.close();
  }
}
