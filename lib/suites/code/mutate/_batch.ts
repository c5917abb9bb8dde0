/**
 * Runs references and their mutants in few sandbox requests: a trusted
 * harness (`JS_BATCH` / `PY_BATCH`) loops over problems × sources × tests
 * inside the no-permission child and returns each source's outputs. One
 * request per mutant cost a process start each (and a ~1 s Pyodide restore
 * in Python), which made the bank take many minutes.
 *
 * A mutant that loops is stopped inside the child by its CPU budget (the
 * tick guards). When the request dies anyway (out of memory, a hang the
 * ticks cannot see), the progress lines on stdout name the source that was
 * running: that mutant is killed with the request's status and the batch
 * runs again without it.
 *
 * @module
 */
import type {
  CallResult,
  RunResult,
  Sandbox,
  SandboxValue,
} from "../../../sandbox/mod.ts";
import { guardJs, JS_BATCH } from "./_guard.ts";
import { PY_BATCH } from "./_py.ts";

/** What happened to one source of a batch. */
export type SourceRun =
  | { status: "ok"; results: CallResult[]; cpuMs: number }
  | { status: "load" | "timeout" | "died"; why: string; cpuMs: number };

/** One problem of a batch: its entry, test calls, reference and mutants. */
export interface BatchJob {
  entry: string;
  calls: unknown[][];
  reference: string;
  mutants: string[];
}

/** A job's outcome: the reference's run and each mutant's, in order. */
export interface JobRuns {
  reference: SourceRun;
  mutants: SourceRun[];
}

/** Limits of a batch. */
export interface BatchLimits {
  /** CPU budget of one mutant (all tests) at most, ms. */
  capMs: number;
  /** CPU budget of one mutant at least, ms. */
  floorMs: number;
  /** A mutant may use this many times its reference's CPU time. */
  factor: number;
}

type Row = [string, [boolean, unknown][], number, string];

function decodeJob(value: unknown, n: number): SourceRun[] | undefined {
  if (!Array.isArray(value) || value.length !== n) return undefined;
  return (value as Row[]).map(([status, rows, cpuMs, why]) =>
    status === "ok"
      ? {
        status: "ok" as const,
        cpuMs,
        results: rows.map(([ok, v]): CallResult =>
          ok
            ? { ok: true, value: v as SandboxValue, ms: 0 }
            : { ok: false, error: String(v) }
        ),
      }
      : {
        status: status === "load" ? "load" as const : "timeout" as const,
        cpuMs,
        why: status === "load" ? why : "out of CPU time",
      }
  );
}

/** The last (job, source) the harness started, from its stdout. */
function lastStarted(
  stdout: string,
  token: string,
): [number, number] | undefined {
  let last: [number, number] | undefined;
  for (const line of stdout.split("\n")) {
    if (!line.startsWith(token + " ")) continue;
    const [j, m] = line.slice(token.length + 1).split(" ").map(Number);
    if (Number.isInteger(j) && Number.isInteger(m)) last = [j!, m!];
  }
  return last;
}

function reason(r: RunResult): string {
  const first = r.results[0];
  return r.error ?? (first && !first.ok ? first.error : r.status);
}

/**
 * Runs every job's reference and mutants on its calls in one sandbox
 * request (more only when a mutant kills the request: it is then killed
 * and the rest run again).
 *
 * @throws {Error} When a reference itself kills the request.
 */
export async function runBatch(
  sandbox: Sandbox,
  language: "python" | "javascript",
  jobs: BatchJob[],
  limits: BatchLimits,
): Promise<{ runs: JobRuns[]; requests: number }> {
  const prepare = language === "javascript" ? guardJs : (s: string) => s;
  const sources = jobs.map((j) => [j.reference, ...j.mutants].map(prepare));
  const out: (SourceRun | undefined)[][] = jobs.map((j) =>
    new Array(j.mutants.length + 1)
  );
  // Per job, the source indices (0 = the reference) still to run.
  const pending = sources.map((s) => s.map((_, i) => i));
  let requests = 0;
  while (true) {
    const token = `@@mutant-${crypto.randomUUID()}`;
    const batch = jobs.map((
      j,
      k,
    ) => [j.entry, j.calls, pending[k]!.map((i) => sources[k]![i]!)]);
    const total = pending.reduce((a, p) => a + p.length, 0);
    requests++;
    const r = await sandbox.runCode({
      language,
      code: language === "javascript" ? JS_BATCH : PY_BATCH,
      entry: language === "javascript" ? "runMutants" : "run_mutants",
      calls: [[batch, limits.floorMs, limits.factor, limits.capMs, token]],
      // Every mutant may spend its whole budget; wall time runs slower
      // than CPU time on a busy machine, hence the margin.
      timeoutMs: 30_000 + 2 * limits.capMs * total,
      memoryMb: 1024,
    });
    const first = r.results[0];
    const value = r.status === "ok" && first?.ok ? first.value : undefined;
    const decoded = Array.isArray(value) && value.length === jobs.length
      ? value.map((v, k) => decodeJob(v, pending[k]!.length))
      : undefined;
    if (decoded && decoded.every((d) => d !== undefined)) {
      decoded.forEach((runs, k) =>
        pending[k]!.forEach((i, x) => (out[k]![i] = runs![x]))
      );
      break;
    }
    const died = lastStarted(r.stdout, token);
    if (died === undefined || r.status === "ok") {
      throw new Error(
        `Cannot run the mutants in ${language}: the batch failed before any source ran (${
          reason(r)
        }); run one reference alone to see why`,
      );
    }
    const [k, x] = died;
    const victim = pending[k]![x]!;
    if (victim === 0) {
      throw new Error(
        `Cannot run the mutants in ${language}: the reference of job ${k} (${
          jobs[k]!.entry
        }) stopped the sandbox (${reason(r)}); fix the reference first`,
      );
    }
    out[k]![victim] = {
      status: "died",
      cpuMs: 0,
      why: `the batch died: ${reason(r)}`,
    };
    pending[k] = pending[k]!.filter((i) => i !== victim);
  }
  return {
    runs: out.map((runs) => ({
      reference: runs[0]!,
      mutants: runs.slice(1).map((x) => x!),
    })),
    requests,
  };
}
