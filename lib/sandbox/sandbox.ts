/**
 * `createSandbox`, and the module-level `runCode` / `measureComplexity` /
 * `closeSandbox` on a lazily created default sandbox.
 *
 * @module
 */
import { Pool } from "./_pool.ts";
import { programsWith, runWith, workerLanguage } from "./_run.ts";
import { measureWith } from "./_measure.ts";
import type {
  BackendInfo,
  ComplexityRequest,
  ComplexityResult,
  Language,
  ProgramsRequest,
  ProgramsResult,
  RunRequest,
  RunResult,
  SandboxOptions,
} from "./types.ts";

/** A pool of sandbox workers with its own `runCode` and `measureComplexity`. */
export interface Sandbox {
  /** See the module-level `runCode`. */
  runCode(request: RunRequest): Promise<RunResult>;
  /** See the module-level `measureComplexity`. */
  measureComplexity(request: ComplexityRequest): Promise<ComplexityResult>;
  /**
   * Runs a batch of Python programs (HumanEval style: each defines `check`
   * and the entry), each in a process of its own (native: forked from a
   * loaded harness; Pyodide: a worker each); a program that stops its
   * worker fails and the rest run in a new one.
   */
  runPrograms(request: ProgramsRequest): Promise<ProgramsResult>;
  /**
   * Where this sandbox runs a language (deciding Python's backend, with
   * its self-test, on the first call).
   * @throws {Error} For Python with `python: "native"` when bubblewrap or
   *   python3 is missing or the self-test fails, saying what to install.
   */
  backend(language: Language): Promise<BackendInfo>;
  /** Kills every worker; later calls throw. */
  close(): Promise<void>;
}

/**
 * Creates a sandbox: a pool of single-use warm workers (each request gets a
 * process that never ran anything else, killed afterwards).
 *
 * @param options Pool size, concurrency, whether workers keep the process
 * alive, and the Pyodide folder.
 * @returns A sandbox; call `close()` when done.
 * @throws {RangeError} When `warm`, `concurrency`, `timingConcurrency` or
 *   `python` is out of range.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { createSandbox } from "./mod.ts";
 * const sandbox = createSandbox({ warm: 0 });
 * const r = await sandbox.runCode({
 *   language: "javascript",
 *   code: "function add(a, b) { return a + b; }",
 *   entry: "add",
 *   calls: [[1, 2]],
 * });
 * await sandbox.close();
 * assert.equal(r.status, "ok");
 * assert.deepEqual(r.results.map((x) => x.ok && x.value), [3]);
 * ```
 */
export function createSandbox(options: SandboxOptions = {}): Sandbox {
  const cores = Math.max(1, navigator.hardwareConcurrency || 1);
  const {
    warm = 2,
    concurrency = cores,
    timingConcurrency = concurrency,
    unref = true,
    python = "auto",
    quietTiming = true,
    bwrap,
    pyodideDir,
  } = options;
  if (!Number.isInteger(warm) || warm < 0 || warm > 16) {
    throw new RangeError(
      `Cannot create a sandbox: warm must be an integer from 0 to 16, got ${warm}`,
    );
  }
  if (!Number.isInteger(concurrency) || concurrency < 1 || concurrency > 64) {
    throw new RangeError(
      `Cannot create a sandbox: concurrency must be an integer from 1 to 64, got ${concurrency}`,
    );
  }
  if (
    !Number.isInteger(timingConcurrency) || timingConcurrency < 1 ||
    timingConcurrency > concurrency
  ) {
    throw new RangeError(
      `Cannot create a sandbox: timingConcurrency must be an integer from 1 to concurrency (${concurrency}), got ${timingConcurrency}`,
    );
  }
  if (!["auto", "native", "pyodide"].includes(python)) {
    throw new RangeError(
      `Cannot create a sandbox: python must be "auto", "native" or "pyodide", got ${
        JSON.stringify(python)
      }`,
    );
  }
  const pool = new Pool({
    warm,
    concurrency,
    timingConcurrency,
    quietTiming,
    unref,
    python,
    bwrap,
    pyodideDir,
  });
  return {
    runCode: (request) => runWith(pool, request),
    measureComplexity: (request) => measureWith(pool, request),
    runPrograms: (request) => programsWith(pool, request),
    backend: async (language) => {
      if (workerLanguage(language) === "javascript") {
        return {
          backend: "deno",
          detail: `a Deno ${Deno.version.deno} child with no permissions`,
          reason: "JavaScript and TypeScript always run in Deno",
          isolation: pool.isolation(),
        };
      }
      const { backend, detail, reason } = await pool.pythonBackend();
      return { backend, detail, reason, isolation: pool.isolation() };
    },
    close: () => pool.close(),
  };
}

let shared: Sandbox | undefined;

/**
 * The lazily created default sandbox behind `runCode` and
 * `measureComplexity` (workers unref'd; `closeSandbox()` frees it).
 *
 * @returns The shared sandbox.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { defaultSandbox } from "./sandbox.ts";
 * assert.equal(defaultSandbox(), defaultSandbox());
 * ```
 */
export function defaultSandbox(): Sandbox {
  shared ??= createSandbox();
  return shared;
}

/**
 * Runs a candidate program's entry function on each argument list, in a
 * fresh sandboxed process (no permissions, no environment, wall-time and
 * memory kills, capped output). Values come back as data; compare them in
 * the caller with `sameValue`.
 *
 * @param request Language, code, entry, calls and limits.
 * @returns `{ status, results, stdout, stderr }`; `results[i]` is
 * `{ ok: true, value, ms }` or `{ ok: false, error }`.
 * @throws {TypeError} When the request is malformed (not for bad programs:
 * those give a status).
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { closeSandbox, runCode } from "./mod.ts";
 * const r = await runCode({
 *   language: "typescript",
 *   code: "export function sq(x: number): number { return x * x; }",
 *   entry: "sq",
 *   calls: [[3], [4]],
 * });
 * await closeSandbox();
 * assert.equal(r.status, "ok");
 * assert.deepEqual(r.results.map((x) => x.ok && x.value), [9, 16]);
 * ```
 */
export function runCode(request: RunRequest): Promise<RunResult> {
  return defaultSandbox().runCode(request);
}

/**
 * Measures how the entry function's time grows with n and names the class
 * (see the module doc of `mod.ts` for the rules).
 *
 * @param request Program, `input(n)` and optional sizes/budgets.
 * @returns `{ class, exponent, fit, points }` (plus status and reason).
 * @throws {TypeError} When the request is malformed.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { closeSandbox, measureComplexity } from "./mod.ts";
 * const r = await measureComplexity({
 *   language: "javascript",
 *   code: "function f(n) { let s = 0; for (let i = 0; i < n * n; i++) s += i; return s; }",
 *   entry: "f",
 *   input: (n) => [n],
 *   sizes: [64, 128, 256, 512, 1024],
 * });
 * await closeSandbox();
 * assert.equal(r.points.length, 5);
 * ```
 */
export function measureComplexity(
  request: ComplexityRequest,
): Promise<ComplexityResult> {
  return defaultSandbox().measureComplexity(request);
}

/**
 * Closes the default sandbox used by `runCode` / `measureComplexity` (a
 * later call creates a new one). Workers are unref'd, so this is only
 * needed to free them early or to satisfy test sanitizers.
 *
 * @returns When every worker has exited.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { closeSandbox } from "./mod.ts";
 * assert.equal(await closeSandbox(), undefined);
 * ```
 */
export async function closeSandbox(): Promise<void> {
  const s = shared;
  shared = undefined;
  await s?.close();
}
