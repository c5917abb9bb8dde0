/**
 * A pool of single-use warm workers. Each request gets a process that has
 * never run anything else (JS: a started Deno waiting on stdin; Python: a
 * Pyodide restored from a trusted snapshot), and the process is killed when
 * the request ends, so no state can leak from one request to the next. The
 * pool refills itself in the background.
 *
 * @module
 */
import {
  loadSnapshot,
  type WorkerLanguage,
  WorkerProcess,
} from "./_process.ts";

/** Options of a pool (see `SandboxOptions`). */
export interface PoolOptions {
  warm: number;
  concurrency: number;
  unref: boolean;
  pyodideDir?: string | undefined;
}

/** Finds the Pyodide package folder (real path) from the import map. */
export function findPyodideDir(): string {
  const tried: string[] = [];
  try {
    const url = import.meta.resolve("pyodide");
    if (url.startsWith("file:")) {
      const dir = new URL(".", url).pathname.replace(/\/$/, "");
      return Deno.realPathSync(dir);
    }
    tried.push(url);
  } catch (e) {
    tried.push(String(e));
  }
  let dir = new URL("../../", import.meta.url).pathname;
  for (let i = 0; i < 6; i++) {
    const candidate = `${dir}node_modules/pyodide`;
    try {
      Deno.statSync(`${candidate}/pyodide.mjs`);
      return Deno.realPathSync(candidate);
    } catch {
      tried.push(candidate);
    }
    dir = dir.replace(/[^/]+\/$/, "");
  }
  throw new Error(
    `Cannot find the Pyodide package: looked at ${
      tried.join(", ")
    }; run \`deno install\` in the project folder`,
  );
}

/** Single-use warm workers per (language, heap limit), refilled. */
export class Pool {
  private idle = new Map<string, WorkerProcess[]>();
  private active = new Set<WorkerProcess>();
  private running = 0;
  private queue: (() => void)[] = [];
  private starting = new Map<string, number>();
  private snapshot: Promise<Uint8Array> | undefined;
  private dir: string | undefined;
  closed = false;

  constructor(readonly options: PoolOptions) {}

  private pyodideDir(): string {
    this.dir ??= this.options.pyodideDir ?? findPyodideDir();
    return this.dir;
  }

  private getSnapshot(): Promise<Uint8Array> {
    if (!this.snapshot) {
      this.snapshot = loadSnapshot(this.pyodideDir());
      this.snapshot.catch(() => {
        this.snapshot = undefined;
      });
    }
    return this.snapshot;
  }

  private async spawn(
    language: WorkerLanguage,
    heapMb: number,
    timing = false,
  ): Promise<WorkerProcess> {
    const snap = language === "python" ? await this.getSnapshot() : undefined;
    if (this.closed) {
      throw new Error("Cannot start a worker: the sandbox is closed");
    }
    const w = new WorkerProcess(
      language,
      heapMb,
      language === "python" ? this.pyodideDir() : undefined,
      snap,
      this.options.unref,
      timing,
    );
    return w;
  }

  private refill(
    language: WorkerLanguage,
    heapMb: number,
    timing: boolean,
  ): void {
    if (this.closed || this.options.warm <= 0) return;
    const key = `${language}:${heapMb}:${timing}`;
    const list = this.idle.get(key) ?? [];
    this.idle.set(key, list);
    const live = list.filter((w) => !w.finished).length +
      (this.starting.get(key) ?? 0);
    for (let i = live; i < this.options.warm; i++) {
      this.starting.set(key, (this.starting.get(key) ?? 0) + 1);
      this.spawn(language, heapMb, timing).then((w) => {
        if (this.closed) w.kill("closed");
        else list.push(w);
      }, () => {}).finally(() => {
        this.starting.set(key, (this.starting.get(key) ?? 1) - 1);
      });
    }
  }

  /**
   * A ready, never-used worker. With `refillNow` false the pool refills only
   * on `release` (measurements keep the other core quiet).
   */
  async acquire(
    language: WorkerLanguage,
    heapMb: number,
    refillNow = true,
    timing = false,
  ): Promise<WorkerProcess> {
    if (this.closed) {
      throw new Error(
        "Cannot run code: the sandbox is closed; create a new one",
      );
    }
    if (this.running >= this.options.concurrency) {
      await new Promise<void>((res) => this.queue.push(res));
    }
    this.running++;
    try {
      const key = `${language}:${heapMb}:${timing}`;
      const list = this.idle.get(key) ?? [];
      let w: WorkerProcess | undefined;
      while (list.length) {
        const cand = list.shift()!;
        if (!cand.finished) {
          w = cand;
          break;
        }
      }
      w ??= await this.spawn(language, heapMb, timing);
      w.ref();
      if (refillNow) this.refill(language, heapMb, timing);
      await w.ready;
      this.active.add(w);
      return w;
    } catch (e) {
      this.release(undefined, language, heapMb, timing);
      throw e;
    }
  }

  /** Kills a used worker and frees its slot. */
  release(
    w: WorkerProcess | undefined,
    language: WorkerLanguage,
    heapMb: number,
    timing = false,
  ): void {
    if (w) {
      w.kill("closed");
      this.active.delete(w);
    }
    this.running--;
    this.queue.shift()?.();
    this.refill(language, heapMb, timing);
  }

  /** Kills every worker; later requests throw. */
  async close(): Promise<void> {
    this.closed = true;
    const all: WorkerProcess[] = [...this.active];
    for (const list of this.idle.values()) {
      all.push(...list);
    }
    this.idle.clear();
    for (const w of all) {
      w.ref(); // awaiting an unref'd child's exit would not keep the loop alive
      w.kill("closed");
    }
    await Promise.all(all.map((w) => w.exited.catch(() => {})));
    await this.snapshot?.catch(() => {});
  }
}
