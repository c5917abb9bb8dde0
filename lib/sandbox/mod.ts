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
 * ## Backends
 *
 * JavaScript and TypeScript run in a Deno child; Python runs as native
 * CPython in bubblewrap (`native`) or as Pyodide in a Deno child
 * (`pyodide`). `createSandbox({ python })` chooses per sandbox: `auto`
 * (the default) takes native when `/usr/bin/bwrap` and `/usr/bin/python3`
 * exist (plus `setpriv` when running as root) and a start-up self-test
 * finds the sandbox closed, else Pyodide; `native` refuses with what to
 * install; `pyodide` always takes Pyodide. `sandbox.backend(language)`
 * says which and why; every result carries `backend`. A trivial native
 * run costs about 40 ms of CPU (about 25 runs/s on 2 cores), a Pyodide
 * restore about 300 ms.
 *
 * ## Isolation
 *
 * Deno children (JavaScript, Pyodide) start with `Deno.execPath()` and no
 * permissions at all (`--no-prompt`, `--no-remote`, `--no-npm`,
 * `--no-config`; Pyodide workers get `--allow-read` of the Pyodide package
 * folder only), `--v8-flags=--max-old-space-size=<memoryMb>`, an empty
 * environment and `cwd: "/"`. Pyodide's `js` module reaches the Deno global
 * scope, so the Deno permissions are the wall; nothing relies on hiding
 * globals.
 *
 * Native Python runs inside bubblewrap (see `_backend.ts`): new user, pid,
 * net, ipc, uts and cgroup namespaces with no further user namespaces, the
 * uid nobody (as root, `setpriv` drops to nobody first, so the process
 * limit counts), no capabilities, `--die-with-parent`, `--new-session`,
 * read-only binds of the interpreter, its standard library and the system
 * libraries only, a read-only `/`, `/dev` and `/proc`, a 32 MiB tmpfs
 * `/tmp`, no environment, and the sandbox's pid 1 (bubblewrap's init)
 * hidden under an empty read-only `/proc/1`. Before any candidate code
 * the harness (`_py_native.ts`) closes inherited descriptors, joins a
 * fresh session keyring, installs a seccomp filter (EPERM for: ptrace and
 * cross-process memory calls; `memfd_create`, System V IPC, extended
 * attributes, io_uring, userfaultfd, `perf_event_open`, `bpf`, which
 * hold memory outside the limits; the keyrings; `sched_setaffinity`;
 * `socket`/`socketpair` of every family but AF_UNIX), sets the rlimits
 * (core 0, 64 files, 16 processes, 16 MiB files, memlock 4 KiB, message
 * queues 0, an address-space cap, CPU seconds) and puts `/dev/null` on
 * stdin, so `input()` fails at once.
 *
 * For every backend the parent kills the child at the wall-time limit
 * (`"timeout"`), when its resident memory — summed over the whole process
 * tree for native workers — exceeds the idle worker's plus `memoryMb`
 * (`"memory"`; read from `/proc/<pid>/statm` every 25 ms, which Deno allows
 * only with `--allow-all`: without it a worker is refused, never run
 * unwatched), and when captured stdout + stderr pass `maxOutputBytes`
 * (`"output_limit"`).
 *
 * Where the machine lets the parent make cgroups (`_cgroup.ts`: cgroup v2
 * with memory and pids delegated, else v1's memory and pids controllers),
 * every worker — native, Pyodide and JavaScript alike — also runs in a
 * memory and pids cgroup of its own, entered by an exec'ing shell before
 * the worker starts: from the request's first line on its memory limit is
 * what the idle worker uses plus `memoryMb`, over the whole process tree
 * and with the kernel's own memory for it (files and inodes in `/tmp`,
 * extended attributes, page tables; TCP buffers; UDP buffers only under
 * v2), no swap; the kernel's OOM kill in it is `"memory"`. Each result's `isolation` says which level judged it:
 * `"cgroup"`, or `"rlimit"` where no cgroup can be made (rlimits and the
 * watch alone; memory in socket buffers and kernel objects is then not
 * bounded). `tests/sandbox/security_test.ts` runs the attack table on
 * every backend, `security_memory_test.ts` the memory attacks.
 *
 * ## Results channel
 *
 * The parent sends a random 128-bit nonce on the worker's stdin, with the
 * program, before any candidate code exists in the process; the worker
 * keeps it in a closure and writes each answer as `\n<nonce> <json>\n`
 * through functions captured at start-up (`writeSync`, `TextEncoder`,
 * typed-array `length`/`subarray` called through bound intrinsics; Python:
 * the original stdout buffer, under its lock), so patching prototypes or
 * printing cannot produce a frame. Only framed lines with the nonce count;
 * everything else is the candidate's stdout. A program that exits
 * (`Deno.exit(0)`, `sys.exit(0)` at module level, `os._exit`) before the
 * worker's `end` frame is a `"crash"`, and calls without an answer are
 * errors. Call arguments are decoded in the child before the candidate's
 * code loads. Frames are built only from functions captured before the
 * candidate loads (Python: `str`, `len`, `range`, the exception formatter
 * — hand-written, no `traceback` — and the JSON encoder; JavaScript: the
 * answers are built as text or with a `toJSON`-deaf `JSON.stringify`, and
 * messages are read through own properties only), so rebinding a builtin,
 * a module attribute or a prototype cannot turn a raising call into `ok`
 * nor choose its value. A candidate that deliberately introspects its own
 * process (Python frames, `gc`, `/proc/self/mem`; rewriting the helpers)
 * can forge its own results — which are its own values, compared in the
 * parent — never another request's or another program's.
 *
 * ## No state between requests
 *
 * Workers are single-use: each request gets a process that has never run
 * anything else, and the process is killed when the request ends. The pool
 * keeps `warm` (default 2) of them ready per (backend, memory limit): a JS
 * worker is a started Deno waiting on stdin, a native Python worker a
 * bubblewrapped CPython with its harness loaded, a Pyodide worker an
 * interpreter restored from a memory snapshot that a trusted child made
 * once (cached in a per-user folder that only its owner can write,
 * `~/.cache/calc-bench`). Requests run `concurrency` at once (default the
 * cores); timed work — measurements and requests with timed calls — is
 * kept quiet by default (`quietTiming`), so contention does not enter the
 * times: on Linux with 2 or more CPUs it moves (`sched_setaffinity`) to
 * a CPU of its own while every other worker runs on the remaining CPUs
 * (which CPUs time is not fixed: a timing takes the last free one only
 * while no other work runs; see `_cores.ts`), elsewhere it runs alone in
 * its pool. Two requests given one `TimingPair` time their samples in
 * turns on one such CPU, and each timed call reports every sample's time
 * (`samplesMs`), so `pairedRatio` can compare two programs at the same
 * machine speed (the code suite's perf ratio, on every backend).
 *
 * ## Timings come from outside the candidate's process
 *
 * No time the worker could report is used. The parent drives every timed
 * sample (`_sampling.ts`): it asks the worker to get k calls ready (fresh
 * copies of arguments the entry changes, made outside the window), reads
 * the worker's CPU time from the kernel (`/proc/<pid>/task/<tid>/
 * schedstat`, every thread of every process in its tree, read once each
 * has gone back to waiting so the account is exact), tells it to run,
 * and reads again when it answers; a round trip with no calls, measured
 * on the same worker, is taken off each sample, and the parent chooses k
 * (at least `MIN_SAMPLE_MS`, 0.5 ms, of CPU per sample). A Deno worker's
 * V8 platform threads that existed before the candidate loaded (Pyodide's
 * background WebAssembly compiler) are left out; threads or processes the
 * candidate starts count. Pyodide workers that time run their
 * WebAssembly in Liftoff only, so no tier-up changes their speed halfway.
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
 * the entry at doubling sizes, with `input(n)` built in the parent (or
 * encoded once, `PreparedArgs`) and decoded in the child outside the timed
 * region. Each sample loops the call until it lasts `minSampleMs` of **CPU
 * time**, read by the parent (above); each size keeps the minimum of
 * `repeats` samples and one more descending pass, every sample on the
 * arguments as sent (a fresh copy when the entry changes them). Growth
 * stops when the next size is predicted to exceed `budgetMs`; while the
 * top grows steeply but not yet steeply enough to decide, sizes go on
 * doubling past the defaults (where the backend allows: a memmove's
 * quadratic term only shows at large n); exponential code is followed in
 * smaller steps. Python timing workers on Pyodide run WebAssembly in
 * Liftoff only, so a tier-up cannot speed the interpreter up halfway
 * through. A measurement takes about 0.3 s.
 *
 * The decision: for each class f in 1, log n, n, n log n, n², n³ fit
 * t = a + b·f(n) (least squares weighted by 1/t², a, b ≥ 0) and for
 * O(2^n) t = a + b·cⁿ over a grid of bases; the smallest sizes are left
 * out and each fit drops its worst points and refits. The class is the
 * simplest whose RMS relative error is within a slack of the best; a flat
 * curve is O(1); a poor best fit, or too few sizes, is `"unknown"`. An
 * O(n log n) call is checked against O(n) on the lower sizes (a memory
 * effect raises linear code at the top); a steep top names a class above
 * n log n (a memmove's quadratic term settles a fit over every size below
 * the truth); a close call between non-neighbouring classes is measured
 * once more and the two series merged (minimum per size); where the
 * backend asks, one lone step of a JIT changing regime is looked past.
 * Every threshold of these rules is a field of `ComplexityMethod`
 * (`complexity_method.ts`: `DEFAULT_METHOD`, and per backend
 * `BACKEND_METHOD`), documented there; the measured figures behind them
 * are in `docs/complexity.md`.
 * `exponent` is the log-log slope over the upper half of the sizes.
 *
 * What it can and cannot separate: every class but O(n) against
 * O(n log n), in both directions — linear code whose data outgrows a cache
 * slows down per element by about what log n adds; an O(n log n) whose log
 * factor lives in a C-level sort or heap (or, in JavaScript, a builtin)
 * under O(n) interpreted work looks linear at these sizes — and quadratic
 * work in a memmove that only shows above n ≈ 30,000. The agreement with
 * the code bank's declared classes, measured by
 * `tests/suites/code/bank_complexity_test.ts` and `deno task bench`, is in
 * `docs/complexity.md`. Hence `meetsComplexity` lets a measured
 * O(n log n) meet a required O(n). A program that deliberately rewrites
 * the sandbox's own helpers can distort its own timings (never another
 * program's).
 *
 * ## HumanEval
 *
 * `loadHumanEval` reads `data/humaneval/HumanEval.jsonl.gz`;
 * `runHumanEval` executes `prompt + completion + "\n" + test` and then
 * `check(entry_point)` in the Python sandbox, every program in a process
 * of its own: a native worker loads the interpreter and harness once and
 * forks a child per program (the fork happens before the program exists;
 * the child inherits the seccomp filter and rlimits, answers on a pipe of
 * its own with its stdout and stderr on `/dev/null`, and whatever it left
 * running is killed before the next program); a Pyodide worker, which
 * cannot fork, runs one program. Nothing a program changes (builtins,
 * `sys` settings, `sys.meta_path`, `os.environ`, audit hooks, signal
 * handlers, threads) reaches the next, and no program can reach another's
 * verdict. A program that kills its worker fails, and the rest of the
 * batch goes to a new one. HumanEval's `check()`
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
  defaultSandbox,
  measureComplexity,
  runCode,
} from "./sandbox.ts";
export type { Sandbox } from "./sandbox.ts";
export * from "./types.ts";
export { sameValue } from "./same_value.ts";
export {
  checkMemoryFloor,
  DENO_MEMORY_FLOOR_MB,
  MEMORY_FLOOR_MB,
  memoryFloorMb,
  NATIVE_MEMORY_FLOOR_MB,
  PYODIDE_MEMORY_FLOOR_MB,
} from "./memory_floor.ts";
export { PreparedArgs } from "./prepared.ts";
export { pairedRatio, TimingPair } from "./pair.ts";
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
