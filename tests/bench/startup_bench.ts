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
 *   and the same one-row run without the closing summary (which loads the
 *   report and Polars).
 * - `benchRowCpu()`: CPU per row of an in-process sim sweep (`runSweep`,
 *   defaults as a user runs it, cache on, latency 0) against a bare loop of
 *   the same requests through the same sim provider (rendering and
 *   `complete` only: no storage, extraction or judging), same N, same
 *   concurrency.
 *
 * Run alone: `deno run -A tests/bench/startup_bench.ts`; `--cpu bare|sweep N`
 * is the child entry of the CPU benchmark.
 *
 * @module
 */
import type { BenchRow } from "./sweep_bench.ts";

const ROOT = new URL("../../", import.meta.url);
const CONFIG = new URL("deno.json", ROOT).pathname;
/** The permissions of `deno task sweep`. */
const SWEEP_FLAGS = [
  "--allow-read",
  "--allow-write",
  "--allow-net",
  "--allow-env",
  "--allow-run",
  "--allow-sys",
  "--allow-ffi",
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
  try {
    const preload = `${tmp}/hwm.js`;
    await Deno.writeTextFile(preload, HWM_PRELOAD);
    await Deno.writeTextFile(`${tmp}/bare.ts`, BARE);
    await Deno.writeTextFile(
      `${tmp}/imports.ts`,
      `import ${JSON.stringify(new URL("lib/cli/sweep.ts", ROOT).href)};\n`,
    );
    const lib = (path: string) => JSON.stringify(new URL(path, ROOT).href);
    // The CLI's layers and run, without its closing summary (Polars).
    await Deno.writeTextFile(
      `${tmp}/no_summary.ts`,
      `import { loadConfig } from ${lib("lib/config/mod.ts")};
import { runSweep } from ${lib("lib/runner/mod.ts")};
import { SUITES } from ${lib("lib/suites/mod.ts")};
const { config, baseDir } = await loadConfig(Deno.args[0]!, SUITES);
const result = await runSweep(config, { progress: "none", suites: SUITES, baseDir });
if (result.done !== 1) throw new Error("Cannot run the one-row sweep");
`,
    );
    const config = `${tmp}/one.json`;
    await Deno.writeTextFile(
      config,
      JSON.stringify({
        name: "one",
        seed: 1,
        outputDir: `${tmp}/out`,
        models: [{ name: "sim-strong", provider: "sim" }],
        suites: [{
          name: "arithmetic",
          params: { families: ["add"], digits: [2], count: 1 },
        }],
      }),
    );
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
    };
    for (let r = 0; r < rounds; r++) {
      best.bare.push(await run(`${tmp}/bare.ts`));
      best.sweep.push(await run(cli, [config, "--progress", "none"]));
      best.imports.push(await run(`${tmp}/imports.ts`));
      best.noSummary.push(await run(`${tmp}/no_summary.ts`, [config]));
    }
    const fastest = (ms: Measured[]) =>
      ms.reduce((a, b) => (b.seconds < a.seconds ? b : a));
    const lowest = (ms: Measured[]) => Math.min(...ms.map((m) => m.peak));
    const bare = fastest(best.bare), sweep = fastest(best.sweep);
    const imports = fastest(best.imports);
    const noSummary = fastest(best.noSummary);
    const mb = (bytes: number) => bytes / 2 ** 20;
    const extra = sweep.seconds - bare.seconds;
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
      {
        name: "one-row sweep, CLI layers without the closing summary",
        value: noSummary.seconds,
        unit: "s",
        ratio: noSummary.seconds / bare.seconds,
      },
      {
        name: "one-row sweep without the closing summary, peak RSS",
        value: mb(lowest(best.noSummary)),
        unit: "MB",
      },
      {
        name: "sweep CLI modules imported, no run",
        value: imports.seconds,
        unit: "s",
        ratio: imports.seconds / bare.seconds,
      },
      {
        name: "sweep CLI modules imported, no run, peak RSS",
        value: mb(lowest(best.imports)),
        unit: "MB",
      },
    ];
  } finally {
    await Deno.remove(tmp, { recursive: true });
  }
}

/** Options of {@linkcode benchRowCpu}. */
export interface RowCpuOptions {
  /** Rows (requests) per measurement. @default 20000 */
  n?: number;
  /** Alternating rounds; the least CPU of each is kept. @default 2 */
  rounds?: number;
}

const IN_FLIGHT = 64;

/** Child entry: CPU seconds of `n` rows by `mode`, as JSON on stdout. */
async function cpuChild(mode: string, n: number): Promise<void> {
  const { cpuUsage } = await import("node:process");
  const { getSuite, SUITES } = await import("../../lib/suites/mod.ts");
  const { SweepConfigSchema } = await import("../../lib/config/schema.ts");
  const params = { families: ["add"], digits: [6], count: n };
  const model = { name: "s", provider: "sim", model: "sim-strong" };
  const cpu = () => {
    const u = cpuUsage();
    return (u.user + u.system) / 1e6;
  };
  if (mode === "bare") {
    const { createProvider } = await import("../../lib/providers/mod.ts");
    const config = SweepConfigSchema.parse({
      name: "bare",
      suites: [{ name: "arithmetic", params }],
      models: [model],
    });
    const suite = getSuite("arithmetic");
    const template = suite.templates[suite.defaultTemplates[0]!]!;
    const provider = createProvider(config.models[0]!, config, undefined, {
      simSkills: SUITES.flatMap((s) => s.simSkills ?? []),
    });
    const questions = await suite.questions({ seed: 0, params, baseDir: "." });
    const started = cpu();
    let next = 0;
    await Promise.all(Array.from({ length: IN_FLIGHT }, async () => {
      while (next < questions.length) {
        const q = questions[next++]!;
        const completion = await provider.complete({
          templateId: template.id,
          messages: template.render(q),
          params: { temperature: 0, max_tokens: 1024, seed: 1 },
        }, { sample: 0 });
        if (completion.error !== undefined) {
          throw new Error(
            `Cannot run the bare loop: ${completion.error.message}`,
          );
        }
      }
    }));
    console.log(
      JSON.stringify({ cpu: cpu() - started, rows: questions.length }),
    );
    return;
  }
  const { runSweep } = await import("../../lib/runner/mod.ts");
  const outputDir = await Deno.makeTempDir({ prefix: "row_cpu_" });
  try {
    const config = SweepConfigSchema.parse({
      name: "cpu",
      outputDir,
      concurrency: IN_FLIGHT,
      cache: mode !== "sweep-nocache",
      suites: [{ name: "arithmetic", params }],
      models: [{ ...model, concurrency: IN_FLIGHT }],
    });
    const started = cpu();
    const result = await runSweep(config, { progress: "none", suites: SUITES });
    console.log(JSON.stringify({ cpu: cpu() - started, rows: result.done }));
  } finally {
    await Deno.remove(outputDir, { recursive: true });
  }
}

async function cpuOf(
  mode: "bare" | "sweep" | "sweep-nocache",
  n: number,
): Promise<number> {
  const out = await new Deno.Command(Deno.execPath(), {
    args: [
      "run",
      "-A",
      "--config",
      CONFIG,
      new URL(import.meta.url).pathname,
      "--cpu",
      mode,
      String(n),
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
 * CPU per row of an in-process sim sweep at 0 ms latency against a bare
 * loop of the same requests through the same sim (target: ≤ 1.3×).
 */
export async function benchRowCpu(
  options: RowCpuOptions = {},
): Promise<BenchRow[]> {
  const { n = 20_000, rounds = 2 } = options;
  let bare = Infinity, sweep = Infinity, noCache = Infinity;
  for (let r = 0; r < rounds; r++) {
    bare = Math.min(bare, await cpuOf("bare", n));
    sweep = Math.min(sweep, await cpuOf("sweep", n));
    noCache = Math.min(noCache, await cpuOf("sweep-nocache", n));
  }
  const us = (s: number) => s * 1e6;
  const ratio = sweep / bare;
  return [
    {
      name: `bare sim loop CPU per row, N=${n}, ${IN_FLIGHT} in flight`,
      value: us(bare),
      unit: "µs",
    },
    {
      name: `sweep CPU per row at 0 ms (sim, cache on), N=${n}`,
      value: us(sweep),
      unit: "µs",
      ratio,
      target: "<= 1.3 of bare",
      pass: ratio <= 1.3,
    },
    {
      name: `sweep CPU per row at 0 ms, response cache off, N=${n}`,
      value: us(noCache),
      unit: "µs",
      ratio: noCache / bare,
    },
  ];
}

if (import.meta.main) {
  const at = Deno.args.indexOf("--cpu");
  if (at !== -1) {
    await cpuChild(Deno.args[at + 1]!, Number(Deno.args[at + 2]));
  } else {
    for (const row of [...await benchStartup(), ...await benchRowCpu()]) {
      console.log(JSON.stringify(row));
    }
  }
}
