/**
 * Quiet cores for timing: the CPUs this process may use are split into
 * work cores, where every sandbox worker starts (`taskset -c`), and timing
 * cores, to which a worker is moved (`taskset -a -p`) for its timed part
 * while it holds that core's lock. Workers are confined to the work cores
 * only once timing has begun, so a process that never times keeps every
 * core for its runs. A timing then has a core to itself
 * while the other cores go on judging, instead of the whole machine
 * waiting for it: on 2 cores the known-class programs were measured as
 * declared as often with a CPU and memory hog pinned to the other core as
 * on an idle machine (JavaScript 106 of 118 both ways, native Python 92
 * and 89 of 100).
 *
 * The locks are per process, not per pool, so two pools (the suite's and
 * the quality pool) never time on one core at once.
 *
 * `taskset` (util-linux) rather than `sched_setaffinity` through FFI: the
 * sandbox must not need `--allow-ffi`, and a move costs one short process
 * per timed request (about 1 ms).
 *
 * @module
 */

/** How the CPUs are split, or null where they cannot be (one CPU, no taskset). */
export interface CoreSplit {
  taskset: string;
  work: number[];
  timing: number[];
}

const TASKSET_PATHS = ["/usr/bin/taskset", "/bin/taskset"];

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

/**
 * The split of this process's CPUs: the last `timing` of them are timing
 * cores, the rest work cores; null with fewer than 2 CPUs, without
 * `taskset`, off Linux, or when `CALC_BENCH_QUIET_CORES=0`.
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
  const taskset = TASKSET_PATHS.find((p) => {
    try {
      return Deno.statSync(p).isFile;
    } catch {
      return false;
    }
  });
  if (cpus.length < 2 || taskset === undefined) return null;
  split = { taskset, work: cpus, timing: [] };
  return resplit(split, timing);
}

function resplit(all: CoreSplit, timing: number): CoreSplit | null {
  const cpus = [...all.work, ...all.timing].sort((a, b) => a - b);
  const t = Math.min(Math.max(1, timing), cpus.length - 1);
  return {
    taskset: all.taskset,
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

/** The command line that starts `command` on the work cores. */
export function onWorkCores(
  cores: CoreSplit,
  command: string,
  args: string[],
): { command: string; args: string[] } {
  return {
    command: cores.taskset,
    args: ["-c", cores.work.join(","), command, ...args],
  };
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
 * when a move failed (a process that already ended is not a failure).
 */
export async function pinTo(
  cores: CoreSplit,
  pids: readonly number[],
  to: readonly number[],
): Promise<boolean> {
  const results = await Promise.all(pids.map(async (pid) => {
    try {
      const out = await new Deno.Command(cores.taskset, {
        args: ["-a", "-p", "-c", to.join(","), String(pid)],
        stdin: "null",
        stdout: "null",
        stderr: "piped",
      }).output();
      if (out.success) return true;
      // the process ended between the listing and the move
      return !existsProc(pid);
    } catch {
      return false;
    }
  }));
  return results.every(Boolean);
}

function existsProc(pid: number): boolean {
  try {
    Deno.statSync(`/proc/${pid}`);
    return true;
  } catch {
    return false;
  }
}
