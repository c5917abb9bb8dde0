/**
 * A memory and pids cgroup per sandbox worker, where the machine lets this
 * process make one: cgroup v2 (`memory.max`, `memory.swap.max`,
 * `pids.max`) when a writable v2 hierarchy offers the memory and pids
 * controllers, else cgroup v1's memory controller (`memory.limit_in_bytes`
 * and `memory.memsw.limit_in_bytes`; since Linux 5.x v1 charges kernel
 * memory — slab, inodes, extended attributes, page tables — to the same
 * counter and `memory.kmem.limit_in_bytes` has no effect; TCP buffers
 * count once `memory.kmem.tcp.limit_in_bytes` is set, UDP buffers never do
 * in v1) and its pids controller (`pids.max`), plus cpuacct when mounted
 * (the worker's CPU time, `cgroupCpuNs`). Where none can be made the
 * isolation level is `"rlimit"` (the harness's rlimits and the parent's
 * resident-memory watch alone).
 *
 * Worker cgroups live under one folder per parent process,
 * `calc-sandbox-<pid>`, inside this process's own cgroup of each
 * controller, so concurrent processes never collide; a folder whose
 * process is dead is removed at the next pool start (`cleanStale`).
 *
 * The worker enters its cgroup before anything runs in it: the parent
 * starts `/bin/sh -c 'echo $$ > …/cgroup.procs … && exec <worker>'`, so
 * the shell writes its own pid and then becomes the worker (same pid);
 * every process the worker starts is born inside. Moving the pid from the
 * parent after spawn would leave a window (and would not move children
 * already forked). No library makes cgroups from Deno, hence the file
 * writes here.
 *
 * @module
 */

/** Which protection judged a request's memory and processes. */
export type Isolation = "cgroup" | "rlimit";

/** Where this process can make worker cgroups, or why not. */
export interface CgroupSupport {
  level: Isolation;
  /** cgroup version used (cgroup level only). */
  version?: 1 | 2;
  /** Per-process parent folders, one per controller (v2: one). */
  dirs: { memory: string; pids: string; cpu?: string };
  /** Why `rlimit`, or what was found. */
  detail: string;
}

/** Memory above the request's that a worker may use while it starts. */
const STARTUP_MB = 1024;

let counter = 0;
/**
 * This module instance's part of worker names: test runners load it once
 * per worker thread of one process (`deno test --parallel`), and two
 * instances counting from 1 would take each other's cgroups.
 */
const INSTANCE = crypto.randomUUID().slice(0, 8);
/** How the names of this module instance's worker cgroups begin. */
export const WORKER_PREFIX = `w${INSTANCE}-`;

function exists(path: string): boolean {
  try {
    Deno.statSync(path);
    return true;
  } catch {
    return false;
  }
}

function read(path: string): string {
  return Deno.readTextFileSync(path);
}

/** This process's cgroup path per v1 controller ("" for v2). */
function ownCgroups(): Map<string, string> {
  const out = new Map<string, string>();
  try {
    for (const line of read("/proc/self/cgroup").split("\n")) {
      const m = /^\d+:([^:]*):(.*)$/.exec(line);
      if (!m) continue;
      for (const c of m[1]!.split(",")) out.set(c, m[2]!);
    }
  } catch {
    // no /proc: no cgroups
  }
  return out;
}

/** Makes `dir` (and tests that it is writable); an error text or null. */
function makeDir(dir: string): string | null {
  try {
    Deno.mkdirSync(dir, { recursive: true });
    return null;
  } catch (e) {
    return e instanceof Error ? e.name : String(e);
  }
}

/**
 * What this machine allows, probing `root` (a cgroup mount point): makes
 * this process's folders when it can.
 *
 * @param root Where the cgroup hierarchies are mounted.
 * @returns The support found; `level` is `"rlimit"` when none.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { cgroupSupport } from "./_cgroup.ts";
 * const none = cgroupSupport("/nonexistent/cgroup");
 * assert.equal(none.level, "rlimit");
 * assert.match(none.detail, /no writable cgroup/);
 * ```
 */
export function cgroupSupport(root = "/sys/fs/cgroup"): CgroupSupport {
  const folder = `calc-sandbox-${Deno.pid}`;
  const own = ownCgroups();
  // v2: the unified hierarchy at root, or at root/unified (hybrid)
  for (const base of [root, `${root}/unified`]) {
    try {
      const controllers = read(`${base}/cgroup.controllers`).split(/\s+/);
      if (!controllers.includes("memory") || !controllers.includes("pids")) {
        continue;
      }
      const dir = `${base}${own.get("") ?? ""}/${folder}`.replace(/\/+/g, "/");
      if (makeDir(dir) !== null) continue;
      Deno.writeTextFileSync(`${dir}/cgroup.subtree_control`, "+memory +pids");
      return {
        level: "cgroup",
        version: 2,
        dirs: { memory: dir, pids: dir, cpu: dir },
        detail: `cgroup v2 at ${base}`,
      };
    } catch {
      // not v2 here, or not delegated
    }
  }
  const v1 = (c: string) =>
    `${root}/${c}${own.get(c) ?? ""}/${folder}`.replace(/\/+/g, "/");
  if (
    exists(`${root}/memory/memory.limit_in_bytes`) &&
    exists(`${root}/pids/cgroup.procs`)
  ) {
    const memory = v1("memory"), pids = v1("pids");
    const problem = makeDir(memory) ?? makeDir(pids);
    if (problem === null) {
      const cpu = exists(`${root}/cpuacct`) && makeDir(v1("cpuacct")) === null
        ? v1("cpuacct")
        : undefined;
      return {
        level: "cgroup",
        version: 1,
        dirs: cpu ? { memory, pids, cpu } : { memory, pids },
        detail: `cgroup v1 memory and pids at ${root}`,
      };
    }
    return {
      level: "rlimit",
      dirs: { memory: "", pids: "" },
      detail: `no writable cgroup (v1 at ${root}: ${problem})`,
    };
  }
  return {
    level: "rlimit",
    dirs: { memory: "", pids: "" },
    detail: `no writable cgroup with memory and pids controllers at ${root}`,
  };
}

/** Live pids listed in the `cgroup.procs` of `dirs`. */
function procsOf(dirs: readonly string[]): number[] {
  const out = new Set<number>();
  for (const d of dirs) {
    try {
      for (const p of read(`${d}/cgroup.procs`).split("\n")) {
        if (p) out.add(Number(p));
      }
    } catch {
      // removed
    }
  }
  return [...out];
}

function killAll(dirs: readonly string[]): void {
  for (const pid of procsOf(dirs)) {
    try {
      Deno.kill(pid, "SIGKILL");
    } catch {
      // gone already
    }
  }
}

/** Removes cgroup folders, killing what is left in them (retries ~3 s). */
async function removeDirs(dirs: readonly string[]): Promise<boolean> {
  for (let i = 0; i < 300; i++) {
    killAll(dirs);
    let left = 0;
    for (const d of dirs) {
      try {
        Deno.removeSync(d); // rmdir: a cgroup folder's files are virtual
      } catch (e) {
        if (!(e instanceof Deno.errors.NotFound)) left++;
      }
    }
    if (left === 0) return true;
    await new Promise((res) => setTimeout(res, 10));
  }
  return false;
}

/**
 * Removes the folders of parent processes that are dead (their workers'
 * cgroups with them, killing anything left inside).
 *
 * @param support What `cgroupSupport` found.
 * @returns How many folders were removed.
 */
export async function cleanStale(support: CgroupSupport): Promise<number> {
  if (support.level !== "cgroup") return 0;
  let removed = 0;
  const parents = new Set(
    [support.dirs.memory, support.dirs.pids, support.dirs.cpu ?? ""]
      .filter((d) => d !== "").map((d) => d.replace(/\/[^/]+$/, "")),
  );
  for (const parent of parents) {
    let names: string[] = [];
    try {
      names = [...Deno.readDirSync(parent)].map((e) => e.name);
    } catch {
      continue;
    }
    for (const name of names) {
      const m = /^calc-sandbox-(\d+)$/.exec(name);
      if (!m || exists(`/proc/${m[1]}`)) continue;
      const dir = `${parent}/${name}`;
      const kids = [...Deno.readDirSync(dir)].filter((e) => e.isDirectory)
        .map((e) => `${dir}/${e.name}`);
      if (await removeDirs(kids) && await removeDirs([dir])) removed++;
    }
  }
  return removed;
}

/** One worker's cgroup (a folder per controller for v1). */
export class WorkerCgroup {
  private constructor(
    readonly version: 1 | 2,
    private readonly memory: string,
    private readonly pids: string,
    private readonly cpu: string | undefined,
  ) {}

  /**
   * Makes a worker's cgroup, its memory limited to `memoryMb` plus the
   * start-up room (lowered by `limitMemory` before the candidate runs) and
   * its tasks to `pidsMax`.
   *
   * @param support What `cgroupSupport` found (level `"cgroup"`).
   * @param memoryMb The request's memory limit.
   * @param pidsMax Processes and threads the worker may have.
   * @returns The cgroup.
   *
   * @example
   * ```ts
   * import assert from "node:assert/strict";
   * import { cgroupSupport, WorkerCgroup } from "./_cgroup.ts";
   * const s = cgroupSupport();
   * if (s.level === "cgroup") {
   *   const cg = WorkerCgroup.create(s, 64, 32);
   *   assert.equal(cg.oomKills(), 0);
   *   assert.ok(await cg.remove());
   * }
   * ```
   */
  static create(
    support: CgroupSupport,
    memoryMb: number,
    pidsMax: number,
  ): WorkerCgroup {
    if (support.level !== "cgroup" || !support.version) {
      throw new Error(
        `Cannot make a worker cgroup: ${support.detail}; use the rlimit level`,
      );
    }
    const name = `${WORKER_PREFIX}${++counter}`;
    const d = support.dirs;
    const cg = support.version === 2
      ? new WorkerCgroup(
        2,
        `${d.memory}/${name}`,
        `${d.memory}/${name}`,
        `${d.memory}/${name}`,
      )
      : new WorkerCgroup(
        1,
        `${d.memory}/${name}`,
        `${d.pids}/${name}`,
        d.cpu ? `${d.cpu}/${name}` : undefined,
      );
    try {
      for (const dir of cg.dirs) Deno.mkdirSync(dir);
      cg.limitMemory(memoryMb + STARTUP_MB);
      Deno.writeTextFileSync(`${cg.pids}/pids.max`, String(pidsMax));
    } catch (e) {
      void cg.remove();
      throw new Error(
        `Cannot make a worker cgroup: ${
          e instanceof Error ? e.message : e
        }; check that ${d.memory} is writable`,
      );
    }
    return cg;
  }

  /** The folders of this cgroup (one per controller). */
  get dirs(): string[] {
    return [...new Set([this.memory, this.pids, this.cpu ?? this.memory])];
  }

  /**
   * The command that starts `command args` inside this cgroup: a shell
   * writes its own pid into every `cgroup.procs`, then execs the worker.
   *
   * @example
   * ```ts
   * import assert from "node:assert/strict";
   * import { cgroupSupport, WorkerCgroup } from "./_cgroup.ts";
   * const s = cgroupSupport();
   * if (s.level === "cgroup") {
   *   const cg = WorkerCgroup.create(s, 64, 32);
   *   const { command, args } = cg.wrap("/usr/bin/env", []);
   *   const out = await new Deno.Command(command, {
   *     args,
   *     clearEnv: true,
   *     cwd: "/",
   *   }).output();
   *   assert.equal(new TextDecoder().decode(out.stdout), ""); // no PWD
   *   assert.ok(await cg.remove());
   * }
   * ```
   */
  wrap(command: string, args: readonly string[]): {
    command: string;
    args: string[];
  } {
    const procs = this.dirs.map((d) => `${d}/cgroup.procs`);
    const writes = procs.map((_, i) => `echo $$ > "$${i + 1}"`).join(" && ");
    return {
      command: "/bin/sh",
      args: [
        "-c",
        // the shell exports PWD itself: unset, the worker's environment
        // is the caller's (empty)
        `${writes} && shift ${procs.length} && unset PWD && exec "$@"`,
        "sh",
        ...procs,
        command,
        ...args,
      ],
    };
  }

  /** Memory in use now (kernel memory and page cache included), bytes. */
  usageBytes(): number {
    return Number(
      read(
        this.version === 2
          ? `${this.memory}/memory.current`
          : `${this.memory}/memory.usage_in_bytes`,
      ).trim(),
    );
  }

  /** Sets the memory limit (swap none: v2 swap.max 0, v1 memsw = limit). */
  limitMemory(mb: number): void {
    const bytes = String(Math.ceil(mb) * (1 << 20));
    if (this.version === 2) {
      Deno.writeTextFileSync(`${this.memory}/memory.max`, bytes);
      if (exists(`${this.memory}/memory.swap.max`)) {
        Deno.writeTextFileSync(`${this.memory}/memory.swap.max`, "0");
      }
      return;
    }
    // v1 charges TCP buffers only once a TCP limit is set (deprecated in
    // Linux 6.x but working); UDP buffers are never charged in v1
    try {
      Deno.writeTextFileSync(
        `${this.memory}/memory.kmem.tcp.limit_in_bytes`,
        bytes,
      );
    } catch {
      // gone from this kernel
    }
    const mem = `${this.memory}/memory.limit_in_bytes`;
    const memsw = `${this.memory}/memory.memsw.limit_in_bytes`;
    if (!exists(memsw)) return Deno.writeTextFileSync(mem, bytes);
    // memsw may never be below the memory limit: order the two writes
    try {
      Deno.writeTextFileSync(mem, bytes);
      Deno.writeTextFileSync(memsw, bytes);
    } catch {
      Deno.writeTextFileSync(memsw, bytes);
      Deno.writeTextFileSync(mem, bytes);
    }
  }

  /** Processes the kernel's OOM killer killed in this cgroup. */
  oomKills(): number {
    try {
      const text = read(
        this.version === 2
          ? `${this.memory}/memory.events`
          : `${this.memory}/memory.oom_control`,
      );
      return Number(/^oom_kill (\d+)/m.exec(text)?.[1] ?? 0);
    } catch {
      return 0;
    }
  }

  /** Live processes in the cgroup. */
  procs(): number[] {
    return procsOf(this.dirs);
  }

  /** SIGKILLs every process in the cgroup. */
  killAll(): void {
    killAll(this.dirs);
  }

  /**
   * CPU time of every process that ran in the cgroup, ns (v1 cpuacct's
   * `cpuacct.usage`; v2 `cpu.stat`'s `usage_usec`), or undefined when no
   * CPU accounting is mounted.
   */
  cpuNs(): number | undefined {
    if (this.cpu === undefined) return undefined;
    return cgroupCpuNs(this.cpu, this.version);
  }

  /** Kills what is left and removes the folders; false if still busy. */
  remove(): Promise<boolean> {
    return removeDirs(this.dirs);
  }
}

/**
 * A cgroup's CPU time in nanoseconds: v1 `cpuacct.usage`, v2 `cpu.stat`'s
 * `usage_usec` × 1000 (microsecond resolution). One small file read.
 *
 * @param dir The cgroup folder (cpuacct's for v1).
 * @param version The cgroup version.
 * @returns Nanoseconds of CPU time, all processes and threads together.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { cgroupCpuNs } from "./_cgroup.ts";
 * let ns: number | undefined;
 * try {
 *   ns = cgroupCpuNs("/sys/fs/cgroup/cpuacct", 1);
 * } catch {
 *   ns = undefined; // no v1 cpuacct on this machine
 * }
 * assert.ok(ns === undefined || ns > 0);
 * ```
 */
export function cgroupCpuNs(dir: string, version: 1 | 2): number {
  if (version === 1) return Number(read(`${dir}/cpuacct.usage`).trim());
  const m = /^usage_usec (\d+)/m.exec(read(`${dir}/cpu.stat`));
  return Number(m?.[1] ?? NaN) * 1000;
}
