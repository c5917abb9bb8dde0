/**
 * Request and result types of the sandbox.
 *
 * @module
 */
import type { SandboxValue } from "./_wire.ts";

export type { SandboxValue };

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
  language: Language;
  /** The candidate's source. */
  code: string;
  /** Name of the function to call (an identifier). */
  entry: string;
  /** One argument list per call. */
  calls: unknown[][];
  /** Wall time for the whole request, in ms. @default 10000 */
  timeoutMs?: number;
  /**
   * Memory the candidate may use on top of the idle worker, in MiB: the V8
   * heap limit and the resident-memory kill line. @default 512
   */
  memoryMb?: number;
  /** Cap on captured stdout + stderr, in bytes. @default 1000000 */
  maxOutputBytes?: number;
}

/** Result of one call, in the order of `calls`. */
export type CallResult =
  | { ok: true; value: SandboxValue; ms: number }
  | { ok: false; error: string };

/** What `runCode` resolves to. */
export interface RunResult {
  status: RunStatus;
  results: CallResult[];
  /** The candidate's own stdout (capped). */
  stdout: string;
  /** The candidate's stderr (capped). */
  stderr: string;
  /** Why the program did not run, when status is not "ok". */
  error?: string;
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
  language: Language;
  code: string;
  entry: string;
  /** The argument list for size n (generated in the parent, untimed). */
  input: (n: number) => unknown[];
  /** Sizes to try, ascending; default doubling from 8 up to 16384. */
  sizes?: number[];
  /** Time budget per size in ms (all repeats). @default 250 */
  budgetMs?: number;
  /** Repeats per size (the median is kept). @default 5 */
  repeats?: number;
  /** Each timed sample loops the call until it lasts this long (CPU ms). @default 3 */
  minSampleMs?: number;
  /** Wall-time limit for the whole measurement. @default 60000 */
  timeoutMs?: number;
  /** @default 512 */
  memoryMb?: number;
}

/** One measured size. */
export interface ComplexityPoint {
  n: number;
  /** Median time of one call, ms. */
  ms: number;
}

/** Fit quality of one candidate class (lower error is better). */
export interface ClassFit {
  class: ComplexityClass;
  /** Root mean squared relative error of t = a + b·f(n). */
  error: number;
  a: number;
  b: number;
}

/** What `measureComplexity` resolves to. */
export interface ComplexityResult {
  class: ComplexityClass;
  /** Slope of log t against log n over the upper half of the sizes. */
  exponent: number;
  /** Every class's fit, best first. */
  fit: ClassFit[];
  points: ComplexityPoint[];
  /** Status of the run (e.g. "compile_error"); "ok" when measured. */
  status: RunStatus;
  /** Why the class is what it is. */
  reason: string;
}

/** Options of `createSandbox`. */
export interface SandboxOptions {
  /** Warm single-use workers kept ready per language. @default 2 */
  warm?: number;
  /** Requests running at once. @default 2 */
  concurrency?: number;
  /** Let the process exit while workers are alive. @default true */
  unref?: boolean;
  /** Pyodide package folder; found through the import map by default. */
  pyodideDir?: string;
}
