/**
 * A pool of single-use warm workers. Each request gets a process that has
 * never run anything else (JS: a started Deno waiting on stdin; Python:
 * native CPython in bubblewrap waiting on stdin, or a Pyodide restored
 * from a trusted snapshot), and the process is killed when the request
 * ends, so no state can leak from one request to the next. The pool
 * refills itself in the background.
 *
 * @module
 */
import {
  type Backend,
  findNativePython,
  NATIVE_NPROC,
  nativeCommand,
  type NativePython,
  type PythonChoice,
} from "./_backend.ts";
import {
  type CgroupSupport,
  cgroupSupport,
  cleanStale,
  type Isolation,
  WorkerCgroup,
} from "./_cgroup.ts";
import {
  beginWork,
  onCpus,
  pinTo,
  quietCpus,
  takeTimingCore,
  type Work,
  workCpus,
  workGeneration,
} from "./_cores.ts";
import { type Launch, WorkerProcess } from "./_process.ts";
import { descendants } from "./_procfs.ts";
import {
  compileHarness,
  NATIVE_HARNESS,
  type NativeHarness,
} from "./_py_native.ts";
import { childArgs, findPyodideDir, loadSnapshot } from "./_pyodide.ts";
import { selfTestNative } from "./_selftest.ts";
import { checkMemoryFloor } from "./memory_floor.ts";
import type { PairLease } from "./pair.ts";
import type { BackendInfo } from "./types.ts";

/** Options of a pool (see `SandboxOptions`). */
export interface PoolOptions {
  warm: number;
  concurrency: number;
  /** Measurements running at once (each also takes a `concurrency` slot). */
  timingConcurrency: number;
  /** Timed work runs alone (see `SandboxOptions.quietTiming`). */
  quietTiming: boolean;
  unref: boolean;
  python: PythonChoice;
  bwrap?: string | undefined;
  pyodideDir?: string | undefined;
}

/** Languages a worker runs. */
export type WorkerLanguage = "python" | "javascript";

/** What a request asks the pool for. */
export interface LeaseRequest {
  language: WorkerLanguage;
  /** The request's memory limit in MiB (workers are made per limit). */
  heapMb: number;
  /** A timing worker (measurements): waits for a timing slot. */
  timing?: boolean;
  /**
   * A worker whose speed holds still under timed samples (requests with
   * timed calls): Pyodide's WebAssembly runs in Liftoff only, so V8's
   * background tier-up cannot speed one process up halfway through and
   * not another. Timing workers are steady too.
   */
  steady?: boolean;
  /** Refill the warm list now (false: only when released). @default true */
  refillNow?: boolean;
  /**
   * Run alone: wait until no other request runs, start none meanwhile and
   * spawn no warm workers, so the timings see a quiet machine.
   * @default false
   */
  quiet?: boolean;
}

/**
 * A worker lent to one request; `release` kills it and frees the slot.
 * `park`, `cpu` and `follow` serve a `TimingPair` (see `PairLease`).
 */
export interface Lease extends PairLease {
  worker: WorkerProcess;
  release(): void;
  /**
   * Makes the rest of the request quiet (see `LeaseRequest.quiet`): waits
   * until no other request runs and holds the pool until released.
   */
  quiet(): Promise<void>;
}

/** Counting semaphore (FIFO). */
class Slots {
  private used = 0;
  private waiting: (() => void)[] = [];
  constructor(private readonly size: number) {}
  async take(): Promise<void> {
    if (this.used >= this.size) {
      await new Promise<void>((res) => this.waiting.push(res));
    } else this.used++;
  }
  give(): void {
    const next = this.waiting.shift();
    if (next) next(); // the slot passes straight on
    else this.used--;
  }
}

/** The Python backend chosen, with what a native worker starts from. */
type NativeInfo = BackendInfo & {
  native?: NativePython;
  /** The harness compiled once per pool (`compileHarness`). */
  harness?: NativeHarness;
};

/** Tasks a Deno worker may have (V8's and the runtime's threads). */
const DENO_PIDS = 256;
/** Beyond the candidate's processes: setpriv/bwrap, bwrap's init, harness. */
const NATIVE_PIDS = NATIVE_NPROC + 8;

let support: CgroupSupport | undefined;

/**
 * Where this process makes worker cgroups, decided once: at the first
 * pool, folders left by dead processes are removed.
 */
export function workerCgroups(): CgroupSupport {
  if (support) return support;
  const found = cgroupSupport();
  support = found;
  void cleanStale(found);
  if (found.level === "cgroup") {
    globalThis.addEventListener("unload", () => {
      for (const d of new Set(Object.values(found.dirs))) {
        try {
          Deno.removeSync(d); // empty once every worker is gone
        } catch {
          // a worker's cgroup is still there: the next process cleans it
        }
      }
    });
  }
  return found;
}

/** Single-use warm workers per (backend, heap limit, steady), refilled. */
export class Pool {
  private idle = new Map<string, WorkerProcess[]>();
  private active = new Set<WorkerProcess>();
  private slots: Slots;
  private timingSlots: Slots;
  private quietLock = new Slots(1);
  private quietNow = false;
  private starting = new Map<string, number>();
  private snapshot: Promise<Uint8Array> | undefined;
  private dir: string | undefined;
  private python: Promise<NativeInfo> | undefined;
  /** Quiet timing on cores of its own (see `_cores.ts`), or null: alone. */
  private readonly cpus: readonly number[] | null;
  /** The work CPUs' generation a ready, idle worker was last placed at. */
  private placed = new WeakMap<WorkerProcess, number>();
  closed = false;

  constructor(readonly options: PoolOptions) {
    this.slots = new Slots(options.concurrency);
    this.timingSlots = new Slots(options.timingConcurrency);
    this.cpus = options.quietTiming ? quietCpus() : null;
  }

  /** Which protection judges workers' memory and processes. */
  isolation(): Isolation {
    return workerCgroups().level;
  }

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

  /**
   * The backend this pool runs Python on, decided once: `native` when
   * asked for or when `auto` finds bubblewrap and python3 and the
   * start-up self-test passes; otherwise Pyodide (`auto`) or an error
   * (`native`).
   */
  pythonBackend(): Promise<NativeInfo> {
    this.python ??= this.resolvePython();
    return this.python;
  }

  private async resolvePython(): Promise<
    NativeInfo
  > {
    const choice = this.options.python;
    const pyodide = (reason: string): BackendInfo => ({
      backend: "pyodide",
      detail: "Pyodide (CPython in WebAssembly) in a Deno child",
      reason,
    });
    if (choice === "pyodide") return pyodide("asked for pyodide");
    const found = await findNativePython(this.options.bwrap);
    let problem: string | null;
    let harness: NativeHarness = { script: NATIVE_HARNESS, args: [] };
    if ("missing" in found) problem = found.missing;
    else {
      harness = await compileHarness(found.python);
      problem = await selfTestNative(
        (memoryMb) => this.nativeLaunch(found, harness, memoryMb),
      );
    }
    if (problem === null && !("missing" in found)) {
      return {
        backend: "native",
        detail:
          `CPython ${found.pythonVersion} in bubblewrap ${found.bwrapVersion}`,
        reason: choice === "auto"
          ? "auto: bubblewrap and python3 found, isolation self-test passed"
          : "asked for native; isolation self-test passed",
        native: found,
        harness,
      };
    }
    if (choice === "native") {
      throw new Error(
        `Cannot run Python natively: ${problem}; or set the sandbox's python backend to "auto" or "pyodide"`,
      );
    }
    return pyodide(`auto: no native Python sandbox (${problem})`);
  }

  private nativeLaunch(
    native: NativePython,
    harness: NativeHarness,
    heapMb: number,
  ): Launch {
    return {
      backend: "native",
      ...nativeCommand(native, harness, heapMb),
      tree: true,
    };
  }

  private async launch(
    backend: Backend,
    heapMb: number,
    steady: boolean,
  ): Promise<Launch> {
    if (backend === "native") {
      const info = await this.pythonBackend();
      return this.nativeLaunch(info.native!, info.harness!, heapMb);
    }
    if (backend === "deno") {
      return {
        backend,
        command: Deno.execPath(),
        // --liftoff-only (steady) is for Pyodide's WebAssembly only
        args: childArgs("javascript", heapMb, undefined, undefined, false),
      };
    }
    const snapshot = await this.getSnapshot();
    return {
      backend,
      command: Deno.execPath(),
      args: childArgs("python", heapMb, this.pyodideDir(), undefined, steady),
      preamble: [
        new TextEncoder().encode(
          JSON.stringify({ snapshot: snapshot.length }) + "\n",
        ),
        snapshot,
      ],
    };
  }

  /**
   * Starts a worker: on `core` when a timing holding it starts its own,
   * else as work (counted while it starts, ~100 ms of CPU for Deno, and on
   * the work CPUs meanwhile).
   */
  private async spawn(
    backend: Backend,
    heapMb: number,
    steady: boolean,
    core?: number,
  ): Promise<WorkerProcess> {
    const launch = this.inCgroup(
      await this.launch(backend, heapMb, steady),
      heapMb,
    );
    const closed = () =>
      new Error("Cannot start a worker: the sandbox is closed");
    if (this.closed) throw closed();
    const start = () => new WorkerProcess(launch, this.options.unref);
    if (this.cpus === null) return start();
    if (core !== undefined) return onCpus([core], start);
    const work = await beginWork();
    let w: WorkerProcess;
    try {
      if (this.closed) throw closed();
      w = onCpus(workCpus(), start);
    } catch (e) {
      work.end();
      throw e;
    }
    work.tree = () => treeOf(w);
    w.ready.then(() => this.placed.set(w, workGeneration()), () => {})
      .finally(() => work.end());
    return w;
  }

  /** The launch inside a cgroup of its own, where one can be made. */
  private inCgroup(launch: Launch, heapMb: number): Launch {
    const found = workerCgroups();
    if (found.level !== "cgroup") return launch;
    let cgroup: WorkerCgroup;
    try {
      cgroup = WorkerCgroup.create(
        found,
        heapMb,
        launch.backend === "native" ? NATIVE_PIDS : DENO_PIDS,
      );
    } catch {
      return launch; // this worker runs at the rlimit level (its result says)
    }
    return { ...launch, ...cgroup.wrap(launch.command, launch.args), cgroup };
  }

  private refill(backend: Backend, heapMb: number, steady: boolean): void {
    if (this.closed || this.options.warm <= 0 || this.quietNow) return;
    const key = `${backend}:${heapMb}:${steady}`;
    const list = this.idle.get(key) ?? [];
    this.idle.set(key, list);
    const live = list.filter((w) => !w.finished).length +
      (this.starting.get(key) ?? 0);
    for (let i = live; i < this.options.warm; i++) {
      this.starting.set(key, (this.starting.get(key) ?? 0) + 1);
      this.spawn(backend, heapMb, steady).then((w) => {
        if (this.closed) w.kill("closed");
        else list.push(w);
      }, () => {}).finally(() => {
        this.starting.set(key, (this.starting.get(key) ?? 1) - 1);
      });
    }
  }

  /** The backend a language runs on in this pool. */
  async backendOf(language: WorkerLanguage): Promise<Backend> {
    return language === "javascript"
      ? "deno"
      : (await this.pythonBackend()).backend;
  }

  /**
   * A ready, never-used worker, once a slot is free (and a timing slot,
   * for a measurement). With `refillNow` false the pool refills only on
   * release (measurements keep the other cores quiet).
   */
  async acquire(request: LeaseRequest): Promise<Lease> {
    const {
      language,
      heapMb,
      timing = false,
      refillNow = true,
      quiet = false,
    } = request;
    // JavaScript workers are steady already: one key for both
    const steady = (timing || !!request.steady) && language === "python";
    if (this.closed) {
      throw new Error(
        "Cannot run code: the sandbox is closed; create a new one",
      );
    }
    const backend = await this.backendOf(language);
    // A limit too small to start a worker is the caller's to fix.
    checkMemoryFloor(backend, { memoryMb: heapMb, name: "memoryMb" });
    const cpus = this.cpus;
    if (timing) await this.timingSlots.take();
    // Alone: a quiet lease holds every slot (one quiet lease at a time, so
    // two cannot each hold part of them). On cores: it holds a timing core
    // and no work slot.
    let quietHeld = quiet && cpus === null;
    if (quietHeld) await this.quietLock.take();
    let held = quiet ? (cpus === null ? this.options.concurrency : 0) : 1;
    for (let i = 0; i < held; i++) await this.slots.take();
    if (quietHeld) this.quietNow = true;
    let core: { core: number; give: () => void } | undefined;
    if (quiet && cpus !== null) core = await takeTimingCore();
    // Work beside timings: counted until released or made quiet, and kept
    // off the timings' cores meanwhile.
    let work: Work | undefined;
    if (!quiet && cpus !== null) work = await beginWork();
    let released = false;
    let w: WorkerProcess | undefined;
    const release = () => {
      if (released) return;
      released = true;
      if (w) {
        w.kill("closed");
        this.active.delete(w);
      }
      core?.give();
      work?.end();
      if (quietHeld) {
        this.quietNow = false;
        this.quietLock.give();
      }
      for (let i = 0; i < held; i++) this.slots.give();
      if (timing) this.timingSlots.give();
      this.refill(backend, heapMb, steady);
    };
    // Alone in the pool: waits for the quiet lock, then for every slot.
    const alone = async () => {
      // Give the own slot back first: another lease waiting for the quiet
      // lock must not hold a slot this one waits for.
      for (let i = 0; i < held; i++) this.slots.give();
      held = 0;
      await this.quietLock.take();
      quietHeld = true;
      for (let i = 0; i < this.options.concurrency; i++) {
        await this.slots.take();
        held++;
      }
      this.quietNow = true;
    };
    // Moves the worker to its timing core; alone in the pool if it cannot.
    const pin = async (worker: WorkerProcess) => {
      if (cpus === null || core === undefined) return;
      if (pinTo(treeOf(worker), [core.core])) return;
      core.give();
      core = undefined;
      await alone();
    };
    // The work slot goes back (the request waits, or goes on on a timing
    // core, and the work cores take the next request).
    const park = () => {
      if (quietHeld || core !== undefined || released) return;
      for (let i = 0; i < held; i++) this.slots.give();
      held = 0;
      work?.end();
      work = undefined;
    };
    const quietNow = async () => {
      if (quietHeld || core !== undefined || released) return;
      if (cpus === null) return await alone();
      park();
      const taken = await takeTimingCore();
      if (released) return taken.give(); // ended while it waited
      core = taken;
      if (w) await pin(w);
    };
    try {
      const key = `${backend}:${heapMb}:${steady}`;
      const list = this.idle.get(key) ?? [];
      while (list.length) {
        const cand = list.shift()!;
        if (!cand.finished) {
          w = cand;
          break;
        }
      }
      w ??= await this.spawn(backend, heapMb, steady, core?.core);
      w.ref();
      if (refillNow) this.refill(backend, heapMb, steady);
      await w.ready;
      if (core !== undefined) await pin(w);
      else if (work !== undefined) {
        const mine = w;
        work.tree = () => treeOf(mine);
        // a warm worker placed before the work CPUs last changed
        if (this.placed.get(w) !== workGeneration()) {
          pinTo(treeOf(w), workCpus());
        }
      }
      this.active.add(w);
      const worker = w;
      return {
        worker,
        release,
        quiet: quietNow,
        park,
        cpu: () => core?.core,
        follow: (cpu) => {
          park();
          if (cpu !== undefined && !released) pinTo(treeOf(worker), [cpu]);
        },
      };
    } catch (e) {
      release();
      throw e;
    }
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
    await Promise.all(all.map((w) => w.cleaned));
    await this.snapshot?.catch(() => {});
    await this.python?.catch(() => {});
  }
}

/** A worker's processes (the child, and its tree for tree launches). */
function treeOf(w: WorkerProcess): number[] {
  return [w.pid, ...descendants(w.pid)];
}
