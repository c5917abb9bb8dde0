/**
 * Quiet cores for timing: a timed part of a request (a complexity
 * measurement, a large input's samples) takes a CPU of its own for as
 * long as it runs, and every other sandbox worker of this process is
 * moved off that CPU meanwhile, so contention for a core does not enter
 * the times while the other CPUs go on judging. On 2 cores the
 * known-class programs were measured as declared as often with a CPU and
 * memory hog pinned to the other core as on an idle machine (JavaScript
 * 106 of 118 both ways, native Python 92 and 89 of 100).
 *
 * Which CPUs time is not fixed. Any CPU no timing holds runs work, and a
 * timing takes the last such CPU only while no work runs or waits; work
 * that arrives then waits for the first CPU given back. This was a fixed
 * split (the last `timingConcurrency` CPUs timed, the others worked): in
 * a whole-bank sweep on 2 cores the work core stood idle 25 s while
 * timings queued for the timing core, and the timing core 11 s while
 * work queued for the work core, of a 115 s sweep. With CPUs that switch
 * the same sweep took 106 s with one measurement at a time and 97–103 s
 * (3 runs) with one per CPU (`timingConcurrency`'s default since), both
 * cores 98 % busy. Complexity did not suffer measurably: the sweep's
 * known-class rows agreed 87–95 % (2 runs) against 88–94 % before, and
 * the bank's known-class programs, 3 repetitions in one session, 91.3 %
 * (Python) and 87.6 % (JavaScript) against 91.0/89.3 and 91.0/88.1 % for
 * the fixed split.
 *
 * The state is per process, not per pool, so two pools (the suite's and
 * the quality pool) never time on one core at once, and the work of both
 * keeps off a timing's core.
 *
 * Moves are libc's `sched_setaffinity` through Deno's FFI, on every
 * thread of every process of a worker's tree; a worker starts where it
 * should because the main thread, which spawns it, holds that mask for
 * the spawn only (a child inherits its parent thread's mask). This was
 * `taskset` (util-linux), one process per move and a wrapper per worker:
 * in a whole-bank sweep on a 2-core VM the parent spent 4.7 s of its main
 * thread spawning them (each start also cost the machine a process, ~6 ms
 * there). The sandbox runs only with `--allow-all` anyway (Deno reads
 * `/proc/<pid>` only then, `_procfs.ts`), which includes FFI. Without it
 * (`--deny-ffi`, or no glibc) there are no timing cores: timing runs
 * alone in its pool.
 *
 * @module
 */

/** `sched_setaffinity(tid, size, mask)`: 0, or -1 when it failed. */
type SetAffinity = (tid: number, mask: Uint8Array) => number;

let setAffinity: SetAffinity | null | undefined;

/** libc's `sched_setaffinity` where FFI is allowed, else null. */
function affinityCall(): SetAffinity | null {
  if (setAffinity !== undefined) return setAffinity;
  setAffinity = null;
  try {
    if (Deno.permissions.querySync({ name: "ffi" }).state !== "granted") {
      return null;
    }
    const lib = Deno.dlopen("libc.so.6", {
      sched_setaffinity: {
        parameters: ["i32", "usize", "buffer"],
        result: "i32",
      },
    });
    const call = lib.symbols.sched_setaffinity;
    setAffinity = (tid, mask) => call(tid, BigInt(mask.length), mask);
  } catch {
    setAffinity = null; // no libc.so.6 (musl, not Linux): no split
  }
  return setAffinity;
}

/** A CPU mask as `sched_setaffinity` takes it (1,024 CPUs). */
function maskOf(cpus: readonly number[]): Uint8Array {
  const mask = new Uint8Array(128);
  for (const c of cpus) mask[c >> 3]! |= 1 << (c & 7);
  return mask;
}

/** Parses a Linux CPU list such as `0-3,8,10-11`. */
export function parseCpuList(text: string): number[] {
  const out: number[] = [];
  for (const part of text.trim().split(",")) {
    if (part === "") continue;
    const [a, b] = part.split("-").map(Number);
    if (!Number.isInteger(a)) return [];
    const hi = b === undefined ? a! : b;
    if (!Number.isInteger(hi) || hi < a!) return [];
    for (let c = a!; c <= hi; c++) out.push(c);
  }
  return out;
}

let cpus: number[] | null | undefined;

/**
 * The CPUs timing may take, every CPU this process may use; null with
 * fewer than 2, without FFI, off Linux, or when
 * `CALC_BENCH_QUIET_CORES=0` (then timing runs alone in its pool).
 */
export function quietCpus(): readonly number[] | null {
  if (cpus !== undefined) return cpus;
  cpus = null;
  try {
    if (Deno.build.os !== "linux") return null;
    if (Deno.env.get("CALC_BENCH_QUIET_CORES") === "0") return null;
  } catch {
    // no env permission: the default applies
  }
  let found: number[] = [];
  try {
    const status = Deno.readTextFileSync("/proc/self/status");
    const line = status.split("\n").find((l) =>
      l.startsWith("Cpus_allowed_list:")
    );
    found = line ? parseCpuList(line.split(":")[1] ?? "") : [];
  } catch {
    return null;
  }
  if (found.length < 2 || affinityCall() === null) return null;
  cpus = found;
  return cpus;
}

/** CPUs held by a timing. */
const held = new Set<number>();
/** Bumped whenever the work CPUs change. */
let generation = 0;
/** Work running now (started workers not yet ready, work leases). */
const busy = new Set<Work>();
const workWaiting: { work: Work; let: () => void }[] = [];
const timingWaiting: ((core: number) => void)[] = [];

/**
 * One piece of work counted until `end()`: while it runs no timing takes
 * the last work CPU, and the processes `tree` names (set once the worker
 * exists) follow the work CPUs as timings take and give them.
 */
export interface Work {
  tree: (() => number[]) | null;
  end(): void;
}

/** The CPUs no timing holds (every CPU when none does). */
export function workCpus(): number[] {
  return (cpus ?? []).filter((c) => !held.has(c));
}

/** The work CPUs' generation: a process pinned at another one is stale. */
export function workGeneration(): number {
  return generation;
}

/**
 * Waits for a work CPU, then counts one piece of work until its `end()`.
 *
 * @returns The work, with `tree` still null.
 */
export function beginWork(): Promise<Work> {
  const work: Work = {
    tree: null,
    end: () => {
      if (!busy.delete(work)) return;
      if (busy.size === 0) grant();
    },
  };
  if (!cpus) return Promise.resolve(work); // no timing cores: not counted
  return new Promise((res) => {
    workWaiting.push({ work, let: () => res(work) });
    grant();
  });
}

/** Moves the running work to the work CPUs (after they changed). */
function followWork(): void {
  const to = workCpus();
  if (to.length === 0) return;
  for (const w of busy) if (w.tree) pinTo(w.tree(), to);
}

/** Lets waiting work in (first), then waiting timings onto free CPUs. */
function grant(): void {
  if (workCpus().length > 0) {
    for (const waiting of workWaiting.splice(0)) {
      busy.add(waiting.work);
      waiting.let();
    }
  }
  while (timingWaiting.length > 0) {
    const free = workCpus();
    // the last work CPU only while no work runs (or waits: it ran first)
    if (free.length === 0 || (free.length === 1 && busy.size > 0)) break;
    const core = free.at(-1)!;
    held.add(core);
    generation++;
    followWork();
    timingWaiting.shift()!(core);
  }
}

/**
 * Starts a process on the given CPUs: `spawn` runs while the calling
 * (main) thread holds their mask, which the child inherits.
 *
 * @param on The CPUs.
 * @param spawn Starts the process (synchronously).
 * @returns What `spawn` returned.
 */
export function onCpus<T>(on: readonly number[], spawn: () => T): T {
  const set = affinityCall()!;
  set(0, maskOf(on));
  try {
    return spawn();
  } finally {
    set(0, maskOf(cpus ?? []));
  }
}

/**
 * Takes a CPU for a timing (waits, FIFO, while every CPU is held or the
 * last free one runs work); the running work moves off it at once. Only
 * where {@linkcode quietCpus} gave CPUs (else it would wait forever).
 *
 * @returns The core and the function that gives it back (idempotent).
 */
export async function takeTimingCore(): Promise<
  { core: number; give: () => void }
> {
  const core = await new Promise<number>((res) => {
    timingWaiting.push(res);
    grant();
  });
  let given = false;
  return {
    core,
    give: () => {
      if (given) return;
      given = true;
      held.delete(core);
      generation++;
      followWork();
      grant();
    },
  };
}

/**
 * Moves every thread of the given processes to the given cores; false
 * when a move failed (a process or thread that already ended is not a
 * failure).
 */
export function pinTo(
  pids: readonly number[],
  to: readonly number[],
): boolean {
  const set = affinityCall();
  if (set === null) return false;
  const mask = maskOf(to);
  for (const pid of pids) {
    let tids: string[];
    try {
      tids = [...Deno.readDirSync(`/proc/${pid}/task`)].map((e) => e.name);
    } catch {
      continue; // ended
    }
    for (const tid of tids) {
      if (set(Number(tid), mask) !== 0 && existsProc(`${pid}/task/${tid}`)) {
        return false;
      }
    }
  }
  return true;
}

function existsProc(path: string): boolean {
  try {
    Deno.statSync(`/proc/${path}`);
    return true;
  } catch {
    return false;
  }
}
