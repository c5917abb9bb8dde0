/**
 * Start-up weight and CPU per row, called by `tests/bench/run.ts`; every
 * measurement runs in a fresh child process:
 *
 * - `benchStartup()`: a one-row sweep through the real CLI
 *   (`lib/cli/sweep.ts`, flags of `deno task sweep`, one sim model, one
 *   arithmetic question, closing summary included) against a process that
 *   only imports `openai` and `zod` and exits, in the same run: wall time
 *   (best of alternating rounds) and peak RSS (`VmHWM`, read by a preload
 *   module as the process exits). Also the CLI's modules imported alone,
 *   the same one-row run without the CLI's flags and closing summary, and
 *   the same sweep of an endpoint (the sim server in another process,
 *   through the openai client, which a sim sweep does not load).
 * - `benchRowCpu()`: CPU per row of a sweep at 0 ms latency against a bare
 *   `openai` client loop of the same requests to the same sim server (in a
 *   third process), same N, same concurrency; and, without a target, the
 *   same against the in-process sim (see the function's comment).
 *
 * Run alone: `deno run -A tests/bench/startup_bench.ts`; `--cpu <mode> N [baseURL]`
 * is the child entry of the CPU benchmark.
 *
 * @module
 */
import type { BenchRow } from "./sweep_bench.ts";
import { taskFlags } from "./_task.ts";

const ROOT = new URL("../../", import.meta.url);
const CONFIG = new URL("deno.json", ROOT).pathname;
/** The flags of `deno task sweep` (permissions and V8 flags). */
const SWEEP = taskFlags(CONFIG, "sweep");
const SWEEP_FLAGS = [
  ...SWEEP.flags,
  ...(SWEEP.v8.length > 0 ? [`--v8-flags=${SWEEP.v8.join(",")}`] : []),
];

/**
 * Preloaded into each child: as it exits, it says so on stderr and waits
 * on stdin while the parent reads its `VmHWM` from /proc (reading
 * /proc/self itself would need more permissions than the sweep task has).
 */
const HWM_PRELOAD = `globalThis.addEventListener("unload", () => {
  console.error("@@exit");
  Deno.stdin.readSync(new Uint8Array(1));
});
`;

const BARE = `import OpenAI from "openai";
import { z } from "zod";
if (typeof OpenAI !== "function" || typeof z.object !== "function") {
  throw new Error("Cannot import openai and zod");
}
`;

interface Measured {
  seconds: number;
  /** Peak RSS in bytes. */
  peak: number;
}

/** Runs `deno <args>` to the end: wall time and peak RSS. */
async function timed(args: string[], cwd: string): Promise<Measured> {
  const started = performance.now();
  const child = new Deno.Command(Deno.execPath(), {
    args,
    cwd,
    stdout: "null",
    stderr: "piped",
    stdin: "piped",
  }).spawn();
  const stdin = child.stdin.getWriter();
  let stderr = "";
  let peak = NaN;
  for await (const chunk of child.stderr.pipeThrough(new TextDecoderStream())) {
    stderr += chunk;
    if (Number.isNaN(peak) && stderr.includes("@@exit")) {
      const status = await Deno.readTextFile(`/proc/${child.pid}/status`);
      peak = Number(/VmHWM:\s+(\d+) kB/.exec(status)?.[1]) * 1024;
      await stdin.close();
    }
  }
  const { success, code } = await child.status;
  const seconds = (performance.now() - started) / 1000;
  if (!success || Number.isNaN(peak)) {
    throw new Error(
      `Cannot measure "deno ${args.join(" ")}": exit ${code}\n${
        stderr.slice(-2000)
      }`,
    );
  }
  return { seconds, peak };
}

/** Options of {@linkcode benchStartup}. */
export interface StartupOptions {
  /** Alternating rounds; the fastest of each is kept. @default 5 */
  rounds?: number;
}

/**
 * A one-row sweep through the CLI against a bare `openai` + `zod` import,
 * each in a fresh process: time (target: within +0.15 s) and peak RSS
 * (target: ≤ 100 MB).
 */
export async function benchStartup(
  options: StartupOptions = {},
): Promise<BenchRow[]> {
  const { rounds = 5 } = options;
  const tmp = await Deno.makeTempDir({ prefix: "startup_bench_" });
  const { spawnServer } = await import("./sweep_bench.ts");
  const server = await spawnServer(0);
  try {
    const preload = `${tmp}/hwm.js`;
    await Deno.writeTextFile(preload, HWM_PRELOAD);
    await Deno.writeTextFile(`${tmp}/bare.ts`, BARE);
    await Deno.writeTextFile(
      `${tmp}/imports.ts`,
      `import ${JSON.stringify(new URL("lib/cli/sweep.ts", ROOT).href)};\n`,
    );
    const lib = (path: string) => JSON.stringify(new URL(path, ROOT).href);
    // The CLI's layers and run, without its flag parsing and closing summary.
    await Deno.writeTextFile(
      `${tmp}/no_summary.ts`,
      `import { loadConfig } from ${lib("lib/config/mod.ts")};
import { runSweep } from ${lib("lib/runner/mod.ts")};
import { loadSuites } from ${lib("lib/suites/registry.ts")};
const suites = await loadSuites(["arithmetic"]);
const { config, baseDir } = await loadConfig(Deno.args[0]!, suites);
const result = await runSweep(config, { progress: "none", suites, baseDir });
if (result.done !== 1) throw new Error("Cannot run the one-row sweep");
`,
    );
    // One arithmetic question for one model, written as a config file.
    const oneRow = async (name: string, model: Record<string, unknown>) => {
      const path = `${tmp}/${name}.json`;
      await Deno.writeTextFile(
        path,
        JSON.stringify({
          name,
          seed: 1,
          outputDir: `${tmp}/out`,
          models: [model],
          suites: [{
            name: "arithmetic",
            params: { families: ["add"], digits: [2], count: 1 },
          }],
        }),
      );
      return path;
    };
    const config = await oneRow("one", {
      name: "sim-strong",
      provider: "sim",
    });
    // The same sweep against an endpoint: the sim server in another
    // process, reached through the openai client (loaded only then).
    const endpointConfig = await oneRow("endpoint", {
      name: "endpoint",
      provider: "openai",
      baseURL: server.baseURL,
      model: "sim-strong",
    });
    const run = (script: string, extra: string[] = []) =>
      timed([
        "run",
        ...SWEEP_FLAGS,
        "--config",
        CONFIG,
        "--preload",
        preload,
        script,
        ...extra,
      ], tmp);
    const cli = new URL("lib/cli/sweep.ts", ROOT).pathname;
    // Warm the module and code caches once, then alternate.
    await run(`${tmp}/bare.ts`);
    await run(cli, [config, "--progress", "none"]);
    const best = {
      bare: [] as Measured[],
      sweep: [] as Measured[],
      imports: [] as Measured[],
      noSummary: [] as Measured[],
      endpoint: [] as Measured[],
    };
    await run(cli, [endpointConfig, "--progress", "none"]);
    for (let r = 0; r < rounds; r++) {
      best.bare.push(await run(`${tmp}/bare.ts`));
      best.sweep.push(await run(cli, [config, "--progress", "none"]));
      best.imports.push(await run(`${tmp}/imports.ts`));
      best.noSummary.push(await run(`${tmp}/no_summary.ts`, [config]));
      best.endpoint.push(
        await run(cli, [endpointConfig, "--progress", "none"]),
      );
    }
    const fastest = (ms: Measured[]) =>
      ms.reduce((a, b) => (b.seconds < a.seconds ? b : a));
    const lowest = (ms: Measured[]) => Math.min(...ms.map((m) => m.peak));
    const bare = fastest(best.bare), sweep = fastest(best.sweep);
    const imports = fastest(best.imports);
    const noSummary = fastest(best.noSummary);
    const endpoint = fastest(best.endpoint);
    const endpointExtra = endpoint.seconds - bare.seconds;
    const mb = (bytes: number) => bytes / 2 ** 20;
    const extra = sweep.seconds - bare.seconds;
    // A measurement without a target: its best time and its lowest peak.
    const timeAndRss = (
      name: string,
      best: Measured,
      all: Measured[],
    ): BenchRow[] => [
      {
        name,
        value: best.seconds,
        unit: "s",
        ratio: best.seconds / bare.seconds,
      },
      { name: `${name}, peak RSS`, value: mb(lowest(all)), unit: "MB" },
    ];
    return [
      {
        name: "bare import of openai + zod (fresh process)",
        value: bare.seconds,
        unit: "s",
      },
      {
        name: "bare import of openai + zod, peak RSS",
        value: mb(lowest(best.bare)),
        unit: "MB",
      },
      {
        name: `one-row sweep CLI (fresh process), ${extra >= 0 ? "+" : ""}${
          extra.toFixed(2)
        } s over bare`,
        value: sweep.seconds,
        unit: "s",
        ratio: sweep.seconds / bare.seconds,
        target: "<= bare + 0.15 s",
        pass: extra <= 0.15,
      },
      {
        name: "one-row sweep CLI, peak RSS",
        value: mb(lowest(best.sweep)),
        unit: "MB",
        ratio: lowest(best.sweep) / lowest(best.bare),
        target: "<= 100 MB",
        pass: mb(lowest(best.sweep)) <= 100,
      },
      // No target: it adds the endpoint probe and a real HTTP request to the
      // sim sweep above, and the openai client the sim sweep skips.
      ...timeAndRss(
        `one-row sweep of an endpoint (sim server, another process), ${
          endpointExtra >= 0 ? "+" : ""
        }${endpointExtra.toFixed(2)} s over bare`,
        endpoint,
        best.endpoint,
      ),
      ...timeAndRss(
        "one-row sweep, CLI layers without the closing summary",
        noSummary,
        best.noSummary,
      ),
      ...timeAndRss(
        "sweep CLI modules imported, no run",
        imports,
        best.imports,
      ),
    ];
  } finally {
    await server.stop();
    await Deno.remove(tmp, { recursive: true });
  }
}

/** Options of {@linkcode benchRowCpu}. */
export interface RowCpuOptions {
  /** Rows (requests) per measurement. @default 20000 */
  n?: number;
  /** Alternating rounds; the least CPU of each is kept. @default 3 (single runs of the HTTP pair varied by ±15 %) */
  rounds?: number;
}

const IN_FLIGHT = 64;

/** What a CPU child runs. */
type CpuMode =
  | "bare-http"
  | "sweep-http"
  | "bare-sim"
  | "sweep-sim"
  | "sweep-sim-nocache";

/**
 * Child entry: CPU seconds of this process for `n` rows by `mode`, as JSON
 * on stdout. The `-http` modes talk to the sim server at `baseURL` (another
 * process, whose CPU is not counted): `bare-http` is a loop of the `openai`
 * client sending the rendered prompts, `sweep-http` a `runSweep` of the same
 * requests as a user runs it (cache on). The `-sim` modes use the
 * in-process sim: `bare-sim` renders and calls `complete` only.
 */
async function cpuChild(
  mode: CpuMode,
  n: number,
  baseURL: string,
): Promise<void> {
  const { cpuUsage } = await import("node:process");
  const { loadSuites } = await import("../../lib/suites/registry.ts");
  const { SweepConfigSchema } = await import("../../lib/config/schema.ts");
  const suites = await loadSuites(["arithmetic"]);
  const suite = suites[0]!;
  const template = suite.templates[suite.defaultTemplates[0]!]!;
  const params = { families: ["add"], digits: [6], count: n };
  const sim = { name: "s", provider: "sim", model: "sim-strong" };
  const http = { ...sim, provider: "openai", baseURL };
  const cpu = () => {
    const u = cpuUsage();
    return (u.user + u.system) / 1e6;
  };
  const report = (started: number, rows: number) =>
    console.log(JSON.stringify({ cpu: cpu() - started, rows }));
  /** Runs `send` over every question with IN_FLIGHT workers. */
  const loop = async (send: (messages: unknown) => Promise<void>) => {
    const questions = await suite.questions({ seed: 0, params, baseDir: "." });
    const started = cpu();
    let next = 0;
    await Promise.all(Array.from({ length: IN_FLIGHT }, async () => {
      while (next < questions.length) {
        await send(template.render(questions[next++]!));
      }
    }));
    report(started, questions.length);
  };
  if (mode === "bare-http") {
    const { default: OpenAI } = await import("openai");
    const client = new OpenAI({ baseURL, apiKey: "bench" });
    await loop(async (messages) => {
      const reply = await client.chat.completions.create({
        model: "sim-strong",
        messages: messages as never,
        temperature: 0,
        max_tokens: 1024,
        seed: 1,
      });
      if (reply.choices.length === 0) throw new Error("Cannot run the loop");
    });
    return;
  }
  if (mode === "bare-sim") {
    const { createProvider } = await import("../../lib/providers/mod.ts");
    const config = SweepConfigSchema.parse({
      name: "bare",
      suites: [{ name: "arithmetic", params }],
      models: [sim],
    });
    const provider = createProvider(config.models[0]!, config, {
      simSkills: suites.flatMap((s) => s.simSkills ?? []),
    });
    await loop(async (messages) => {
      const completion = await provider.complete({
        templateId: template.id,
        messages: messages as never,
        params: { temperature: 0, max_tokens: 1024, seed: 1 },
      }, { sample: 0 });
      if (completion.error !== undefined) {
        throw new Error(`Cannot run the loop: ${completion.error.message}`);
      }
    });
    return;
  }
  const { runSweep } = await import("../../lib/runner/mod.ts");
  const outputDir = await Deno.makeTempDir({ prefix: "row_cpu_" });
  try {
    const config = SweepConfigSchema.parse({
      name: "cpu",
      outputDir,
      concurrency: IN_FLIGHT,
      cache: mode !== "sweep-sim-nocache",
      suites: [{ name: "arithmetic", params }],
      models: [{
        ...(mode === "sweep-http" ? http : sim),
        concurrency: IN_FLIGHT,
      }],
    });
    const started = cpu();
    const result = await runSweep(config, { progress: "none", suites });
    if (result.errors > 0) throw new Error(`${result.errors} error rows`);
    report(started, result.done);
  } finally {
    await Deno.remove(outputDir, { recursive: true });
  }
}

async function cpuOf(mode: CpuMode, n: number, baseURL = ""): Promise<number> {
  const out = await new Deno.Command(Deno.execPath(), {
    args: [
      "run",
      ...SWEEP_FLAGS,
      "--config",
      CONFIG,
      new URL(import.meta.url).pathname,
      "--cpu",
      mode,
      String(n),
      baseURL,
    ],
    cwd: new URL(".", ROOT).pathname,
    stdout: "piped",
    stderr: "inherit",
  }).output();
  if (!out.success) throw new Error(`Cannot measure CPU of the ${mode} loop`);
  const line = new TextDecoder().decode(out.stdout).trim().split("\n").at(-1) ??
    "";
  const { cpu, rows } = JSON.parse(line) as { cpu: number; rows: number };
  if (rows !== n) {
    throw new Error(
      `Cannot measure CPU of the ${mode} loop: ${rows} of ${n} rows`,
    );
  }
  return cpu / n;
}

/**
 * CPU per row of a sweep at 0 ms latency against a bare client loop of the
 * same requests (target: ≤ 1.3×), each in its own process, the sim server
 * in a third one whose CPU is not counted: the `openai` client sending the
 * rendered prompts in a loop, against `runSweep` with the same client
 * (through the provider), cache on, rows written, extracted and judged.
 *
 * Also, without a target: the same against the in-process sim, where a
 * "request" is about 50 µs of the sim's own work, so the per-row
 * bookkeeping (extraction and judging about 18 µs, the row's JSON about
 * 12 µs, the writes and the cache) is a far larger share than against any
 * endpoint.
 */
export async function benchRowCpu(
  options: RowCpuOptions = {},
): Promise<BenchRow[]> {
  const { n = 20_000, rounds = 3 } = options;
  const { spawnServer } = await import("./sweep_bench.ts");
  const server = await spawnServer(0);
  const best = {
    bareHttp: Infinity,
    sweepHttp: Infinity,
    bareSim: Infinity,
    sweepSim: Infinity,
    noCache: Infinity,
  };
  try {
    for (let r = 0; r < rounds; r++) {
      const min = (key: keyof typeof best, value: number) =>
        best[key] = Math.min(best[key], value);
      min("bareHttp", await cpuOf("bare-http", n, server.baseURL));
      min("sweepHttp", await cpuOf("sweep-http", n, server.baseURL));
      min("bareSim", await cpuOf("bare-sim", n));
      min("sweepSim", await cpuOf("sweep-sim", n));
      min("noCache", await cpuOf("sweep-sim-nocache", n));
    }
  } finally {
    await server.stop();
  }
  const us = (s: number) => s * 1e6;
  const ratio = best.sweepHttp / best.bareHttp;
  return [
    {
      name:
        `bare openai client loop CPU per row, sim server at 0 ms, N=${n}, ${IN_FLIGHT} in flight`,
      value: us(best.bareHttp),
      unit: "µs",
    },
    {
      name: `sweep CPU per row, same server and requests (cache on), N=${n}`,
      value: us(best.sweepHttp),
      unit: "µs",
      ratio,
      target: "<= 1.3 of bare",
      pass: ratio <= 1.3,
    },
    {
      name: `in-process sim: bare render + complete CPU per row, N=${n}`,
      value: us(best.bareSim),
      unit: "µs",
    },
    {
      name: `in-process sim: sweep CPU per row (cache on), N=${n}`,
      value: us(best.sweepSim),
      unit: "µs",
      ratio: best.sweepSim / best.bareSim,
    },
    {
      name: `in-process sim: sweep CPU per row, response cache off, N=${n}`,
      value: us(best.noCache),
      unit: "µs",
      ratio: best.noCache / best.bareSim,
    },
  ];
}

if (import.meta.main) {
  const at = Deno.args.indexOf("--cpu");
  if (at !== -1) {
    await cpuChild(
      Deno.args[at + 1] as CpuMode,
      Number(Deno.args[at + 2]),
      Deno.args[at + 3] ?? "",
    );
  } else {
    for (const row of [...await benchStartup(), ...await benchRowCpu()]) {
      console.log(JSON.stringify(row));
    }
  }
}
