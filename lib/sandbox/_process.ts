/**
 * One sandbox child process seen from the parent: how it is started (a
 * `Launch` from the backend), its framed result channel, output caps, and
 * the watchers that kill it (wall time, resident memory of the child and
 * of every process it started).
 *
 * @module
 */
import type { Backend } from "./_backend.ts";
import type { Isolation, WorkerCgroup } from "./_cgroup.ts";
import {
  cpuMs,
  descendants,
  platformThreads,
  ProcUnreadable,
  settleTasks,
  tasksCpuNs,
  totalRssMb,
} from "./_procfs.ts";

/** Why the parent killed a child, if it did. */
export type KillReason = "timeout" | "memory" | "output_limit" | "closed";

/** How to start one worker. */
export interface Launch {
  backend: Backend;
  command: string;
  args: string[];
  /** Written on stdin before anything else (the Pyodide snapshot). */
  preamble?: Uint8Array[];
  /**
   * The candidate runs in a process tree (bubblewrap, the harness, its
   * fork): memory is the sum over the child's descendants, rescanned
   * while a request runs.
   */
  tree?: boolean;
  /**
   * The worker's own cgroup (the command already enters it): its memory
   * limit is set to the idle worker's use plus the request's `memoryMb`
   * before the candidate's code is sent, an OOM kill in it is `"memory"`,
   * and it is removed when the worker ends.
   */
  cgroup?: WorkerCgroup;
}

/** Lets the process exit while this timer is pending. */
function unrefTimer(t: unknown): void {
  Deno.unrefTimer(t as number);
}

/** A framed message from the worker. */
// deno-lint-ignore no-explicit-any
export type WorkerMessage = any;

/** Limits applied while one request runs. */
export interface Limits {
  timeoutMs: number;
  memoryMb: number;
  maxOutputBytes: number;
}

/** What the harness said about how the candidate's process ended. */
export interface Died {
  code: number;
  signal: number;
}

/** A started sandbox worker, single-use. */
export class WorkerProcess {
  readonly backend: Backend;
  readonly ready: Promise<void>;
  readonly exited: Promise<Deno.CommandStatus>;
  /** Which protection judges this worker's memory and processes. */
  readonly isolation: Isolation;
  /** Resolves once the worker's cgroup is gone (at once without one). */
  readonly cleaned: Promise<void>;
  private reason: KillReason | undefined;
  private cgroup: WorkerCgroup | undefined;
  private cleanedResolve!: () => void;
  /** Set when a native harness reported its candidate process's end. */
  died: Died | undefined;
  stdout = "";
  stderr = "";
  truncated = false;
  baselineMb = 0;
  private child: Deno.ChildProcess;
  private writer: WritableStreamDefaultWriter<Uint8Array>;
  private nonce = "";
  private buf = "";
  private outBytes = 0;
  private maxOutput = 1_000_000;
  private msgBytes = 0;
  private queue: WorkerMessage[] = [];
  private waiters: ((m: WorkerMessage | null) => void)[] = [];
  private done = false;
  private readyResolve!: () => void;
  private readyReject!: (e: Error) => void;
  private seenReady = false;
  private timers: ReturnType<typeof setTimeout>[] = [];
  private tree: boolean;
  private watched: number[] = [];
  /**
   * A Deno worker's V8 platform threads as they were when it became ready,
   * before any candidate code: their CPU time is V8 compiling Pyodide's
   * WebAssembly in the background (seconds after a start, milliseconds
   * per sample), not the candidate's, and is left out of `cpuNs`. Threads
   * started later count.
   */
  private platform = new Set<string>();
  /** A CPU-time limit in force (see `limitCpu`). */
  private cpuLimit: { startMs: number; limitMs: number } | undefined;

  constructor(launch: Launch, unref: boolean) {
    this.backend = launch.backend;
    this.tree = launch.tree ?? false;
    this.cgroup = launch.cgroup;
    this.isolation = launch.cgroup ? "cgroup" : "rlimit";
    this.cleaned = new Promise((res) => this.cleanedResolve = res);
    this.ready = new Promise((res, rej) => {
      this.readyResolve = res;
      this.readyReject = rej;
    });
    this.ready.catch(() => {});
    this.child = new Deno.Command(launch.command, {
      args: launch.args,
      clearEnv: true,
      env: {},
      cwd: "/",
      stdin: "piped",
      stdout: "piped",
      stderr: "piped",
    }).spawn();
    if (unref) this.child.unref();
    this.writer = this.child.stdin.getWriter();
    this.exited = this.child.status;
    Promise.all([
      this.pump(this.child.stdout, false),
      this.pump(this.child.stderr, true),
      this.exited,
    ]).then(() => this.finish());
    for (const bytes of launch.preamble ?? []) {
      this.writer.write(bytes).catch(() => {});
    }
  }

  /** The processes whose memory counts: the child, and its tree. */
  private memoryMb(rescan: boolean): number | undefined {
    if (!this.tree) return totalRssMb([this.pid]);
    if (rescan || this.watched.length === 0) {
      this.watched = [this.pid, ...descendants(this.pid)];
    }
    return totalRssMb(this.watched);
  }

  /** Keeps the parent alive while this worker serves a request. */
  ref(): void {
    this.child.ref();
  }

  get pid(): number {
    return this.child.pid;
  }

  private async pump(
    stream: ReadableStream<Uint8Array>,
    isErr: boolean,
  ): Promise<void> {
    const dec = new TextDecoder();
    try {
      for await (const chunk of stream) {
        const text = dec.decode(chunk, { stream: true });
        if (isErr) this.addOutput(text, true);
        else this.onStdout(text);
      }
    } catch {
      // the child was killed mid-read
    }
  }

  private addOutput(text: string, isErr: boolean): void {
    if (!text) return;
    this.outBytes += text.length;
    if (this.outBytes > this.maxOutput) {
      this.truncated = true;
      const room = Math.max(0, this.maxOutput - (this.outBytes - text.length));
      text = text.slice(0, room);
      this.kill("output_limit");
    }
    if (isErr) this.stderr += text;
    else this.stdout += text;
  }

  private onStdout(text: string): void {
    this.buf += text;
    if (!this.seenReady) {
      const i = this.buf.indexOf("READY\n");
      if (i < 0) return;
      this.seenReady = true;
      this.buf = this.buf.slice(i + 6);
      try {
        this.baselineMb = this.memoryMb(true) ?? 0;
        if (this.backend !== "native") {
          this.platform = platformThreads(this.pid);
        }
      } catch (error) {
        if (!(error instanceof ProcUnreadable)) throw error;
        // never run a request whose memory cannot be watched
        this.readyReject(error);
        this.kill("closed");
        return;
      }
      this.readyResolve();
    }
    if (!this.nonce) return;
    const marker = "\n" + this.nonce + " ";
    while (true) {
      const i = this.buf.indexOf(marker);
      if (i < 0) {
        const keep = Math.min(this.buf.length, marker.length);
        this.addOutput(this.buf.slice(0, this.buf.length - keep), false);
        this.buf = this.buf.slice(this.buf.length - keep);
        return;
      }
      const end = this.buf.indexOf("\n", i + marker.length);
      if (end < 0) {
        this.addOutput(this.buf.slice(0, i), false);
        this.buf = this.buf.slice(i);
        this.msgBytes += this.buf.length;
        if (this.msgBytes > 512_000_000) this.kill("output_limit");
        return;
      }
      this.addOutput(this.buf.slice(0, i), false);
      const body = this.buf.slice(i + marker.length, end);
      this.buf = this.buf.slice(end + 1);
      this.msgBytes = 0;
      let msg: WorkerMessage;
      try {
        msg = JSON.parse(body);
      } catch {
        msg = { t: "bad", body: body.slice(0, 200) };
      }
      this.deliver(msg);
    }
  }

  private deliver(msg: WorkerMessage | null): void {
    if (msg?.t === "died") {
      // not an answer: how the candidate's process ended (native harness)
      this.died = { code: Number(msg.code), signal: Number(msg.signal) };
      return;
    }
    const w = this.waiters.shift();
    if (w) w(msg);
    else this.queue.push(msg);
  }

  /**
   * Why the parent stopped the child, if it did: its own kill, or the
   * kernel's OOM killer in the worker's cgroup (`"memory"`).
   */
  get killReason(): KillReason | undefined {
    if (this.reason === undefined && (this.cgroup?.oomKills() ?? 0) > 0) {
      this.reason = "memory";
    }
    return this.reason;
  }

  private finish(): void {
    if (this.done) return;
    this.done = true;
    const cg = this.cgroup;
    if (cg) {
      void this.killReason; // an OOM kill, read before the cgroup goes
      this.cgroup = undefined;
      cg.remove().finally(() => this.cleanedResolve());
    } else this.cleanedResolve();
    for (const t of this.timers) clearInterval(t), clearTimeout(t);
    if (!this.seenReady) {
      this.readyReject(
        new Error(
          `Cannot start a sandbox worker: it exited before it was ready; ${
            this.stderr.slice(0, 500) || "no output"
          }`,
        ),
      );
    }
    // flush what is left as candidate output
    if (this.nonce) this.addOutput(this.buf, false);
    this.buf = "";
    while (this.waiters.length) this.waiters.shift()!(null);
  }

  /** The next framed message, or null once the child has exited. */
  next(): Promise<WorkerMessage | null> {
    if (this.queue.length) return Promise.resolve(this.queue.shift());
    if (this.done) return Promise.resolve(null);
    return new Promise((res) => this.waiters.push(res));
  }

  /** Sends one JSON line on stdin. */
  send(obj: unknown): Promise<void> {
    return this.sendRaw(JSON.stringify(obj));
  }

  /** Sends one line of already-encoded JSON on stdin. */
  async sendRaw(line: string): Promise<void> {
    try {
      await this.writer.write(new TextEncoder().encode(line + "\n"));
    } catch {
      // the child is gone; next() reports it
    }
  }

  /**
   * Starts a request: arms the watchers, hands the nonce-bearing init line
   * to the worker.
   */
  async start(
    init: {
      code?: string;
      entry?: string;
      typescript?: boolean;
      programs?: boolean;
    },
    limits: Limits,
    calls?: string[],
  ): Promise<void> {
    const bytes = new Uint8Array(16);
    crypto.getRandomValues(bytes);
    this.nonce = Array.from(bytes, (b) => b.toString(16).padStart(2, "0"))
      .join("");
    this.maxOutput = limits.maxOutputBytes;
    this.stdout = "";
    this.stderr = "";
    this.outBytes = 0;
    const timeout = setTimeout(() => this.kill("timeout"), limits.timeoutMs);
    unrefTimer(timeout);
    this.timers.push(timeout);
    const limitMb = this.baselineMb + limits.memoryMb;
    // the cgroup's limit: what the idle worker uses plus the request's
    this.cgroup?.limitMemory(
      this.cgroup.usageBytes() / (1 << 20) + limits.memoryMb,
    );
    let tick = 0;
    const watch = setInterval(() => {
      // a process tree is rescanned every 8th tick (200 ms), to see forks
      let mb: number | undefined;
      try {
        mb = this.memoryMb(++tick % 8 === 0);
      } catch {
        mb = Infinity; // unreadable now: stop rather than run unwatched
      }
      if (mb !== undefined && mb > limitMb) this.kill("memory");
      if (this.killReason === "memory") this.kill("memory"); // cgroup OOM
      const cpu = this.cpuLimit;
      if (cpu && this.cpuNow() - cpu.startMs > cpu.limitMs) {
        this.kill("timeout");
      }
    }, 25);
    unrefTimer(watch);
    this.timers.push(watch);
    if (this.buf) {
      this.addOutput(this.buf, false);
      this.buf = "";
    }
    // The nonce comes first: the native harness takes it off the line.
    // cpuS: a CPU-time rlimit a little above the wall-time limit (native).
    const head = JSON.stringify({
      nonce: this.nonce,
      ...init,
      cpuS: Math.ceil(limits.timeoutMs / 1000) + 1,
    });
    await this.sendRaw(
      calls ? head.slice(0, -1) + ',"calls":[' + calls.join(",") + "]}" : head,
    );
  }

  /**
   * CPU time of every process the worker ran, ns, from its cgroup's CPU
   * accounting; undefined without one.
   */
  cgroupCpuNs(): number | undefined {
    return this.cgroup?.cpuNs();
  }

  /**
   * The CPU time in ns the worker's processes (the whole tree for native
   * workers: a candidate's threads and children count) have run so far,
   * from the kernel's account: what timed samples are measured with.
   * Every task is read once it has gone back to waiting (exact). A native
   * worker's cgroup, where it has one, also counts threads and children
   * that ended meanwhile; a Deno worker leaves out its V8 platform
   * threads (see `platform`), which its cgroup cannot.
   */
  cpuNs(): number {
    const pids = this.tree ? [this.pid, ...descendants(this.pid)] : [this.pid];
    settleTasks(pids, this.platform);
    const cgroup = this.backend === "native" ? this.cgroupCpuNs() : undefined;
    return cgroup ?? tasksCpuNs(pids, this.platform);
  }

  private cpuNow(): number {
    return cpuMs(this.tree ? this.watched : [this.pid]);
  }

  /**
   * Limits the CPU time from now on (the worker is killed with
   * `"timeout"` past it, checked every 25 ms at the kernel's 10 ms
   * resolution); undefined lifts the limit. A timed call's limit is CPU
   * time, so a call sharing a busy core is not cut short by the wait.
   */
  limitCpu(limitMs: number | undefined): void {
    if (limitMs === undefined) {
      this.cpuLimit = undefined;
      return;
    }
    if (this.tree && this.watched.length === 0) this.memoryMb(true);
    this.cpuLimit = { startMs: this.cpuNow(), limitMs };
  }

  /** Extends the wall-time limit (used between measured sizes). */
  rearm(timeoutMs: number): void {
    const t = setTimeout(() => this.kill("timeout"), timeoutMs);
    unrefTimer(t);
    for (const old of this.timers.splice(0, 1)) clearTimeout(old);
    this.timers.unshift(t);
  }

  /** Kills the child (idempotent), remembering the first reason. */
  kill(reason: KillReason): void {
    if (this.done) return;
    this.reason ??= reason;
    this.cgroup?.killAll();
    if (this.tree) {
      // Every process of the sandbox first: bubblewrap arms its inner
      // process's parent-death signal only once its set-up is done, so a
      // worker killed while starting would leave that process behind.
      let pids: number[] = [];
      try {
        pids = descendants(this.pid);
      } catch {
        // /proc unreadable: the child's own death is all there is
      }
      for (const pid of pids) {
        try {
          Deno.kill(pid, "SIGKILL");
        } catch {
          // gone already
        }
      }
    }
    try {
      this.child.kill("SIGKILL");
    } catch {
      // already gone
    }
  }

  /** Closes stdin and waits for the exit (killing after `graceMs`). */
  async close(graceMs = 2000): Promise<void> {
    try {
      await this.writer.close();
    } catch {
      // ignore
    }
    const t = setTimeout(() => this.kill("closed"), graceMs);
    unrefTimer(t);
    await this.exited;
    clearTimeout(t);
  }

  /** True when the child has exited. */
  get finished(): boolean {
    return this.done;
  }
}
