/**
 * Judging a bank candidate in the sandbox: the program loads once for its
 * functional tests, edge tests and the large input (one request; the
 * large input is timed as the least CPU time per call of its samples,
 * each on a fresh copy of its arguments, with its own time limit: see
 * `LARGE_REPEATS`), the reference is timed the same way on the same large
 * input, and functionally correct code has its complexity measured (see
 * below). The perf ratio: on every backend the reference's samples take
 * turns with the candidate's on one CPU (a `TimingPair`), both timed by
 * the parent from the kernel's account of each worker's CPU time, and the
 * ratio is the median of the per-sample ratios. Complexity is measured in a fresh worker,
 * not in the candidate's own, after its large
 * input: a JavaScript JIT stays tuned to that input (unpaired_value's XOR
 * loop then ran 20× slower from n = 2,048 on and was measured O(n²), 3
 * times of 3; fresh: O(n)), and for native Python the saved process start
 * did not show in the bank sweep (164.5 s against 160–174 s).
 * Outputs are compared here, in the parent, with the problem's
 * rule. The result is plain data, so identical programs can be judged
 * once (`verdicts.ts`).
 *
 * @module
 */
import type { DimValue } from "../../types.ts";
import {
  pairedRatio,
  type PreparedArgs,
  type RunResult,
  type Sandbox,
  type TimedCallRequest,
  TimingPair,
} from "../../sandbox/mod.ts";
import {
  type CodeProblem,
  compareOutput,
  COMPLEXITY_CLASSES,
  type ComplexityClass,
} from "./bank/mod.ts";
import { PreparedInputs } from "./_inputs.ts";
import type { CodeLanguage } from "./params.ts";

/** What judging a bank candidate found (JSON data). */
export interface BankJudgement {
  status: "correct" | "wrong";
  errorClass?: string;
  explanation: string;
  /** The verdict's metrics (see `scoreCode`). */
  metrics: Record<string, DimValue>;
}

/** What `judgeBank` needs besides the program. */
export interface BankJudgeOptions {
  sandbox: Sandbox;
  problem: CodeProblem;
  language: CodeLanguage;
  /** The reference's outputs on every test, in test order. */
  expected: readonly unknown[];
  inputSeed: number;
  timeoutMs: number;
  memoryMb: number;
  complexity: boolean;
  /**
   * The run's large inputs, kept for the problem's next candidates.
   * @default a fresh set (nothing kept)
   */
  inputs?: PreparedInputs;
}

/**
 * The large input's timing, for candidates and the reference alike: after
 * the call that gives the value, `LARGE_REPEATS` samples of as many calls
 * as take `LARGE_SAMPLE_MS` of CPU time each; the time is the least time
 * per call of a sample.
 *
 * Many short samples rather than a few long ones: the least of them is a
 * stretch of calls that no collection or tier-up fell into, so the time
 * is nearer the program's own speed (a fixed JavaScript program,
 * squares_sorted by map and sort: 2.0–3.1 ms per call, where 5 samples of
 * 25 ms gave 4.3–5.6 ms). It did not make the ratio reliably steadier
 * between processes on this 2-core VM: one quiet set of 5 processes gave a
 * spread of 6.8 % (5 × 25 ms: 31 %), later sets 43 % and 83 % (5 × 25 ms,
 * interleaved: 54 %); Python 6.1 % and 20 % (5 × 25 ms: 8.3 %).
 *
 * In Python the samples stop past the third once they took
 * `LARGE_CPU_BUDGET_MS` of CPU time (2 × 16 × 8 ms) and the last was not
 * 5 % faster than the best before it: a call of 16 ms or less gets all 16
 * samples, a slower one as many as fit, at least 3. three_sum_gap's
 * reference, 56 ms per call, now takes 5 samples where it took 16 (1.0 s
 * of CPU); over 5 processes its least time spread 2.4 % (16 samples:
 * 8.4 %), merge_ranges' (17 ms, 12 samples) 24 % (16 samples: 24 %, the
 * machine's noise). Not in JavaScript: its calls keep getting faster for
 * tens of calls (a heap growing, code tiering up) after a plateau the 5 %
 * rule cannot see past (bfs_distances' reference: 31.7 ms per call after
 * 3 samples, 7.4 ms after 20).
 */
export const LARGE_REPEATS = 16;
/**
 * The samples of a paired timing (the candidate's and the reference's in
 * turns on one CPU, see `TimingPair`, on every backend), whose perf ratio
 * is the median of the per-sample ratios. Fewer suffice there: a fixed
 * program (squares_sorted, a slower correct version) judged in 12
 * processes gave perf ratios with a spread of 9.2 % (sd 3.0 %) from 16
 * samples and 7.5 % (sd 1.9 %) from 8, the ratio of the least times of
 * the same samples 36 % (sd 7.2 %); a judging took 480 ms instead of 660.
 */
export const PAIRED_LARGE_REPEATS = 8;
/** See {@linkcode LARGE_REPEATS}. */
export const LARGE_SAMPLE_MS = 8;
/** See {@linkcode LARGE_REPEATS}. */
export const LARGE_CPU_BUDGET_MS = 2 * LARGE_REPEATS * LARGE_SAMPLE_MS;

/**
 * The large input's timing as candidates and the reference get it (it is
 * the call after the tests): the samples above, no more once the calls
 * took the problem's time limit, the CPU budget in Python only.
 */
function largeTiming(
  problem: CodeProblem,
  language: CodeLanguage,
): TimedCallRequest {
  return {
    call: problem.tests.length,
    repeats: PAIRED_LARGE_REPEATS,
    sampleMs: LARGE_SAMPLE_MS,
    cpuBudgetMs: language === "python" ? LARGE_CPU_BUDGET_MS : 0,
    budgetMs: problem.large.timeLimitMs,
  };
}

/**
 * Whether a measured class meets a required one (n log n counts for n:
 * see the sandbox's note on what timing can separate), and whether it is
 * at least as good (optimal).
 *
 * @param measured The class the sandbox measured (`"unknown"` never meets).
 * @param required The problem's required class.
 * @returns `met` and `optimal`.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { meetsComplexity } from "./judge.ts";
 * assert.deepEqual(meetsComplexity("O(n log n)", "O(n)"), { met: true, optimal: false });
 * assert.deepEqual(meetsComplexity("O(log n)", "O(n)"), { met: true, optimal: true });
 * assert.deepEqual(meetsComplexity("O(n^2)", "O(n)"), { met: false, optimal: false });
 * assert.deepEqual(meetsComplexity("unknown", "O(n)"), { met: false, optimal: false });
 * ```
 */
export function meetsComplexity(
  measured: string,
  required: ComplexityClass,
): { met: boolean; optimal: boolean } {
  const order = COMPLEXITY_CLASSES as readonly string[];
  const m = order.indexOf(measured);
  const r = order.indexOf(required);
  if (m < 0 || r < 0) return { met: false, optimal: false };
  const nearN = required === "O(n)" && measured === "O(n log n)";
  return { met: m <= r || nearN, optimal: m <= r };
}

/** The reference's time and output on the largest large input. */
interface ReferenceLarge {
  bestMs: number;
  value: unknown;
  /** Each sample's time per call (see `CallResult.samplesMs`). */
  samplesMs?: number[];
}

/**
 * The reference on the largest large input, timed as candidates are (same
 * backend, the least time per call of its samples), its samples in turns
 * with the candidate's (started synchronously, so the candidate's request
 * can join the pair right after).
 */
function timeReference(
  options: BankJudgeOptions,
  args: PreparedArgs,
  pair: TimingPair,
): Promise<ReferenceLarge | null> {
  const { sandbox, problem, language } = options;
  // The tests first, as for a candidate: the same warm-up before the
  // timed runs (a JIT's tier depends on what ran before).
  return sandbox.runCode({
    language,
    code: problem.reference[language],
    entry: problem.entry[language],
    calls: [...problem.tests.map((t) => t.args), args],
    timed: [largeTiming(problem, language)],
    timeoutMs: Math.max(30_000, problem.large.timeLimitMs * 10),
    memoryMb: 512,
    pair,
  }).then((r) => {
    const c = r.results.at(-1);
    return r.status === "ok" && c?.ok
      ? {
        bestMs: c.bestMs ?? c.ms,
        value: c.value,
        ...(c.samplesMs ? { samplesMs: c.samplesMs } : {}),
      }
      : null;
  });
}

/** Characters of the candidate's stderr a row keeps. */
const STDERR_KEPT = 2_000;
/** Failing tests a row describes, and characters of each returned value. */
const FAILING_KEPT = 5;
const VALUE_KEPT = 300;

/**
 * The first failing tests as JSON text: `[{"test": i, "returned": <value
 * as JSON, capped>}` or `{"test": i, "error": "..."}]`; null when every
 * test passes.
 */
function failingTests(run: RunResult, pass: readonly boolean[]): string | null {
  const out: Record<string, unknown>[] = [];
  for (let i = 0; i < pass.length && out.length < FAILING_KEPT; i++) {
    if (pass[i]) continue;
    const got = run.results[i];
    if (got === undefined) {
      out.push({ test: i, error: `no result (${run.status})` });
    } else if (!got.ok) {
      out.push({ test: i, error: got.error.slice(0, VALUE_KEPT) });
    } else {
      let text: string;
      try {
        text = JSON.stringify(got.value) ?? String(got.value);
      } catch {
        text = String(got.value);
      }
      out.push({ test: i, returned: text.slice(0, VALUE_KEPT) });
    }
  }
  return out.length === 0 ? null : JSON.stringify(out);
}

function failureClass(run: RunResult, testsAnswered: boolean): string {
  return run.status === "ok" || testsAnswered ? "wrong_answer" : run.status;
}

/**
 * Judges one bank candidate: tests, large input, complexity.
 *
 * @param code The candidate program.
 * @param entry The function to call.
 * @param options The problem, sandbox and limits.
 * @returns The judgement (never throws for a bad candidate).
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { closeSandbox, createSandbox } from "../../sandbox/mod.ts";
 * import { loadBank } from "./bank/mod.ts";
 * import { referenceOutputsOn } from "./_expected.ts";
 * import { judgeBank } from "./judge.ts";
 * const problem = (await loadBank()).find((p) => p.id === "max_window_sum")!;
 * const sandbox = createSandbox({ warm: 0 });
 * const expected = await referenceOutputsOn(problem, sandbox);
 * const j = await judgeBank(problem.reference.javascript, problem.entry.javascript, {
 *   sandbox, problem, language: "javascript", expected, inputSeed: 1,
 *   timeoutMs: 10_000, memoryMb: 256, complexity: false,
 * });
 * await sandbox.close();
 * await closeSandbox();
 * assert.equal(j.status, "correct");
 * assert.equal(j.metrics.large_pass, true);
 * ```
 */
export async function judgeBank(
  code: string,
  entry: string,
  options: BankJudgeOptions,
): Promise<BankJudgement> {
  const { sandbox, problem, language, expected, inputSeed } = options;
  const inputs = options.inputs ?? new PreparedInputs();
  const metrics: Record<string, DimValue> = {};
  const tests = problem.tests;
  const n = problem.large.sizes.at(-1) ?? 1000;
  const { args: largeArgs, prepared: largeWire } = inputs.get(
    problem,
    n,
    inputSeed,
  );
  // The perf ratio compares two times: taken in turns on one CPU, the
  // machine's changing speed moves both alike (see `TimingPair`), on
  // every backend (the parent drives and times every backend's samples).
  const pair = new TimingPair();
  const reference = timeReference(options, largeWire, pair);

  // One request: every test, then the large input (timed, its own limit).
  const run = await sandbox.runCode({
    ...(pair ? { pair } : {}),
    language,
    code,
    entry,
    calls: [...tests.map((t) => t.args), largeWire],
    timed: [{
      ...largeTiming(problem, language),
      timeoutMs: largeTimeoutMs(problem),
    }],
    timeoutMs: options.timeoutMs,
    memoryMb: options.memoryMb,
  });
  metrics["sandbox_backend"] = run.backend;
  metrics["sandbox_isolation"] = run.isolation;
  metrics["sandbox_status"] = run.status;
  const pass = tests.map((t, i) => {
    const got = run.results[i];
    return got !== undefined && got.ok &&
      compareOutput(expected[i], got.value, {
        rule: problem.compare,
        args: t.args,
        checker: problem.checker,
      });
  });
  const share = (kind: "functional" | "edge") => {
    const idx = tests.flatMap((t, i) => t.kind === kind ? [i] : []);
    return idx.length === 0
      ? null
      : idx.filter((i) => pass[i]).length / idx.length;
  };
  metrics["tests_passed"] = pass.filter(Boolean).length /
    Math.max(1, tests.length);
  metrics["functional_pass_rate"] = share("functional");
  metrics["edge_pass_rate"] = share("edge");
  const correct = pass.every(Boolean) && tests.length > 0;
  const testsAnswered = run.results.slice(0, tests.length).every((r) => r.ok);
  // What the report's sample viewer shows beside each failing test's input
  // and expected output (values re-encoded here, in the parent; capped).
  metrics["failing_tests"] = failingTests(run, pass);
  metrics["sandbox_stderr"] = run.stderr.trim() === ""
    ? null
    : run.stderr.slice(0, STDERR_KEPT);

  // The large input: the right output within the problem's time limit.
  const ref = await reference;
  const big = run.results[tests.length];
  const bigMs = big?.ok ? big.bestMs ?? big.ms : null;
  const largeOk = big !== undefined && big.ok && bigMs !== null &&
    bigMs <= problem.large.timeLimitMs && ref !== null &&
    compareOutput(ref.value, big.value, {
      rule: problem.compare,
      args: largeArgs,
      checker: problem.checker,
    });
  metrics["large_pass"] = largeOk;
  metrics["large_ms"] = bigMs;
  metrics["reference_large_ms"] = ref?.bestMs ?? null;
  // The median of the per-sample ratios (sample i of each ran side by
  // side, at one machine speed); a least time of each could come from
  // different speeds. The ratio of the least times when a side stopped
  // before three samples.
  const paired = big?.ok && big.samplesMs && ref?.samplesMs
    ? pairedRatio(ref.samplesMs, big.samplesMs)
    : null;
  metrics["perf_ratio"] = largeOk && ref !== null && bigMs !== null
    ? Math.min(1, paired ?? ref.bestMs / Math.max(bigMs, 1e-3))
    : null;
  // The large input's whole timed call (every run, from the first to the
  // last): the least time × runs left a JIT's slow first runs in "tests".
  const largeWall = big?.ok ? big.wallMs ?? big.ms * (big.runs ?? 1) : 0;
  // Times a worker was held (waiting for a free one is not counted).
  metrics["time_tests_ms"] = Math.max(0, run.elapsedMs - largeWall);
  metrics["time_large_ms"] = largeWall;

  metrics["complexity_measured"] = null;
  metrics["complexity_met"] = null;
  metrics["complexity_optimal"] = null;
  metrics["complexity_reason"] = null;
  metrics["time_complexity_ms"] = null;
  if (correct && options.complexity) {
    const r = await sandbox.measureComplexity({
      language,
      code,
      entry,
      input: (size: number) => inputs.get(problem, size, inputSeed).prepared,
    }).catch((error) => ({
      class: "unknown" as const,
      reason: `not measured: ${error instanceof Error ? error.message : error}`,
      elapsedMs: 0,
    }));
    const { met, optimal } = meetsComplexity(r.class, problem.complexity);
    metrics["complexity_measured"] = r.class;
    metrics["complexity_met"] = met;
    metrics["complexity_optimal"] = optimal;
    metrics["complexity_reason"] = r.reason.slice(0, 300);
    metrics["time_complexity_ms"] = r.elapsedMs;
  }
  if (correct) {
    return {
      status: "correct",
      explanation: `all ${tests.length} tests pass${
        metrics["complexity_measured"]
          ? `; measured ${metrics["complexity_measured"]}`
          : ""
      }${
        largeOk
          ? ""
          : `; large input ${describeLarge(run, big, bigMs, problem)}`
      }`,
      metrics,
    };
  }
  const failed = tests.flatMap((_, i) => pass[i] ? [] : [i]);
  return {
    status: "wrong",
    errorClass: failureClass(run, testsAnswered),
    explanation: `${failed.length} of ${tests.length} tests fail (first: test ${
      failed[0]
    }${run.status === "ok" || testsAnswered ? "" : `, sandbox ${run.status}`})`,
    metrics,
  };
}

/**
 * Past the limit the large input has failed, so 100 ms more (the CPU-time
 * watch's resolution) is all the CPU time it gets. A first call past the
 * limit fails whatever follows: its samples stop once the calls took the
 * limit (`budgetMs`) in wall time, which is at least their CPU time (a
 * tenth more, as before, only cost each too slow candidate 0.2 s). The
 * limit is CPU time, so a call that shares a busy core is not cut short.
 */
function largeTimeoutMs(problem: CodeProblem): number {
  return problem.large.timeLimitMs + 100;
}

function describeLarge(
  run: RunResult,
  big: RunResult["results"][number] | undefined,
  ms: number | null,
  problem: CodeProblem,
): string {
  const limit = problem.large.timeLimitMs;
  if (big !== undefined && !big.ok && run.status === "timeout") {
    // the large call is the last one, so a request that ran out of time
    // after every test answered ran out of time on the large input
    return `too slow (no answer within ${
      largeTimeoutMs(problem).toFixed(0)
    } ms of CPU time; the limit is ${limit} ms)`;
  }
  if (big === undefined || !big.ok) {
    return `failed (${
      big?.ok === false ? big.error.slice(0, 120) : "no result"
    })`;
  }
  if (ms !== null && ms > problem.large.timeLimitMs) {
    return `too slow (${ms.toFixed(0)} ms > ${problem.large.timeLimitMs} ms)`;
  }
  return "wrong output";
}
