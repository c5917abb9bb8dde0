/**
 * One sandbox child process seen from the parent: how it is started (no
 * permissions, no environment, a V8 heap limit), its framed result channel,
 * output caps, and the watchers that kill it (wall time, resident memory).
 *
 * @module
 */

/** Why the parent killed a child, if it did. */
export type KillReason = "timeout" | "memory" | "output_limit" | "closed";

/** Languages the workers know. */
export type WorkerLanguage = "python" | "javascript";

const WORKER = new URL("./_worker.ts", import.meta.url).pathname;

/** Deno flags shared by every sandbox child. */
export function childArgs(
  language: WorkerLanguage,
  heapMb: number,
  pyodideDir: string | undefined,
  script = WORKER,
  timing = false,
): string[] {
  return [
    "run",
    "--no-check",
    "--no-config",
    "--no-lock",
    "--no-remote",
    "--no-npm",
    "--cached-only",
    "--no-prompt",
    `--v8-flags=--max-old-space-size=${heapMb}${
      timing ? ",--liftoff-only" : ""
    }`,
    ...(language === "python" ? [`--allow-read=${pyodideDir}`] : []),
    script,
    language,
    ...(language === "python" ? [pyodideDir!] : []),
  ];
}

/** Lets the process exit while this timer is pending. */
function unrefTimer(t: unknown): void {
  Deno.unrefTimer(t as number);
}

/** Resident memory of a process in MiB, or undefined when unreadable. */
export function rssMb(pid: number): number | undefined {
  try {
    const text = Deno.readTextFileSync(`/proc/${pid}/status`);
    const m = /VmRSS:\s+(\d+)\s+kB/.exec(text);
    return m ? Number(m[1]) / 1024 : undefined;
  } catch {
    return undefined;
  }
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

/** A started sandbox worker, single-use. */
export class WorkerProcess {
  readonly language: WorkerLanguage;
  readonly heapMb: number;
  readonly ready: Promise<void>;
  readonly exited: Promise<Deno.CommandStatus>;
  killReason: KillReason | undefined;
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

  constructor(
    language: WorkerLanguage,
    heapMb: number,
    pyodideDir: string | undefined,
    snapshot: Uint8Array | undefined,
    unref: boolean,
    timing = false,
  ) {
    this.language = language;
    this.heapMb = heapMb;
    this.ready = new Promise((res, rej) => {
      this.readyResolve = res;
      this.readyReject = rej;
    });
    this.ready.catch(() => {});
    this.child = new Deno.Command(Deno.execPath(), {
      args: childArgs(language, heapMb, pyodideDir, WORKER, timing),
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
    if (snapshot) {
      this.writer.write(
        new TextEncoder().encode(
          JSON.stringify({ snapshot: snapshot.length }) + "\n",
        ),
      ).catch(() => {});
      this.writer.write(snapshot).catch(() => {});
    }
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
      this.baselineMb = rssMb(this.pid) ?? 0;
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
    const w = this.waiters.shift();
    if (w) w(msg);
    else this.queue.push(msg);
  }

  private finish(): void {
    if (this.done) return;
    this.done = true;
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
    const watch = setInterval(() => {
      const mb = rssMb(this.pid);
      if (mb !== undefined && mb > limitMb) this.kill("memory");
    }, 25);
    unrefTimer(watch);
    this.timers.push(watch);
    if (this.buf) {
      this.addOutput(this.buf, false);
      this.buf = "";
    }
    const head = JSON.stringify({ nonce: this.nonce, ...init });
    await this.sendRaw(
      calls ? head.slice(0, -1) + ',"calls":[' + calls.join(",") + "]}" : head,
    );
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
    this.killReason ??= reason;
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

/** Where a made snapshot is cached, keyed by Pyodide build and Deno version. */
function snapshotCachePath(pyodideDir: string): string | undefined {
  try {
    const st = Deno.statSync(`${pyodideDir}/pyodide.asm.wasm`);
    const key = `${pyodideDir.split("/").pop()}-${st.size}-${
      st.mtime?.getTime() ?? 0
    }-${Deno.version.deno}`.replace(/[^A-Za-z0-9_.-]/g, "_");
    return `/tmp/calc-bench-sandbox/pyodide-snapshot-${key}.bin`;
  } catch {
    return undefined;
  }
}

/**
 * The Pyodide memory snapshot workers restore from: read from the cache in
 * `/tmp/calc-bench-sandbox/` when present (processes running tests in
 * parallel share it), else made by `makeSnapshot` and cached (best effort:
 * without write permission it is simply not cached).
 */
export async function loadSnapshot(pyodideDir: string): Promise<Uint8Array> {
  const path = snapshotCachePath(pyodideDir);
  if (path) {
    try {
      const bytes = await Deno.readFile(path);
      if (bytes.length > 1_000_000) return bytes;
    } catch {
      // not cached yet
    }
  }
  const bytes = await makeSnapshot(pyodideDir);
  if (path) {
    try {
      await Deno.mkdir(path.replace(/\/[^/]+$/, ""), { recursive: true });
      const tmp = `${path}.${crypto.randomUUID()}.tmp`;
      await Deno.writeFile(tmp, bytes);
      await Deno.rename(tmp, path);
    } catch {
      // no write permission: keep it in memory only
    }
  }
  return bytes;
}

/**
 * Makes a Pyodide memory snapshot in a trusted child (same permissions as a
 * worker, no candidate code), returned as bytes.
 */
export async function makeSnapshot(pyodideDir: string): Promise<Uint8Array> {
  const script = new URL("./_snapshot.ts", import.meta.url).pathname;
  const out = await new Deno.Command(Deno.execPath(), {
    args: childArgs("python", 2048, pyodideDir, script),
    clearEnv: true,
    env: {},
    cwd: "/",
    stdin: "null",
    stdout: "piped",
    stderr: "piped",
  }).output();
  if (!out.success || out.stdout.length < 1_000_000) {
    throw new Error(
      `Cannot load Pyodide: the snapshot child failed (${out.code}); ${
        new TextDecoder().decode(out.stderr).slice(0, 800)
      }`,
    );
  }
  return out.stdout;
}
