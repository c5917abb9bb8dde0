/**
 * Benchmarks of the sweep runner, called by `tests/bench/run.ts`:
 *
 * - `benchSweepThroughput()`: end-to-end `runSweep` against the sim HTTP
 *   server (in a child process, so server and client each get a core) at
 *   0 and 50 ms latency, 16 and 64 in flight, N = 5,000 and 20,000, as
 *   ratios to a bare loop of the same `openai` client against the same
 *   server in the same run, and to the ideal in-flight ÷ latency.
 * - `benchSweepMemory()`: peak RSS (`VmHWM`) of a whole in-process sweep at
 *   N = 1k, 10k, 100k, each in its own child process run with the V8 flags
 *   of `deno task sweep` (read from `deno.json`).
 *
 * Run alone: `deno run -A tests/bench/sweep_bench.ts [--quick]`;
 * `--rss N` is the child-process entry of the memory benchmark.
 *
 * @module
 */
import OpenAI from "openai";
// The layers the sweep CLI imports, not lib/mod.ts: that also loads the
// report (Polars, Plot), which a sweep does not, and would count in its RSS.
import { runSweep } from "../../lib/runner/mod.ts";
import { SweepConfigSchema } from "../../lib/config/schema.ts";
import { loadSuites } from "../../lib/suites/registry.ts";
import type { Question } from "../../lib/types.ts";
import { taskFlags } from "./_task.ts";

// The suite a sweep of arithmetic loads (the CLI loads only the suites its
// config names; the others would count in the RSS).
const SUITES = await loadSuites(["arithmetic"]);
const getSuite = (_name: "arithmetic") => SUITES[0]!;

/** One measured number, with its reference and target when it has one. */
export interface BenchRow {
  name: string;
  value: number;
  unit: string;
  /** value ÷ reference. */
  ratio?: number;
  /** What the ratio (or value) must reach, e.g. `">= 0.8 of bare"`. */
  target?: string;
  pass?: boolean;
}

const ROOT = new URL("../../", import.meta.url);
/** The V8 flags `deno task sweep` runs with. */
const SWEEP_V8 = taskFlags(new URL("deno.json", ROOT).pathname, "sweep").v8;

/** Arithmetic params giving exactly `n` questions (one family, one level). */
function params(n: number) {
  return { families: ["add"], digits: [6], count: n };
}

/** The sim server in a child process; resolves once it listens. */
export async function spawnServer(
  latencyMs: number,
): Promise<{ baseURL: string; stop(): Promise<void> }> {
  const child = new Deno.Command(Deno.execPath(), {
    args: [
      "run",
      "-A",
      "--config",
      new URL("deno.json", ROOT).pathname,
      new URL("lib/cli/serve_sim.ts", ROOT).pathname,
      "--port",
      "0",
      "--latency",
      String(latencyMs),
    ],
    stdout: "piped",
    stderr: "inherit",
    stdin: "null",
  }).spawn();
  const reader = child.stdout.pipeThrough(new TextDecoderStream()).getReader();
  let text = "";
  let baseURL: string | undefined;
  while (baseURL === undefined) {
    const { value, done } = await reader.read();
    if (done) throw new Error("Cannot start the sim server: it exited");
    text += value;
    baseURL = /Sim server: (\S+)/.exec(text)?.[1];
  }
  // Keep draining its output so it never blocks on a full pipe.
  const drain = (async () => {
    while (!(await reader.read()).done) { /* discard */ }
  })();
  return {
    baseURL,
    async stop() {
      child.kill("SIGTERM");
      await child.status;
      await drain.catch(() => {});
    },
  };
}

/** Requests/s of a bare loop of the openai client: `inFlight` workers, `n` requests. */
async function bareLoop(
  baseURL: string,
  questions: Question[],
  inFlight: number,
): Promise<number> {
  const suite = getSuite("arithmetic");
  const template = suite.templates[suite.defaultTemplates[0]!]!;
  const client = new OpenAI({
    baseURL,
    apiKey: "bench",
    maxRetries: 0,
    timeout: 60_000,
  });
  let next = 0;
  const started = performance.now();
  await Promise.all(Array.from({ length: inFlight }, async () => {
    while (next < questions.length) {
      const q = questions[next++]!;
      await client.chat.completions.create({
        model: "sim-strong",
        messages: template.render(q) as OpenAI.ChatCompletionMessageParam[],
        temperature: 0,
        max_tokens: 1024,
        seed: 1,
      });
    }
  }));
  return questions.length / ((performance.now() - started) / 1000);
}

/** Requests/s of a whole `runSweep` of `n` rows against `baseURL`. */
async function sweepRate(
  baseURL: string,
  n: number,
  inFlight: number,
  outputDir: string,
): Promise<number> {
  const config = SweepConfigSchema.parse({
    name: "bench",
    outputDir,
    concurrency: inFlight,
    retries: 0,
    suites: [{ name: "arithmetic", params: params(n) }],
    models: [{
      name: "b",
      provider: "openai",
      model: "sim-strong",
      baseURL,
      concurrency: inFlight,
    }],
  });
  const started = performance.now();
  const result = await runSweep(config, { progress: "none", suites: SUITES });
  const seconds = (performance.now() - started) / 1000;
  if (result.done !== n || result.errors !== 0) {
    throw new Error(
      `Cannot measure the sweep: ${result.done} rows, ${result.errors} errors of ${n}`,
    );
  }
  return n / seconds;
}

/** Options of {@linkcode benchSweepThroughput}. */
export interface ThroughputOptions {
  /** Server latencies in ms. @default [0, 50] */
  latencies?: number[];
  /** Requests in flight. @default [16, 64] */
  inFlight?: number[];
  /** Rows per sweep. @default [5000, 20000] */
  sizes?: number[];
  /**
   * Alternating rounds of bare loop and sweep per setting; the best of each
   * is kept (other work on a shared machine only ever slows a round down).
   * @default 2
   */
  rounds?: number;
}

/**
 * Sweep throughput against the sim server, as ratios to a bare openai loop
 * and (with latency) to the ideal in-flight ÷ latency.
 */
export async function benchSweepThroughput(
  options: ThroughputOptions = {},
): Promise<BenchRow[]> {
  const {
    latencies = [0, 50],
    inFlight = [16, 64],
    sizes = [5_000, 20_000],
    rounds = 2,
  } = options;
  const rows: BenchRow[] = [];
  const tmp = await Deno.makeTempDir({ prefix: "sweep_bench_" });
  try {
    for (const latency of latencies) {
      const server = await spawnServer(latency);
      try {
        for (const n of sizes) {
          const questions = await getSuite("arithmetic").questions({
            seed: 0,
            params: params(n),
            baseDir: ".",
          });
          for (const c of inFlight) {
            // Warm up (JIT, sockets), then alternate bare loop and sweep.
            await bareLoop(server.baseURL, questions.slice(0, 200), c);
            let bare = 0;
            let sweep = 0;
            for (let r = 0; r < rounds; r++) {
              bare = Math.max(
                bare,
                await bareLoop(server.baseURL, questions, c),
              );
              sweep = Math.max(
                sweep,
                await sweepRate(
                  server.baseURL,
                  n,
                  c,
                  `${tmp}/${latency}-${n}-${c}-${r}`,
                ),
              );
            }
            const label = `sweep ${latency}ms c=${c} N=${n}`;
            if (latency === 0) {
              const ratio = sweep / bare;
              rows.push({
                name: `${label} vs bare client (${bare.toFixed(0)}/s)`,
                value: sweep,
                unit: "req/s",
                ratio,
                target: ">= 0.8",
                pass: ratio >= 0.8,
              });
            } else {
              const ideal = (c * 1000) / latency;
              const ratio = sweep / ideal;
              rows.push({
                name: `${label} vs ideal (${ideal.toFixed(0)}/s)`,
                value: sweep,
                unit: "req/s",
                ratio,
                target: ">= 0.97",
                pass: ratio >= 0.97,
              });
              rows.push({
                name: `${label} vs bare client (${bare.toFixed(0)}/s)`,
                value: sweep,
                unit: "req/s",
                ratio: sweep / bare,
              });
            }
          }
        }
      } finally {
        await server.stop();
      }
    }
  } finally {
    await Deno.remove(tmp, { recursive: true });
  }
  return rows;
}

/** Peak RSS in bytes of this process (`VmHWM`), or NaN off Linux. */
export function peakRss(): number {
  try {
    const status = Deno.readTextFileSync("/proc/self/status");
    const kb = /VmHWM:\s+(\d+) kB/.exec(status)?.[1];
    return kb === undefined ? NaN : Number(kb) * 1024;
  } catch {
    return NaN;
  }
}

/**
 * Child entry: one in-process sweep (sim, cache on) of `n` rows, 10 samples
 * of n/10 questions (the suite contract hands questions over as an array;
 * rows are what must stream). Prints peak RSS, the RSS after imports, and
 * the live heap after a full GC, as JSON.
 */
async function rssChild(n: number): Promise<void> {
  const baseline = peakRss();
  const outputDir = await Deno.makeTempDir({ prefix: "sweep_rss_" });
  try {
    const config = SweepConfigSchema.parse({
      name: "rss",
      outputDir,
      concurrency: 64,
      samples: 10,
      temperature: 0.7,
      suites: [{ name: "arithmetic", params: params(Math.ceil(n / 10)) }],
      models: [{
        name: "s",
        provider: "sim",
        model: "sim-strong",
        concurrency: 64,
      }],
    });
    const result = await runSweep(config, { progress: "none", suites: SUITES });
    const gc = (globalThis as { gc?: () => void }).gc;
    gc?.();
    await new Promise((resolve) => setTimeout(resolve, 100));
    gc?.();
    console.log(JSON.stringify({
      n,
      done: result.done,
      seconds: result.elapsedSeconds,
      peakRss: peakRss(),
      baseline,
      liveHeap: Deno.memoryUsage().heapUsed,
    }));
  } finally {
    await Deno.remove(outputDir, { recursive: true });
  }
}

/** Peak RSS of whole in-process sweeps, each N in its own child process. */
export async function benchSweepMemory(
  sizes: number[] = [1_000, 10_000, 100_000],
): Promise<BenchRow[]> {
  const measured: {
    n: number;
    peakRss: number;
    seconds: number;
    baseline: number;
    liveHeap: number;
  }[] = [];
  for (const n of sizes) {
    const out = await new Deno.Command(Deno.execPath(), {
      args: [
        "run",
        "-A",
        // The V8 flags of `deno task sweep` (its young generation size), and
        // a real full GC before reading the live heap (else gc is undefined).
        `--v8-flags=${[...SWEEP_V8, "--expose-gc"].join(",")}`,
        "--config",
        new URL("deno.json", ROOT).pathname,
        new URL(import.meta.url).pathname,
        "--rss",
        String(n),
      ],
      stdout: "piped",
      stderr: "inherit",
    }).output();
    if (!out.success) {
      throw new Error(`Cannot measure RSS at N=${n}: the child failed`);
    }
    const line =
      new TextDecoder().decode(out.stdout).trim().split("\n").at(-1) ?? "";
    measured.push(JSON.parse(line));
  }
  const smallest = measured[0]!;
  const mb = (bytes: number) => bytes / 2 ** 20;
  const rows: BenchRow[] = [{
    name: "RSS after the sweep CLI's imports, before the sweep",
    value: mb(smallest.baseline),
    unit: "MB",
  }];
  for (const m of measured) {
    const big = m.n >= 100_000;
    const peak: BenchRow = {
      name: `peak RSS N=${m.n} (${
        (m.n / m.seconds).toFixed(0)
      } rows/s), ratio to N=${smallest.n}`,
      value: mb(m.peakRss),
      unit: "MB",
      ratio: m.peakRss / smallest.peakRss,
      target: big ? "<= 150 MB" : "flat",
    };
    if (big) peak.pass = mb(m.peakRss) <= 150;
    rows.push(peak);
    rows.push({
      name: `live heap after GC N=${m.n}, ratio to N=${smallest.n}`,
      value: mb(m.liveHeap),
      unit: "MB",
      ratio: m.liveHeap / smallest.liveHeap,
      target: "flat (<= 1.5)",
      pass: m.liveHeap / smallest.liveHeap <= 1.5,
    });
  }
  return rows;
}

if (import.meta.main) {
  const rssAt = Deno.args.indexOf("--rss");
  if (rssAt !== -1) {
    await rssChild(Number(Deno.args[rssAt + 1]));
  } else {
    const quick = Deno.args.includes("--quick");
    const rows = [
      ...await benchSweepThroughput(quick ? { sizes: [2_000], rounds: 1 } : {}),
      ...await benchSweepMemory(quick ? [1_000, 10_000] : undefined),
    ];
    for (const r of rows) console.log(JSON.stringify(r));
  }
}
