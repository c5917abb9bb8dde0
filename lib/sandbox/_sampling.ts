/**
 * Timed samples measured from outside the candidate's process: the parent
 * asks the worker to get k calls ready, reads the worker's CPU time from
 * the kernel (`WorkerProcess.cpuNs`: every thread of every process in its
 * tree), tells it to run them, and reads the CPU time again when the
 * worker says they are done. The worker reports values only, never a
 * time, so code that rewrites the worker's helpers, its clocks or its
 * result frames cannot make itself look faster: it can only do less work
 * per call.
 *
 * A round trip's own cost (reading the command, writing the answer) is
 * measured with k = 0 calls on the same worker and taken off each sample.
 * Written here: no library times a sandboxed process's calls from outside.
 *
 * @module
 */
import type { WorkerProcess } from "./_process.ts";

/** A sample's CPU time (round trip's own cost taken off) and wall time, ms. */
export interface Sample {
  cpuMs: number;
  wallMs: number;
}

/** A sample, or the error its calls raised, or null: the worker died. */
export type SampleOutcome = Sample | { error: string } | null;

/** Round trips with no calls that fix a worker's own cost of one. */
const OVERHEAD_TRIPS = 5;

/** The samples of one worker. */
export class Sampler {
  private overheadMs: number | undefined;

  /** @param w A worker whose program has loaded. */
  constructor(private w: WorkerProcess) {}

  /** Makes a measured size's held arguments the target. */
  targetHeld(id: number): Promise<void> {
    return this.w.sendRaw(`{"t":"target","h":${id}}`);
  }

  private async trip(k: number): Promise<SampleOutcome> {
    const w = this.w;
    await w.sendRaw(`{"t":"prep","k":${k}}`);
    const ready = await w.next();
    if (ready === null || ready.t !== "ready") return null;
    const c0 = w.cpuNs();
    const t0 = performance.now();
    await w.sendRaw('{"t":"run"}');
    const done = await w.next();
    const t1 = performance.now();
    const c1 = w.cpuNs();
    if (done === null || done.t !== "done") return null;
    if (done.r?.ok !== true) {
      return {
        error: typeof done.r?.error === "string" ? done.r.error : "no result",
      };
    }
    return { cpuMs: (c1 - c0) / 1e6, wallMs: t1 - t0 };
  }

  /** The least CPU time of a round trip with no calls, ms. */
  private async overhead(): Promise<number | null> {
    if (this.overheadMs !== undefined) return this.overheadMs;
    let least = Infinity;
    for (let i = 0; i < OVERHEAD_TRIPS; i++) {
      const s = await this.trip(0);
      if (s === null || "error" in s) return null;
      least = Math.min(least, s.cpuMs);
    }
    return this.overheadMs = least;
  }

  /** k calls of the target, timed. */
  async sample(k: number): Promise<SampleOutcome> {
    const over = await this.overhead();
    if (over === null) return null;
    const s = await this.trip(k);
    if (s === null || "error" in s) return s;
    return { cpuMs: Math.max(s.cpuMs - over, 0), wallMs: s.wallMs };
  }

  /** The target's first call's value, as the worker's answer. */
  // deno-lint-ignore no-explicit-any
  async value(): Promise<any | null> {
    await this.w.sendRaw('{"t":"value"}');
    const m = await this.w.next();
    return m === null || m.t !== "v" ? null : m.r;
  }

  /** Ends a timed call's samples: the worker goes on to the next call. */
  next(): Promise<void> {
    return this.w.sendRaw('{"t":"next"}');
  }
}

/** How a timed call is sampled (see `TimedCall`). */
export interface TimedSpec {
  repeats: number;
  budgetMs: number;
  sampleMs: number;
  cpuBudgetMs: number;
}

/** What runs around each sample: the quiet CPU, a timing pair's turns. */
export interface SampleHooks {
  before(first: boolean): Promise<void>;
  after(): void;
}

/** A timed call's times, measured by the parent. */
export interface TimedTimes {
  /** The least wall time per call of a sample (or the first call's). */
  ms: number;
  /** The least CPU time per call of a sample (or the first call's). */
  bestMs: number;
  runs: number;
  samplesMs: number[];
  wallMs: number;
}

/** Most calls in one sample. */
const MAX_CALLS = 1000;
/**
 * The least CPU time a sample gathers (more calls when a call is faster):
 * a round trip's own cost varies by some microseconds from one to the
 * next, which must stay a small part of what a sample measures.
 */
export const MIN_SAMPLE_MS = 0.5;

/**
 * A timed call: the first call gives the value (and a time of its own);
 * then up to `repeats` samples, each of as many calls as take `sampleMs`
 * (at least `MIN_SAMPLE_MS`) of CPU time (at most 1,000 calls), give the time per call, and the least of
 * those is the call's time (a sample averages over collections and
 * caches; the least sample drops what other processes did). Every call
 * sees the arguments as they were (a fresh copy, made outside the timed
 * window, when the first call changed them). No more samples once they
 * took `budgetMs` of wall time, nor past the third once they took
 * `cpuBudgetMs` of CPU time (0: no such budget) and the last was not 5 %
 * faster than the best before it.
 *
 * @returns The times, the error of a call that raised, or null: the
 *   worker died.
 */
export async function timeCall(
  s: Sampler,
  spec: TimedSpec,
  hooks: SampleHooks,
): Promise<TimedTimes | { error: string } | null> {
  const started = performance.now();
  const first = await s.sample(1);
  if (first === null || "error" in first) return first;
  let bestCpu = first.cpuMs, bestWall = first.wallMs;
  let spent = first.wallMs, calls = 1, sampled = 0, gaining = true, k = 1;
  const samplesMs: number[] = [];
  const least = Math.min(3, spec.repeats);
  const sampleMs = Math.max(spec.sampleMs, MIN_SAMPLE_MS);
  for (let r = 0; r < spec.repeats && spent < spec.budgetMs; r++) {
    if (
      spec.cpuBudgetMs > 0 && r >= least && sampled >= spec.cpuBudgetMs &&
      !gaining
    ) break;
    await hooks.before(r === 0);
    let cpu = 0, wall = 0, n = 0;
    try {
      while (
        n < 1 || (cpu < sampleMs && n < MAX_CALLS && spent < spec.budgetMs)
      ) {
        // the next chunk: what the sample still needs at its rate so far
        const want = n === 0
          ? k
          : cpu > 0
          ? Math.ceil((sampleMs - cpu) / (cpu / n))
          : n;
        const chunk = Math.max(1, Math.min(want, MAX_CALLS - n));
        const got = await s.sample(chunk);
        if (got === null || "error" in got) return got;
        cpu += got.cpuMs;
        wall += got.wallMs;
        spent += got.wallMs;
        n += chunk;
      }
    } finally {
      hooks.after();
    }
    k = n;
    calls += n;
    sampled += cpu;
    // still warming up (a JIT tiering up): the sample beat the best by 5 %
    gaining = cpu / n < 0.95 * bestCpu;
    samplesMs.push(cpu / n);
    if (cpu / n < bestCpu) bestCpu = cpu / n;
    if (wall / n < bestWall) bestWall = wall / n;
  }
  return {
    ms: bestWall,
    bestMs: bestCpu,
    runs: calls,
    samplesMs,
    wallMs: performance.now() - started,
  };
}

/**
 * Times the entry on a measured size's held arguments: `reps` samples of
 * CPU ms per call, the first of which doubles the calls per sample (from
 * `k0`, two timings per k so a one-off slow run does not fix k too low)
 * until a sample takes `minMs`.
 *
 * @returns `{ ok, ms, k }`, `{ ok: false, error }`, or null: the worker died.
 */
export async function measureHeld(
  s: Sampler,
  id: number,
  reps: number,
  minMs: number,
  k0: number,
): Promise<
  { ok: true; ms: number[]; k: number } | { ok: false; error: string } | null
> {
  await s.targetHeld(id);
  let k = k0 >= 1 ? k0 : 1;
  const ms: number[] = [];
  for (let r = 0; r < reps; r++) {
    let el: number;
    while (true) {
      el = Infinity;
      for (let t = 0; t < (r === 0 ? 2 : 1); t++) {
        const got = await s.sample(k);
        if (got === null) return null;
        if ("error" in got) return { ok: false, error: got.error };
        el = Math.min(el, got.cpuMs);
      }
      if (r > 0 || el >= minMs || k >= 1 << 22) break;
      k *= 2;
    }
    ms.push(el / k);
  }
  return { ok: true, ms, k };
}
