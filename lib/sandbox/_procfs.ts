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

/**
 * Every live descendant of `root` (children, their children, ...), found
 * by one pass over `/proc/<pid>/stat`.
 */
export function descendants(root: number): number[] {
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
