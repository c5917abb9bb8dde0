/**
 * HumanEval: a loader for `HumanEval.jsonl(.gz)` and a runner that executes
 * a completion against the problem's own `check()` in the Python sandbox.
 *
 * @module
 */
import { defaultSandbox, type Sandbox } from "./sandbox.ts";

/** One HumanEval problem, as published. */
export interface HumanEvalProblem {
  /** The problem's id, e.g. "HumanEval/0". */
  task_id: string;
  /** The function's signature and docstring, as the model sees it. */
  prompt: string;
  /** The published solution's body. */
  canonical_solution: string;
  /** The test code defining `check(candidate)`. */
  test: string;
  /** The function `check` is called with. */
  entry_point: string;
}

/** Where the project keeps HumanEval. */
export const HUMANEVAL_PATH: URL = new URL(
  "../../data/humaneval/HumanEval.jsonl.gz",
  import.meta.url,
);

/**
 * Reads HumanEval problems from a `.jsonl` or gzipped `.jsonl.gz` file.
 *
 * @param path The file; the project's copy by default.
 * @returns The problems in file order.
 * @throws {SyntaxError} When a line is not JSON or lacks a field.
 * @throws {Deno.errors.NotFound} When the file does not exist.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { loadHumanEval } from "./mod.ts";
 * const problems = await loadHumanEval();
 * assert.equal(problems.length, 164);
 * assert.equal(problems[0]!.task_id, "HumanEval/0");
 * ```
 */
export async function loadHumanEval(
  path: string | URL = HUMANEVAL_PATH,
): Promise<HumanEvalProblem[]> {
  const file = await Deno.open(path);
  const name = typeof path === "string" ? path : path.pathname;
  const stream = name.endsWith(".gz")
    ? file.readable.pipeThrough(new DecompressionStream("gzip"))
    : file.readable;
  const text = await new Response(stream).text();
  const out: HumanEvalProblem[] = [];
  const fields = [
    "task_id",
    "prompt",
    "canonical_solution",
    "test",
    "entry_point",
  ] as const;
  text.split("\n").forEach((line, i) => {
    if (!line.trim()) return;
    let row: Record<string, unknown>;
    try {
      row = JSON.parse(line);
    } catch (e) {
      throw new SyntaxError(
        `Cannot read HumanEval: line ${i + 1} of ${name} is not JSON (${
          (e as Error).message
        }); use the published HumanEval.jsonl(.gz)`,
      );
    }
    for (const f of fields) {
      if (typeof row[f] !== "string") {
        throw new SyntaxError(
          `Cannot read HumanEval: line ${
            i + 1
          } of ${name} has no string "${f}"; use the published HumanEval.jsonl(.gz)`,
        );
      }
    }
    out.push(row as unknown as HumanEvalProblem);
  });
  return out;
}

/**
 * The program HumanEval runs for a completion: `prompt + completion + "\n"
 * + test` (the runner then calls `check(entry_point)` itself, so it can
 * guard the candidate).
 *
 * @param problem The problem.
 * @param completion The function body the model wrote.
 * @returns Python source.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { humanEvalProgram } from "./mod.ts";
 * const p = { task_id: "t", prompt: "def f():\n", canonical_solution: "", test: "def check(c):\n    assert c() == 1\n", entry_point: "f" };
 * assert.equal(humanEvalProgram(p, "    return 1\n"), "def f():\n    return 1\n\ndef check(c):\n    assert c() == 1\n\n");
 * ```
 */
export function humanEvalProgram(
  problem: HumanEvalProblem,
  completion: string,
): string {
  return problem.prompt + completion + "\n" + problem.test + "\n";
}

/** Options of `runHumanEval`. */
export interface HumanEvalOptions {
  /** The sandbox to use; the default one otherwise. */
  sandbox?: Sandbox;
  /** Programs per worker batch (batches run in parallel). @default 41 */
  batchSize?: number;
  /**
   * Wrap the candidate so `check()` sees its return values only as plain
   * data (an always-equal object fails). @default true
   */
  guard?: boolean;
  /** Wall time per batch. @default 60000 */
  timeoutMs?: number;
}

/** Outcome of one problem. */
export interface HumanEvalOutcome {
  /** The problem's id. */
  task_id: string;
  /** Whether `check` passed. */
  passed: boolean;
  /** The failure (assertion, exception, timeout), empty when passed. */
  error: string;
}

/**
 * Runs completions against their problems' own `check()` in the Python
 * sandbox: for each, `prompt + completion + "\n" + test` is executed in a
 * fresh globals dict, then `check(entry)` is called (with the guard, see
 * the module doc of `mod.ts`).
 *
 * @param problems The problems.
 * @param completions One completion (function body) per problem, or a
 * function giving it.
 * @param options Sandbox, batch size, guard, timeout.
 * @returns One outcome per problem, in order.
 * @throws {RangeError} When the counts differ or batchSize is not positive.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { createSandbox, loadHumanEval, runHumanEval } from "./mod.ts";
 * const [p0] = await loadHumanEval();
 * const sandbox = createSandbox({ warm: 0 });
 * const out = await runHumanEval([p0!, p0!], [p0!.canonical_solution, "    pass\n"], { sandbox });
 * await sandbox.close();
 * assert.deepEqual(out.map((o) => o.passed), [true, false]);
 * ```
 */
export async function runHumanEval(
  problems: HumanEvalProblem[],
  completions: string[] | ((problem: HumanEvalProblem) => string),
  options: HumanEvalOptions = {},
): Promise<HumanEvalOutcome[]> {
  const { batchSize = 41, guard = true, timeoutMs = 60_000 } = options;
  const sandbox = options.sandbox ?? defaultSandbox();
  const texts = typeof completions === "function"
    ? problems.map(completions)
    : completions;
  if (texts.length !== problems.length) {
    throw new RangeError(
      `Cannot run HumanEval: ${problems.length} problems but ${texts.length} completions; give one completion per problem`,
    );
  }
  if (!Number.isInteger(batchSize) || batchSize < 1) {
    throw new RangeError(
      `Cannot run HumanEval: batchSize must be a positive integer, got ${batchSize}`,
    );
  }
  const batches: number[][] = [];
  for (let i = 0; i < problems.length; i += batchSize) {
    batches.push(
      Array.from(
        { length: Math.min(batchSize, problems.length - i) },
        (_, k) => i + k,
      ),
    );
  }
  const out: HumanEvalOutcome[] = new Array(problems.length);
  await Promise.all(batches.map(async (idx) => {
    const r = await sandbox.runPrograms({
      programs: idx.map((i) => ({
        code: humanEvalProgram(problems[i]!, texts[i]!),
        entry: problems[i]!.entry_point,
      })),
      guard,
      timeoutMs,
    });
    idx.forEach((i, k) => {
      const res = r.results[k];
      out[i] = {
        task_id: problems[i]!.task_id,
        passed: res?.ok === true,
        error: res ? (res.ok ? "" : res.error || "failed") : "not run",
      };
    });
  }));
  return out;
}
