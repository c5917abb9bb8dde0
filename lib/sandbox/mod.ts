/**
 * Sandboxed execution of untrusted (model-written) code, measured time
 * complexity, and HumanEval.
 *
 * ```ts
 * import assert from "node:assert/strict";
 * import { closeSandbox, runCode, sameValue } from "./mod.ts";
 * const r = await runCode({
 *   language: "javascript",
 *   code: "function f(xs) { return [[...xs].sort(), xs.length]; }",
 *   entry: "f",
 *   calls: [[[3, 1, 2]]],
 * });
 * await closeSandbox();
 * assert.equal(r.status, "ok");
 * assert.ok(r.results[0]!.ok && sameValue(r.results[0]!.value, [[1, 2, 3], 3]));
 * ```
 *
 * ## Isolation
 *
 * Every request runs in a Deno child process started with `Deno.execPath()`,
 * no permissions at all (`--no-prompt`, `--no-remote`, `--no-npm`,
 * `--no-config`; Python workers get `--allow-read` of the Pyodide package
 * folder only), `--v8-flags=--max-old-space-size=<memoryMb>`, `clearEnv`
 * with an empty environment, and `cwd: "/"`. `deno test --allow-all` does
 * not leak into it: permissions are given on the command line, not
 * inherited. The parent kills the child at the wall-time limit
 * (`"timeout"`), when its resident memory (`/proc/<pid>/status` VmRSS, read
 * every 25 ms) exceeds the idle worker's RSS plus `memoryMb` (`"memory"`;
 * WebAssembly memory is outside V8's heap limit), and when captured
 * stdout + stderr pass `maxOutputBytes` (`"output_limit"`). Pyodide's `js`
 * module reaches the Deno global scope, so the Deno permissions are the
 * wall; nothing relies on hiding globals.
 *
 * ## Results channel
 *
 * The parent sends a random 128-bit nonce on the worker's stdin, with the
 * program, before any candidate code exists in the process; the worker
 * keeps it in a closure and writes each answer as `\n<nonce> <json>\n`
 * through functions captured at start-up (`writeSync`, `TextEncoder`,
 * typed-array `length`/`subarray` called through bound intrinsics), so
 * patching prototypes cannot observe it. stdin is read to its end, and the
 * candidate has no read permission on `/proc`. Only framed lines with the
 * nonce count; everything else is the candidate's stdout. A program that
 * exits (`Deno.exit(0)`, `sys.exit(0)` at module level, `os._exit`) before
 * the worker's `end` frame is a `"crash"`, and calls without an answer are
 * errors. Call arguments are decoded in the child before the candidate's
 * code loads.
 *
 * ## No state between requests
 *
 * Workers are single-use: each request gets a process that has never run
 * anything else, and the process is killed when the request ends. The pool
 * keeps `warm` (default 2) of them ready per language: a JS worker is a
 * started Deno waiting on stdin (about 40–60 ms saved per request); a
 * Python worker is a Pyodide interpreter restored from a memory snapshot
 * that a trusted child made once per pool before any candidate code ran
 * (a restore takes ~0.3 s; booting Pyodide takes 2–10 s on this machine).
 * So Python globals, patched builtins, files in Pyodide's in-memory file
 * system and modified JS prototypes die with their process. The pool never
 * has to prove a used worker clean because it never reuses one.
 *
 * ## Values
 *
 * Values cross as JSON data: Python tuples and sets → arrays, dicts with
 * string keys → objects, other dicts and JS Maps → `Map`, integers beyond
 * 2^53 (and every JS bigint) → `bigint` (on the wire
 * `{"$bigint": "123…"}`), NaN/±Infinity → those numbers (wire
 * `{"$float": "NaN"}`). Only exact built-in types are encoded: a class
 * instance, an `int` subclass with a lying `__eq__`, a function or a cycle
 * is an error for that call, never a value. Compare in the caller with
 * `sameValue` (exact, order-free lists, float tolerance).
 *
 * ## Measuring complexity
 *
 * `measureComplexity` loads the program once in a fresh worker and times
 * the entry at sizes doubling from 8 (up to 16,384), with `input(n)` built
 * in the parent and decoded in the child outside the timed region. Each
 * sample loops the call until it lasts `minSampleMs` of **CPU time** of the
 * child (`process.cpuUsage()` in the worker; time the process spends
 * preempted by others does not count); each size keeps the minimum of
 * `repeats` samples, then two more passes over all sizes (descending, then
 * ascending) keep each size's minimum, so a disturbed period hits every size
 * alike. Growth stops when the next size is predicted to exceed `budgetMs`.
 * When one doubling multiplies the time by more than 12 at n ≤ 64, sizes
 * then grow in steps of n/8 (exponential code cannot be doubled), and go
 * back to doubling when the steps do not look exponential. Python timing
 * workers run WebAssembly in Liftoff only (`--liftoff-only`), so a
 * background tier-up cannot speed the interpreter up halfway through.
 *
 * The decision: for each class f in 1, log n, n, n log n, n², n³ fit
 * t = a + b·f(n) (least squares weighted by 1/t², a, b ≥ 0) and for
 * O(2^n) t = a + b·cⁿ over bases c from 1.2 to 3; sizes below 32 are left
 * out when five larger ones exist, and each fit drops its worst fifth of
 * points and refits. The class is the simplest whose RMS relative error is
 * within ×1.25 (+0.02) of the best; a fitted curve rising less than 1.25×
 * over the whole range is O(1); a best error above 0.4, or fewer than 4
 * sizes, is `"unknown"`. A close call between non-neighbouring classes is
 * measured once more and the two series merged (minimum per size).
 * `exponent` is the log-log slope over the upper half of the sizes.
 *
 * Where it is weak: O(n) vs O(n log n) differ by a factor of log n, which
 * over a 500× range is within the noise of a loaded machine; they are
 * told apart only with a wide size range and are often confused.
 * O(1) vs O(log n) compares nanoseconds: memory effects can make an O(1)
 * lookup creep, and a binary search can hide under call overhead. Calls
 * that mutate their arguments are timed on the mutated input within one
 * sample. A program that deliberately rewrites the sandbox's own Python
 * helpers can distort its own timings (never another program's).
 *
 * ## HumanEval
 *
 * `loadHumanEval` reads `data/humaneval/HumanEval.jsonl.gz`;
 * `runHumanEval` executes `prompt + completion + "\n" + test` and then
 * `check(entry_point)` in the Python sandbox, many programs per worker,
 * each with a fresh globals dict; modules a program imported are dropped
 * from `sys.modules` afterwards, and a program that changed interpreter
 * state (builtins, module dicts, `sys` settings, files) is marked tainted
 * and the rest of its batch goes to a new worker. HumanEval's `check()`
 * runs inside the sandbox, so an always-equal object would fool its
 * asserts: by default the candidate is wrapped so `check()` only ever sees
 * its return values as exact built-in data (anything else fails), and the
 * project's own problem bank does not rely on in-sandbox asserts at all — it
 * compares returned data in the parent with `sameValue`. With
 * `guard: false` HumanEval runs as published, caveat included.
 *
 * @module
 */
export {
  closeSandbox,
  createSandbox,
  measureComplexity,
  runCode,
} from "./sandbox.ts";
export type { Sandbox } from "./sandbox.ts";
export * from "./types.ts";
export { sameValue } from "./same_value.ts";
export { PreparedArgs } from "./prepared.ts";
export type { SameValueRule } from "./same_value.ts";
export {
  HUMANEVAL_PATH,
  humanEvalProgram,
  loadHumanEval,
  runHumanEval,
} from "./humaneval.ts";
export type {
  HumanEvalOptions,
  HumanEvalOutcome,
  HumanEvalProblem,
} from "./humaneval.ts";
