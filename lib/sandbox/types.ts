/**
 * Request and result types of the sandbox.
 *
 * @module
 */
import type { SandboxValue } from "./_wire.ts";
import type { PreparedArgs } from "./prepared.ts";
import type { TimingPair } from "./pair.ts";
import type { Backend, PythonChoice } from "./_backend.ts";
import type { Isolation } from "./_cgroup.ts";
export type { Isolation };

export type { Backend, PythonChoice, SandboxValue };

/** Languages a candidate program may be written in. */
export type Language = "python" | "javascript" | "typescript";

/** Outcome of a whole request. */
export type RunStatus =
  | "ok"
  | "compile_error"
  | "no_entry"
  | "timeout"
  | "memory"
  | "output_limit"
  | "crash";

/** One program, one entry function, a list of calls. */
export interface RunRequest {
  /** The program's language. */
  language: Language;
  /** The candidate's source. */
  code: string;
  /** Name of the function to call (an identifier). */
  entry: string;
  /** One argument list per call (or one encoded once, `PreparedArgs`). */
  calls: (unknown[] | PreparedArgs)[];
  /** Wall time for the whole request, in ms. @default 10000 */
  timeoutMs?: number;
  /**
   * Memory the candidate may use on top of the idle worker, in MiB: the V8
   * heap limit and the resident-memory kill line. @default 512
   */
  memoryMb?: number;
  /** Cap on captured stdout + stderr, in bytes. @default 1000000 */
  maxOutputBytes?: number;
  /**
   * Calls to time, by index (e.g. the large input after the tests): such
   * a call runs once for its value, then `repeats` samples of as many
   * calls as take `sampleMs` each, every call on its arguments as they
   * were sent (a fresh copy when the first call changed them), none once
   * the calls have taken `budgetMs` of wall time
   * (default a quarter of its `timeoutMs`, or 2.5 s), and none past the
   * third once the samples have taken `cpuBudgetMs` of CPU time and stopped
   * getting faster; its result carries
   * `bestMs`, the least time per call of a sample, and the value of the
   * first call. `timeoutMs` is that call's own limit in CPU time (with a
   * wall-time backstop of 3× it plus 1 s), armed when the calls before it
   * have answered (the request's `timeoutMs` then covers only the other
   * calls).
   */
  timed?: TimedCallRequest[];
  /**
   * Times this request's timed calls in turns with another request's,
   * sample by sample on one CPU (see `TimingPair`): for a ratio of two
   * programs' times that the machine's changing speed does not move.
   * Native Python and JavaScript; a Pyodide worker times alone.
   */
  pair?: TimingPair;
}

/** One timed call of a `RunRequest`. */
export interface TimedCallRequest {
  /** Index into `calls`. */
  call: number;
  /** Timed samples of the call. @default 3 */
  repeats?: number;
  /**
   * This call's own limit, ms of CPU time (a wall-time backstop of 3× it
   * plus 1 s stops a call that waits instead of computing).
   */
  timeoutMs?: number;
  /** No more repeats once the runs took this long in all, ms. */
  budgetMs?: number;
  /**
   * No sample past the third (or past `repeats`, when fewer) once the
   * samples took this much CPU time in all, ms, and the last one was not
   * 5 % faster than the best before it (still warming up): a slow call
   * gets a few samples, a fast one all `repeats`. @default no such budget
   */
  cpuBudgetMs?: number;
  /**
   * Each of the `repeats` samples calls the entry until the calls took
   * this long (CPU ms, at most 1,000 calls; at least 0.5 ms, so a round
   * trip's own cost stays small beside it) and counts the time per call,
   * so a fast call's time averages over its collections. @default 0.5
   */
  sampleMs?: number;
}

/** Result of one call, in the order of `calls`. */
export type CallResult =
  | {
    ok: true;
    value: SandboxValue;
    /** Wall time of the call (a timed call: the least of its runs), ms. */
    ms: number;
    /**
     * A timed call: the least CPU time per call of a sample, ms, read by
     * the parent from the kernel's account of the worker's threads (never
     * reported by the worker).
     */
    bestMs?: number;
    /** A timed call: how many runs were made. */
    runs?: number;
    /**
     * A timed call: each sample's time per call, ms (same clock as
     * `bestMs`), in the order they ran; paired with another request's
     * (see `TimingPair`), sample i of one ran next to sample i of the other.
     */
    samplesMs?: number[];
    /**
     * A timed call: wall time from its first run to the end of its last,
     * ms (copies of changed arguments and turns waited in a pair included).
     */
    wallMs?: number;
  }
  | { ok: false; error: string };

/** What `runCode` resolves to. */
export interface RunResult {
  /** "ok", or why the worker stopped. */
  status: RunStatus;
  /** One result per call, in order (fewer when the worker stopped). */
  results: CallResult[];
  /** The candidate's own stdout (capped). */
  stdout: string;
  /** The candidate's stderr (capped). */
  stderr: string;
  /** Why the program did not run, when status is not "ok". */
  error?: string;
  /** Where it ran: `deno` (JS/TS), `native` or `pyodide` (Python). */
  backend: Backend;
  /**
   * What bounded its memory and processes: `cgroup` (a memory and pids
   * cgroup of its own) or `rlimit` (rlimits and the parent's watch only).
   */
  isolation: Isolation;
  /** Time the request held its worker, ms (waiting for a free one excluded). */
  elapsedMs: number;
}

/** Time-complexity classes `measureComplexity` can decide. */
export type ComplexityClass =
  | "O(1)"
  | "O(log n)"
  | "O(n)"
  | "O(n log n)"
  | "O(n^2)"
  | "O(n^3)"
  | "O(2^n)"
  | "unknown";

/** A complexity measurement request. */
export interface ComplexityRequest {
  /** The program's language. */
  language: Language;
  /** The candidate program's source. */
  code: string;
  /** The function to call. */
  entry: string;
  /**
   * The argument list for size n (generated in the parent, untimed), or
   * one encoded once (`PreparedArgs`).
   */
  input: (n: number) => unknown[] | PreparedArgs;
  /**
   * Sizes to try, ascending; default doubling from 8 up to 16384 (in
   * Python on to 131072 while a steep top is unsettled, see the module doc).
   */
  sizes?: number[];
  /** Time budget per size in ms (all repeats). @default 100 */
  budgetMs?: number;
  /** Repeats per size (the least is kept). @default 3 */
  repeats?: number;
  /** Each timed sample loops the call until it lasts this long (CPU ms). @default 1 */
  minSampleMs?: number;
  /** Wall-time limit for the whole measurement. @default 60000 */
  timeoutMs?: number;
  /** Memory limit of each worker, MiB. @default 512 */
  memoryMb?: number;
}

/** One measured size. */
export interface ComplexityPoint {
  /** The input size. */
  n: number;
  /** Median time of one call, ms. */
  ms: number;
}

/** Fit quality of one candidate class (lower error is better). */
export interface ClassFit {
  /** The candidate class. */
  class: ComplexityClass;
  /** Root mean squared relative error of t = a + b·f(n). */
  error: number;
  /** Intercept of the fit, ms. */
  a: number;
  /** Slope of the fit. */
  b: number;
}

/** What `measureComplexity` resolves to. */
export interface ComplexityResult {
  /** The class measured. */
  class: ComplexityClass;
  /** Slope of log t against log n over the upper half of the sizes. */
  exponent: number;
  /** Every class's fit, best first. */
  fit: ClassFit[];
  /** The measured sizes and times, smallest first. */
  points: ComplexityPoint[];
  /** Status of the run (e.g. "compile_error"); "ok" when measured. */
  status: RunStatus;
  /** Why the class is what it is. */
  reason: string;
  /** Time the measurement held its workers, ms (waiting excluded). */
  elapsedMs: number;
  /** Where it ran. */
  backend: Backend;
}

/** Where a sandbox runs a language, as `Sandbox.backend` reports it. */
export interface BackendInfo {
  /** The backend the language runs on. */
  backend: Backend;
  /** Versions, e.g. "CPython 3.11.2 in bubblewrap 0.8.0". */
  detail: string;
  /** Why this backend: asked for, or what `auto` found. */
  reason: string;
  /** What bounds its workers' memory (see `RunResult.isolation`). */
  isolation?: Isolation;
}

/** Options of `createSandbox`. */
export interface SandboxOptions {
  /** Warm single-use workers kept ready per language. @default 2 */
  warm?: number;
  /** Requests running at once. @default the machine's cores */
  concurrency?: number;
  /**
   * Complexity measurements running at once. With quiet timing on cores
   * each holds a CPU of its own (so at most the CPUs run at once); alone
   * in the pool they run one at a time whatever this says.
   * @default `concurrency`
   */
  timingConcurrency?: number;
  /**
   * Where Python runs: `native` (CPython in bubblewrap; refused when
   * bubblewrap or python3 is missing), `pyodide` (WebAssembly in a Deno
   * child), or `auto` (native when available and its isolation self-test
   * passes, else Pyodide). @default "auto"
   */
  python?: PythonChoice;
  /**
   * Timed work — complexity measurements and requests with timed calls —
   * is kept quiet, so contention for a core does not enter the times. On
   * Linux with 2 or more CPUs the timed part moves (`sched_setaffinity`)
   * to a CPU of its own that no other worker of this process uses
   * meanwhile, while the rest goes on on the other CPUs (a timing takes
   * the last free CPU only while no other work runs; see `_cores.ts`);
   * `CALC_BENCH_QUIET_CORES=0`, or a machine without those, runs it
   * alone instead: it waits until no other request of this sandbox runs,
   * none starts meanwhile and no warm worker is spawned. Off: it runs
   * beside the rest (a faster, noisier sweep). @default true
   */
  quietTiming?: boolean;
  /** bubblewrap's path. @default found in /usr/bin, /bin, /usr/local/bin */
  bwrap?: string;
  /** Let the process exit while workers are alive. @default true */
  unref?: boolean;
  /** Pyodide package folder; found through the import map by default. */
  pyodideDir?: string;
}

/** One program of a batch: its source and the function `check` receives. */
export interface BatchProgram {
  /** The program's source. */
  code: string;
  /** The function `check` receives. */
  entry: string;
}

/** A batch of Python programs, each run in a process of its own. */
export interface ProgramsRequest {
  /** The programs, each run in a process of its own. */
  programs: BatchProgram[];
  /**
   * Pass `check()` a wrapper that turns the candidate's return values into
   * plain data (and fails on anything else). @default true
   */
  guard?: boolean;
  /** Wall time for the whole batch. @default 60000 */
  timeoutMs?: number;
  /** Memory limit of each program's process, MiB. @default 512 */
  memoryMb?: number;
  /** Output kept per stream, bytes. @default 1000000 */
  maxOutputBytes?: number;
}

/** Outcome of one program. */
export interface ProgramResult {
  /** The program passed its check. */
  ok: boolean;
  /** Why not, empty when it passed. */
  error: string;
  /**
   * The program stopped its worker (killed, or it killed the worker); the
   * rest ran in a new one. Every program runs in a process of its own.
   */
  tainted: boolean;
}

/** What `runPrograms` resolves to. */
export interface ProgramsResult {
  /** Results of the programs that ran, in order (may be fewer). */
  results: ProgramResult[];
  /** "ok", or why the worker stopped (e.g. "timeout"). */
  status: RunStatus;
  /** What the programs printed (capped). */
  stdout: string;
  /** What the programs wrote to stderr (capped). */
  stderr: string;
  /** Where the programs ran. */
  backend: Backend;
  /** What bounded their memory (see `RunResult.isolation`). */
  isolation: Isolation;
}
