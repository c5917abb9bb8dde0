/**
 * Reading processes from the parent's side through `/proc`: resident
 * memory of one process, and the processes a sandbox started (its
 * descendants), so a memory limit is watched from outside the sandbox.
 *
 * Written here rather than taken from a library: the npm process-tree
 * packages (`pidtree`, `ps-tree`) spawn `ps` on every call, which is far
 * too slow for a watch every 25 ms.
 *
 * @module
 */

const PAGE_MB = 4096 / (1024 * 1024);

/**
 * Thrown when Deno will not let this process read `/proc/<pid>` (it asks
 * for `--allow-all` there, whatever `--allow-read` says): the memory of
 * the sandbox's workers cannot be watched.
 */
export class ProcUnreadable extends Error {
  override name = "ProcUnreadable";
}

function unreadable(error: unknown): boolean {
  return error instanceof Deno.errors.NotCapable ||
    error instanceof Deno.errors.PermissionDenied;
}

/**
 * Resident memory of a process in MiB, or undefined when it is gone.
 * @throws {ProcUnreadable} when Deno refuses to read /proc.
 */
export function rssMb(pid: number): number | undefined {
  try {
    // statm: size resident shared text lib data dt, in pages
    const text = Deno.readTextFileSync(`/proc/${pid}/statm`);
    const resident = Number(text.split(" ")[1]);
    return Number.isFinite(resident) ? resident * PAGE_MB : undefined;
  } catch (error) {
    if (unreadable(error)) {
      throw new ProcUnreadable(
        `Cannot watch the sandbox's memory: Deno reads /proc/${pid} only with --allow-all (${
          error instanceof Error ? error.message : error
        }); run with --allow-all, as deno task sweep, demo and sandbox do`,
      );
    }
    return undefined;
  }
}

/** Linux's USER_HZ: `/proc/<pid>/stat` counts CPU time in 10 ms ticks. */
const TICK_MS = 10;

/**
 * CPU time (user + system) of the given processes so far, in ms, at the
 * kernel's 10 ms resolution; processes that are gone count 0.
 */
export function cpuMs(pids: readonly number[]): number {
  let total = 0;
  for (const pid of pids) {
    try {
      const text = Deno.readTextFileSync(`/proc/${pid}/stat`);
      // after "(comm)": state ppid ... utime (14th field) stime (15th)
      const fields = text.slice(text.lastIndexOf(")") + 2).split(" ");
      total += (Number(fields[11]) + Number(fields[12])) * TICK_MS;
    } catch {
      // gone
    }
  }
  return total;
}

/** The `/proc` folder of every task (thread) of `pids`, but those in `skip`. */
function taskDirs(
  pids: readonly number[],
  skip: ReadonlySet<string>,
): string[] {
  const out: string[] = [];
  for (const pid of pids) {
    try {
      for (const t of Deno.readDirSync(`/proc/${pid}/task`)) {
        if (!skip.has(t.name)) out.push(`/proc/${pid}/task/${t.name}`);
      }
    } catch (error) {
      if (unreadable(error)) throw new ProcUnreadable(String(error));
      // gone
    }
  }
  return out;
}

/** How long `settleTasks` waits at most for a task to stop running. */
const SETTLE_MS = 2;

/**
 * Waits (a few microseconds, at most 2 ms) until no task of `pids` but
 * those in `skip` is running (`R` in its `stat`). The kernel brings a
 * task's CPU account (its `schedstat`, its cgroup's `cpuacct.usage`) up to
 * date when the task stops running and at scheduler ticks, so read after
 * this, while the worker waits for its next command, the figure is exact.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { settleTasks } from "./_procfs.ts";
 * const t0 = performance.now();
 * settleTasks([Deno.pid]); // this thread is running: it gives up at 2 ms
 * assert.ok(performance.now() - t0 >= 1.9);
 * ```
 */
export function settleTasks(
  pids: readonly number[],
  skip: ReadonlySet<string> = new Set(),
): void {
  const until = performance.now() + SETTLE_MS;
  for (const dir of taskDirs(pids, skip)) {
    try {
      while (running(dir) && performance.now() < until) {
        // it is about to wait on its input
      }
    } catch {
      // the thread ended
    }
  }
}

/**
 * CPU time in ns that the tasks (every thread) of the given processes have
 * run so far, from the scheduler's own account (`/proc/<pid>/task/<tid>/
 * schedstat`, first field: nanoseconds on a CPU), so timings are read from
 * outside the measured process rather than reported by it (exact for
 * tasks that `settleTasks` saw stop). Threads that already ended are not
 * in it (the process's total keeps them only in 10 ms ticks: `cpuMs`).
 * Processes or threads that are gone count 0, and the thread ids in
 * `skip` are left out.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { tasksCpuNs } from "./_procfs.ts";
 * const a = tasksCpuNs([Deno.pid]);
 * let x = 0;
 * for (let i = 0; i < 2_000_000; i++) x += i % 7;
 * assert.ok(x > 0 && tasksCpuNs([Deno.pid]) > a);
 * ```
 */
export function tasksCpuNs(
  pids: readonly number[],
  skip: ReadonlySet<string> = new Set(),
): number {
  let total = 0;
  for (const dir of taskDirs(pids, skip)) {
    try {
      const text = Deno.readTextFileSync(`${dir}/schedstat`);
      total += Number(text.slice(0, text.indexOf(" ")));
    } catch {
      // the thread ended
    }
  }
  return total;
}

/**
 * The thread ids of V8's platform workers (named "V8 DefaultWorke…") in a
 * process: background compilers and collectors.
 */
export function platformThreads(pid: number): Set<string> {
  const out = new Set<string>();
  try {
    for (const t of Deno.readDirSync(`/proc/${pid}/task`)) {
      try {
        const st = Deno.readTextFileSync(`/proc/${pid}/task/${t.name}/comm`);
        if (st.startsWith("V8 DefaultWorke")) out.add(t.name);
      } catch {
        // ended
      }
    }
  } catch {
    // gone
  }
  return out;
}

/** Whether the task whose `/proc` folder this is is running now. */
function running(dir: string): boolean {
  const text = Deno.readTextFileSync(`${dir}/stat`);
  return text.charCodeAt(text.lastIndexOf(")") + 2) === 82; // "R"
}

/** The parent pid in `/proc/<pid>/stat`, or undefined. */
function parentOf(pid: string): number | undefined {
  try {
    const text = Deno.readTextFileSync(`/proc/${pid}/stat`);
    // "pid (comm) state ppid ...": comm may hold spaces and parentheses
    const close = text.lastIndexOf(")");
    const ppid = Number(text.slice(close + 2).split(" ")[1]);
    return Number.isFinite(ppid) ? ppid : undefined;
  } catch {
    return undefined;
  }
}

/** Whether `/proc/<pid>/task/<tid>/children` exists (CONFIG_PROC_CHILDREN). */
let childrenFiles: boolean | undefined;

/** The children of every thread of `pid`, or undefined without the files. */
function childrenOf(pid: number): number[] | undefined {
  let tasks: string[];
  try {
    tasks = [...Deno.readDirSync(`/proc/${pid}/task`)].map((e) => e.name);
  } catch (error) {
    if (unreadable(error)) throw new ProcUnreadable(String(error));
    return []; // gone
  }
  const out: number[] = [];
  for (const tid of tasks) {
    let text: string;
    try {
      text = Deno.readTextFileSync(`/proc/${pid}/task/${tid}/children`);
    } catch (error) {
      if (unreadable(error)) throw new ProcUnreadable(String(error));
      if (error instanceof Deno.errors.NotFound) {
        if (!existsTask(pid, tid)) continue; // the thread ended
        childrenFiles = false;
        return undefined;
      }
      continue;
    }
    for (const word of text.split(/\s+/)) {
      if (word !== "") out.push(Number(word));
    }
  }
  return out;
}

function existsTask(pid: number, tid: string): boolean {
  try {
    Deno.statSync(`/proc/${pid}/task/${tid}`);
    return true;
  } catch {
    return false;
  }
}

/**
 * Every live descendant of `root` (children, their children, ...): from
 * each thread's `children` file where the kernel has them (a few reads
 * per process), else by one pass over every `/proc/<pid>/stat`.
 */
export function descendants(root: number): number[] {
  if (childrenFiles !== false) {
    const out: number[] = [];
    const todo = [root];
    let complete = true;
    while (todo.length > 0) {
      const kids = childrenOf(todo.pop()!);
      if (kids === undefined) {
        complete = false;
        break;
      }
      out.push(...kids);
      todo.push(...kids);
    }
    if (complete) {
      childrenFiles = true;
      return out;
    }
  }
  return scanDescendants(root);
}

/** `descendants` by one pass over `/proc/<pid>/stat`. */
function scanDescendants(root: number): number[] {
  const children = new Map<number, number[]>();
  try {
    for (const entry of Deno.readDirSync("/proc")) {
      const c = entry.name.charCodeAt(0);
      if (c < 48 || c > 57) continue;
      const ppid = parentOf(entry.name);
      if (ppid === undefined) continue;
      const list = children.get(ppid);
      if (list) list.push(Number(entry.name));
      else children.set(ppid, [Number(entry.name)]);
    }
  } catch (error) {
    if (unreadable(error)) throw new ProcUnreadable(String(error));
    return [];
  }
  const out: number[] = [];
  const todo = [root];
  while (todo.length > 0) {
    for (const child of children.get(todo.pop()!) ?? []) {
      out.push(child);
      todo.push(child);
    }
  }
  return out;
}

/** Resident memory of a process and of the given other processes, in MiB. */
export function totalRssMb(pids: readonly number[]): number | undefined {
  let total: number | undefined;
  for (const pid of pids) {
    const mb = rssMb(pid);
    if (mb !== undefined) total = (total ?? 0) + mb;
  }
  return total;
}

/** This process's uid (`Deno.uid()`, else /proc), or undefined. */
export function ownUid(): number | undefined {
  try {
    const id = Deno.uid();
    if (id !== null) return id;
  } catch {
    // no --allow-sys
  }
  try {
    const m = /^Uid:\s+(\d+)/m.exec(Deno.readTextFileSync("/proc/self/status"));
    return m ? Number(m[1]) : undefined;
  } catch {
    return undefined;
  }
}
