/**
 * Quiet cores for timing: the CPUs this process may use are split into
 * work cores, where every sandbox worker starts, and timing cores, to
 * which a worker is moved for its timed part while it holds that core's
 * lock. Workers are confined to the work cores only once timing has
 * begun, so a process that never times keeps every core for its runs. A
 * timing then has a core to itself while the other cores go on judging,
 * instead of the whole machine waiting for it: on 2 cores the known-class
 * programs were measured as declared as often with a CPU and memory hog
 * pinned to the other core as on an idle machine (JavaScript 106 of 118
 * both ways, native Python 92 and 89 of 100).
 *
 * The locks are per process, not per pool, so two pools (the suite's and
 * the quality pool) never time on one core at once.
 *
 * Moves are libc's `sched_setaffinity` through Deno's FFI, on every
 * thread of every process of a worker's tree; a worker starts on the work
 * cores because the main thread, which spawns it, holds the work cores'
 * mask for the spawn only (a child inherits its parent thread's mask).
 * This was `taskset` (util-linux), one process per move and a wrapper per
 * worker: in a whole-bank sweep on a 2-core VM the parent spent 4.7 s of
 * its main thread spawning them (each start also cost the machine a
 * process, ~6 ms there). The sandbox runs only with `--allow-all` anyway
 * (Deno reads `/proc/<pid>` only then, `_procfs.ts`), which includes FFI.
 * Without it (`--deny-ffi`, or no glibc) there is no split: timing runs
 * alone in its pool.
 *
 * @module
 */

/** How the CPUs are split, or null where they cannot be (one CPU, no FFI). */
export interface CoreSplit {
  work: number[];
  timing: number[];
}

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

let split: CoreSplit | null | undefined;
/** Every CPU this process may use (the main thread's mask after a spawn). */
let allCpus: number[] = [];

/**
 * The split of this process's CPUs: the last `timing` of them are timing
 * cores, the rest work cores; null with fewer than 2 CPUs, without FFI,
 * off Linux, or when `CALC_BENCH_QUIET_CORES=0`.
 */
export function coreSplit(timing: number): CoreSplit | null {
  if (split !== undefined) return split && resplit(split, timing);
  split = null;
  try {
    if (Deno.build.os !== "linux") return null;
    if (Deno.env.get("CALC_BENCH_QUIET_CORES") === "0") return null;
  } catch {
    // no env permission: the default applies
  }
  let cpus: number[] = [];
  try {
    const status = Deno.readTextFileSync("/proc/self/status");
    const line = status.split("\n").find((l) =>
      l.startsWith("Cpus_allowed_list:")
    );
    cpus = line ? parseCpuList(line.split(":")[1] ?? "") : [];
  } catch {
    return null;
  }
  if (cpus.length < 2 || affinityCall() === null) return null;
  allCpus = cpus;
  split = { work: cpus, timing: [] };
  return resplit(split, timing);
}

function resplit(all: CoreSplit, timing: number): CoreSplit | null {
  const cpus = [...all.work, ...all.timing].sort((a, b) => a - b);
  const t = Math.min(Math.max(1, timing), cpus.length - 1);
  return {
    work: cpus.slice(0, cpus.length - t),
    timing: cpus.slice(cpus.length - t),
  };
}

let confined = false;

/**
 * Whether workers start on the work cores: from the first timed lease of
 * any pool on (before it, and in a process that never times, workers may
 * use every core).
 */
export function workersConfined(): boolean {
  return confined;
}

/** Marks that timing on cores has begun (see {@linkcode workersConfined}). */
export function confineWorkers(): void {
  confined = true;
}

/**
 * Starts a process on the work cores: `spawn` runs while the calling
 * (main) thread holds the work cores' mask, which the child inherits.
 *
 * @param cores The split.
 * @param spawn Starts the process (synchronously).
 * @returns What `spawn` returned.
 */
export function onWorkCores<T>(cores: CoreSplit, spawn: () => T): T {
  const set = affinityCall()!;
  set(0, maskOf(cores.work));
  try {
    return spawn();
  } finally {
    set(0, maskOf(allCpus));
  }
}

/** One lock per timing core, shared by every pool of this process. */
const held = new Map<number, boolean>();
const waiting: (() => void)[] = [];

/**
 * Takes a free timing core (waits, FIFO, when all are held).
 *
 * @returns The core and the function that gives it back.
 */
export async function takeTimingCore(
  cores: CoreSplit,
): Promise<{ core: number; give: () => void }> {
  for (;;) {
    const free = cores.timing.find((c) => !held.get(c));
    if (free !== undefined) {
      held.set(free, true);
      let given = false;
      return {
        core: free,
        give: () => {
          if (given) return;
          given = true;
          held.set(free, false);
          waiting.shift()?.();
        },
      };
    }
    await new Promise<void>((res) => waiting.push(res));
  }
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
