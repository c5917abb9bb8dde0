/**
 * `runCode` on a pool: validation, one single-use worker per request, and
 * the status ladder (kill reason, load status, missing results).
 *
 * @module
 */
import type { Lease, Pool } from "./_pool.ts";
import type { Limits, WorkerProcess } from "./_process.ts";
import { encodeValue, reviveValue } from "./_wire.ts";
import { PreparedArgs } from "./prepared.ts";
import { type SampleHooks, Sampler, timeCall } from "./_sampling.ts";
import type { Backend } from "./_backend.ts";
import type { Isolation } from "./_cgroup.ts";
import type {
  CallResult,
  Language,
  ProgramResult,
  ProgramsRequest,
  ProgramsResult,
  RunRequest,
  RunResult,
  RunStatus,
} from "./types.ts";

const LANGUAGES: readonly Language[] = ["python", "javascript", "typescript"];
const IDENT = /^[A-Za-z_$][A-Za-z0-9_$]*$/;

/** Checks the fields shared by every request. @throws {TypeError} */
export function checkProgram(
  req: { language: unknown; code: unknown; entry: unknown },
  what: string,
): void {
  if (!LANGUAGES.includes(req.language as Language)) {
    throw new TypeError(
      `Cannot ${what}: language must be one of ${LANGUAGES.join(", ")}, got ${
        JSON.stringify(req.language)
      }`,
    );
  }
  if (typeof req.code !== "string") {
    throw new TypeError(`Cannot ${what}: code must be a string`);
  }
  if (typeof req.entry !== "string" || !IDENT.test(req.entry)) {
    throw new TypeError(
      `Cannot ${what}: entry must be a function name (an identifier), got ${
        JSON.stringify(req.entry)
      }`,
    );
  }
}

/** Resolved limits with defaults. @throws {RangeError} */
export function limitsOf(
  req: { timeoutMs?: number; memoryMb?: number; maxOutputBytes?: number },
  what: string,
  defaultTimeout = 10_000,
): Limits {
  const { timeoutMs = defaultTimeout, memoryMb = 512, maxOutputBytes = 1e6 } =
    req;
  for (
    const [k, v] of Object.entries({ timeoutMs, memoryMb, maxOutputBytes })
  ) {
    if (!Number.isFinite(v) || v <= 0) {
      throw new RangeError(
        `Cannot ${what}: ${k} must be a positive number, got ${v}`,
      );
    }
  }
  return { timeoutMs, memoryMb: Math.ceil(memoryMb), maxOutputBytes };
}

/** Worker language for a request language. */
export function workerLanguage(language: Language): "python" | "javascript" {
  return language === "python" ? "python" : "javascript";
}

/** SIGXCPU: the candidate's process passed its CPU-time rlimit. */
const SIGXCPU = 24;

/** The status when a worker ended without finishing its answer. */
export function deadStatus(w: WorkerProcess): RunStatus {
  if (w.killReason && w.killReason !== "closed") return w.killReason;
  if (w.died?.signal === SIGXCPU) return "timeout";
  if (
    /out of memory|heap limit|MemoryError|Out of bounds memory/i.test(w.stderr)
  ) {
    return "memory";
  }
  return "crash";
}

const DEAD_MESSAGE: Record<RunStatus, string> = {
  ok: "",
  compile_error: "not run: the program does not compile",
  no_entry: "not run: no entry function",
  timeout: "not run: the request ran out of time",
  memory: "not run: the program ran out of memory",
  output_limit: "not run: the program printed too much",
  crash: "no result: the program exited or crashed before answering",
};

/** A timed call, resolved: repeats, its own time limit, its repeat budgets. */
interface TimedCall {
  repeats: number;
  timeoutMs: number | undefined;
  budgetMs: number;
  sampleMs: number;
  /** 0: none. */
  cpuBudgetMs: number;
}

function timedCalls(req: RunRequest, what: string): Map<number, TimedCall> {
  const out = new Map<number, TimedCall>();
  for (const t of req.timed ?? []) {
    const {
      call,
      repeats = 3,
      timeoutMs,
      budgetMs,
      sampleMs = 0,
      cpuBudgetMs = 0,
    } = t;
    if (!Number.isInteger(call) || call < 0 || call >= req.calls.length) {
      throw new RangeError(
        `Cannot ${what}: timed call ${call} is not an index of calls (0 to ${
          req.calls.length - 1
        })`,
      );
    }
    if (!Number.isInteger(repeats) || repeats < 1 || repeats > 100) {
      throw new RangeError(
        `Cannot ${what}: repeats of timed call ${call} must be an integer from 1 to 100, got ${repeats}`,
      );
    }
    for (
      const [k, v] of Object.entries({
        timeoutMs,
        budgetMs,
        sampleMs,
        cpuBudgetMs,
      })
    ) {
      if ((k === "sampleMs" || k === "cpuBudgetMs") && v === 0) continue;
      if (v !== undefined && !(Number.isFinite(v) && v > 0)) {
        throw new RangeError(
          `Cannot ${what}: ${k} of timed call ${call} must be a positive number, got ${v}`,
        );
      }
    }
    out.set(call, {
      repeats,
      timeoutMs,
      budgetMs: budgetMs ?? (timeoutMs ?? 10_000) / 4,
      sampleMs,
      cpuBudgetMs,
    });
  }
  return out;
}

/** Runs one request on a fresh worker from the pool. */
export async function runWith(pool: Pool, req: RunRequest): Promise<RunResult> {
  // joined before the first await, so two requests started together are
  // both in their pair before either reaches its samples
  const side = req.pair?.join();
  try {
    return await runChecked(pool, req, side);
  } finally {
    if (side !== undefined) req.pair!.leave(side);
  }
}

async function runChecked(
  pool: Pool,
  req: RunRequest,
  side: number | undefined,
): Promise<RunResult> {
  const what = "run code";
  checkProgram(req, what);
  if (
    !Array.isArray(req.calls) ||
    !req.calls.every((c) => Array.isArray(c) || c instanceof PreparedArgs)
  ) {
    throw new TypeError(
      "Cannot run code: calls must be a list of argument lists, e.g. [[1, 2]]",
    );
  }
  const limits = limitsOf(req, what);
  const timed = timedCalls(req, what);
  let encoded: string[];
  try {
    encoded = req.calls.map((args) =>
      args instanceof PreparedArgs ? args.wire : encodeValue(args)
    );
  } catch (e) {
    throw new TypeError(
      `Cannot run code: an argument cannot be sent to the sandbox (${
        (e as Error).message
      }); use JSON data, bigint, Map or Set`,
    );
  }
  const lease = await pool.acquire({
    language: workerLanguage(req.language),
    heapMb: limits.memoryMb,
    steady: timed.size > 0,
  });
  return await runOn(
    lease,
    req,
    limits,
    encoded,
    timed,
    pool.options.quietTiming,
    side,
  );
}

/**
 * Runs a request on a leased worker and releases it: the load, every call
 * in order (timed calls repeated, each with its own time limit armed when
 * the calls before it have answered), the status ladder.
 */
export async function runOn(
  lease: Lease,
  req: RunRequest,
  limits: Limits,
  encoded: string[],
  timed: Map<number, TimedCall> = new Map(),
  quietTiming = false,
  side?: number,
): Promise<RunResult> {
  const w = lease.worker;
  const pair = side !== undefined ? req.pair : undefined;
  let paired = false;
  const results: CallResult[] = [];
  let status: RunStatus = "ok";
  let error: string | undefined;
  const started = performance.now();
  let elapsedMs = 0;
  try {
    await w.start(
      {
        code: req.code,
        entry: req.entry,
        typescript: req.language === "typescript",
      },
      limits,
      encoded,
    );
    const load = await w.next();
    if (load === null || load.t !== "load") {
      status = deadStatus(w);
    } else if (load.r.status !== "ok") {
      status = load.r.status;
      error = load.r.error;
    } else {
      const spec: Record<string, 1> = {};
      for (const i of timed.keys()) spec[i] = 1;
      w.sendRaw(JSON.stringify({ t: "calls", timed: spec }));
      // A timed call's own limit is CPU time, its wall-time backstop 3×
      // that and a second (the call may share a busy work core); a call
      // after it without a limit of its own is not held to it.
      const arm = (limitMs: number | undefined) => {
        w.limitCpu(limitMs);
        if (limitMs !== undefined) w.rearm(3 * limitMs + 1000);
      };
      arm(timed.get(0)?.timeoutMs);
      const sampler = new Sampler(w);
      // Before the first timed sample (after the call that gives the
      // value) the request waits until the pool is quiet, with quiet
      // timing: the tests, which may loop to their limit, and a too slow
      // first call run beside the rest. Paired: before every sample, for
      // the turns.
      const hooksFor = (t: TimedCall): SampleHooks => ({
        before: async (first) => {
          if (pair === undefined && !(first && quietTiming)) return;
          w.rearm(limits.timeoutMs + 60_000); // the wait is not the program's
          if (pair !== undefined) {
            if (!paired) await pair.start(side!, lease, quietTiming);
            paired = true;
            await pair.turn(side!, lease, quietTiming);
          } else await lease.quiet();
          // the samples get the timed call's own time limit afresh; a
          // paired call's later samples only its wall-time backstop (its
          // CPU time goes on counting against the one limit)
          if (t.timeoutMs === undefined) w.rearm(limits.timeoutMs);
          else if (first) arm(t.timeoutMs);
          else w.rearm(3 * t.timeoutMs + 1000);
        },
        after: () => {
          if (pair !== undefined && paired) pair.done(side!);
        },
      });
      while (true) {
        const m = await w.next();
        if (m === null) {
          status = deadStatus(w);
          break;
        }
        if (m.t === "end") break;
        if (m.t === "timed" && m.i === results.length && timed.has(m.i)) {
          const r = await timedResult(sampler, timed.get(m.i)!, hooksFor);
          if (r === null) {
            status = deadStatus(w);
            break;
          }
          results.push(r);
          await sampler.next();
          arm(timed.get(results.length)?.timeoutMs);
          continue;
        }
        if (m.t !== "r" || m.i !== results.length) continue;
        results.push(toCallResult(m.r));
        arm(timed.get(results.length)?.timeoutMs);
      }
    }
    if (w.killReason && w.killReason !== "closed") status = w.killReason;
  } finally {
    elapsedMs = performance.now() - started;
    lease.release();
  }
  await w.exited;
  if (
    status === "ok" &&
    results.some((r) => !r.ok && /^MemoryError\b/m.test(r.error))
  ) {
    // native Python: the address-space limit raised MemoryError in a call
    status = "memory";
  }
  const fill = error ?? DEAD_MESSAGE[status];
  while (results.length < req.calls.length) {
    results.push({ ok: false, error: fill });
  }
  const out: RunResult = {
    status,
    results,
    stdout: w.stdout,
    stderr: w.stderr,
    backend: w.backend,
    isolation: w.isolation,
    elapsedMs,
  };
  if (status !== "ok") out.error = error ?? DEAD_MESSAGE[status];
  return out;
}

/**
 * A timed call's result: its samples driven and timed by the parent
 * (`timeCall`), its value the worker's answer. Null: the worker died.
 */
async function timedResult(
  sampler: Sampler,
  t: TimedCall,
  hooksFor: (t: TimedCall) => SampleHooks,
): Promise<CallResult | null> {
  const times = await timeCall(sampler, {
    repeats: t.repeats,
    budgetMs: t.budgetMs,
    sampleMs: t.sampleMs,
    cpuBudgetMs: t.cpuBudgetMs,
  }, hooksFor(t));
  if (times === null) return null;
  if ("error" in times) return { ok: false, error: times.error };
  const v = await sampler.value();
  if (v === null) return null;
  const out = toCallResult({ ...v, ms: times.ms });
  if (!out.ok) return out;
  return {
    ...out,
    bestMs: times.bestMs,
    runs: times.runs,
    samplesMs: times.samplesMs,
    wallMs: times.wallMs,
  };
}

/** One worker answer to a CallResult (values revived in the parent). */
// deno-lint-ignore no-explicit-any
export function toCallResult(r: any): CallResult {
  if (r && r.ok === true && typeof r.ms === "number") {
    try {
      const out: CallResult = { ok: true, value: reviveValue(r.v), ms: r.ms };
      return out;
    } catch {
      return { ok: false, error: "Cannot decode the returned value" };
    }
  }
  return {
    ok: false,
    error: typeof r?.error === "string" ? r.error : "malformed result",
  };
}

/**
 * Runs programs in one worker (each in a process of its own) until done or
 * killed; a Pyodide worker runs only the first.
 */
export async function programsOnce(
  pool: Pool,
  req: ProgramsRequest,
): Promise<ProgramsResult> {
  const limits = limitsOf(req, "run programs", 60_000);
  const lease = await pool.acquire({
    language: "python",
    heapMb: limits.memoryMb,
  });
  const w = lease.worker;
  let results: ProgramResult[] = [];
  let status: RunStatus = "ok";
  try {
    await w.start({ programs: true }, limits);
    const load = await w.next();
    if (load === null) status = deadStatus(w);
    else {
      // Native workers fork a child per program; a Pyodide worker cannot
      // fork, so it runs one program and is replaced (no two candidates'
      // programs ever share an interpreter).
      const items = w.backend === "native"
        ? req.programs
        : req.programs.slice(0, 1);
      w.sendRaw(
        JSON.stringify({ t: "programs", items, guard: req.guard ?? true }),
      );
      const verdict = (r: ProgramResult) => ({
        ok: r?.ok === true,
        error: String(r?.error ?? ""),
        tainted: false,
      });
      // one "p1" frame per program as it ends (native), then "p" with all
      for (;;) {
        const m = await w.next();
        if (m !== null && m.t === "p1") results.push(verdict(m.r));
        else if (m !== null && m.t === "p" && Array.isArray(m.r)) {
          if (results.length === 0) results = m.r.map(verdict);
          break;
        } else {
          status = deadStatus(w);
          break;
        }
      }
    }
    if (w.killReason && w.killReason !== "closed") status = w.killReason;
  } finally {
    lease.release();
  }
  await w.exited;
  return {
    results,
    status,
    stdout: w.stdout,
    stderr: w.stderr,
    backend: w.backend,
    isolation: w.isolation,
  };
}

/**
 * Runs every program, starting a new worker after a killed batch (the
 * program that was running fails with the reason, the rest go on) and, on
 * Pyodide, after every program.
 */
export async function programsWith(
  pool: Pool,
  req: ProgramsRequest,
): Promise<ProgramsResult> {
  if (
    !Array.isArray(req.programs) ||
    !req.programs.every((p) =>
      typeof p?.code === "string" && typeof p?.entry === "string"
    )
  ) {
    throw new TypeError(
      "Cannot run programs: programs must be a list of { code, entry } with string fields",
    );
  }
  const out: ProgramResult[] = [];
  let stdout = "", stderr = "";
  let status: RunStatus = "ok";
  let backend: Backend = "pyodide";
  let isolation: Isolation = "rlimit";
  while (out.length < req.programs.length) {
    const rest = req.programs.slice(out.length);
    const r = await programsOnce(pool, { ...req, programs: rest });
    out.push(...r.results);
    backend = r.backend;
    isolation = r.isolation;
    stdout += r.stdout;
    stderr += r.stderr;
    if (r.status !== "ok" && out.length < req.programs.length) {
      status = r.status;
      out.push({
        ok: false,
        error: `the program stopped its worker: ${r.status}`,
        tainted: true,
      });
    } else if (r.results.length === 0 && r.status === "ok") {
      break;
    }
  }
  return { results: out, status, stdout, stderr, backend, isolation };
}
