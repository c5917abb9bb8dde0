/**
 * Code-suite throughput: a bank sweep on the sim (one model, both
 * languages, 2 samples, complexity and quality on, the verdict and
 * response caches off) on the default Python backend (`auto`: native
 * CPython in bubblewrap where it is available) against the Pyodide-only
 * path, the same problems in the same run. Each sweep runs in its own
 * child process; the machine's CPU time comes from `/proc/stat` over the
 * child's run (the sandbox workers are not the child's waited children,
 * so its own rusage misses them), peak RSS is the sweep process's own.
 * A row's time is broken down by the judging phases the rows record
 * (`time_tests_ms`, `time_large_ms`, `time_complexity_ms`,
 * `time_quality_ms`).
 *
 * Run alone: `deno run -A tests/bench/code_bench.ts [--quick]`.
 *
 * @module
 */
import { measureChild, printMeasured } from "./_child.ts";
import type { BenchRow } from "./sweep_bench.ts";

const quick = Deno.args.includes("--quick");

/** Busy CPU time of the whole machine so far, in ms (user+nice+system+irq+softirq). */
export function machineBusyMs(): number {
  const fields = Deno.readTextFileSync("/proc/stat").split("\n")[0]!.trim()
    .split(/\s+/).slice(1).map(Number);
  const [user = 0, nice = 0, system = 0, , , irq = 0, softirq = 0] = fields;
  const tick = 10; // USER_HZ = 100 on Linux
  return (user + nice + system + irq + softirq) * tick;
}

/** The fixed subset both paths sweep: every 4th problem of the bank by id. */
async function subset(all: boolean): Promise<string[]> {
  const { loadBank } = await import("../../lib/suites/code/bank/mod.ts");
  const ids = (await loadBank()).map((p) => p.id).sort();
  return all ? ids : ids.filter((_, i) => i % 4 === 0);
}

interface SweepResult {
  rows: number;
  busyMs: number;
  correct: number;
  phases: Record<string, number>;
  backends: string[];
}

/** Child: one sweep, its rows and phase times. */
async function childSweep(python: string, problems: string[]): Promise<void> {
  const { parseConfig, runSweep } = await import("../../lib/mod.ts");
  const out = await Deno.makeTempDir();
  const config = parseConfig({
    outputDir: out,
    cache: false,
    samples: 2,
    models: [{ name: "sim-strong", provider: "sim" }],
    suites: [{
      name: "code",
      params: {
        problems,
        languages: ["python", "javascript"],
        python,
        ...JSON.parse(Deno.env.get("CODE_BENCH_PARAMS") ?? "{}"),
      },
    }],
  }, "code-bench");
  await printMeasured(async (): Promise<SweepResult> => {
    const b0 = machineBusyMs();
    const { runDir, done } = await runSweep(config, { progress: "none" });
    const busyMs = machineBusyMs() - b0;
    const rows = (await Deno.readTextFile(`${runDir}/results.jsonl`)).trim()
      .split("\n").map((l) => JSON.parse(l));
    const phases: Record<string, number> = {};
    for (const r of rows) {
      for (const [k, v] of Object.entries(r.metrics ?? {})) {
        if (k.startsWith("time_") && typeof v === "number") {
          phases[k] = (phases[k] ?? 0) + v;
        }
      }
    }
    await Deno.remove(out, { recursive: true });
    return {
      rows: done,
      busyMs,
      correct: rows.filter((r) => r.status === "correct").length,
      phases,
      backends: [
        ...new Set(rows.map((r) => r.metrics?.sandbox_backend).filter(Boolean)),
      ] as string[],
    };
  });
}

/**
 * Bank sweep rows/s, machine CPU per row and peak RSS, default backend
 * against Pyodide-only, and the time of a row by phase.
 */
export async function benchCodeSweep(): Promise<BenchRow[]> {
  const problems = await subset(false);
  const run = (python: string) =>
    measureChild<SweepResult>(
      import.meta.url,
      ["--child", python, problems.join(",")],
      `sweep the code bank on the ${python} backend`,
    );
  const fast = await run("auto");
  const slow = await run("pyodide");
  const rate = (r: SweepResult & { ms: number }) => r.rows / (r.ms / 1000);
  const rows: BenchRow[] = [];
  const label = `${problems.length} problems × 2 languages × 2 samples`;
  for (const [name, r] of [["auto", fast], ["pyodide only", slow]] as const) {
    rows.push(
      {
        name: `code bank sweep (${label}), ${name} [${r.backends.join("+")}]`,
        value: rate(r),
        unit: "rows/s",
      },
      {
        name: `code bank sweep, ${name}: machine CPU per row`,
        value: r.busyMs / 1000 / r.rows,
        unit: "s",
      },
      {
        name: `code bank sweep, ${name}: peak RSS of the sweep process`,
        value: r.hwmMB,
        unit: "MB",
      },
    );
  }
  const ratio = rate(fast) / rate(slow);
  rows.push({
    name: "code bank sweep: auto vs Pyodide-only rows/s (same run)",
    value: ratio,
    unit: "×",
    ratio,
    target: ">= 10× today's 0.19 rows/s (issue 19)",
    pass: rate(fast) >= 1.9,
  });
  for (const [k, total] of Object.entries(fast.phases).sort()) {
    rows.push({
      name: `code bank sweep, auto: ${
        k.replace(/^time_|_ms$/g, "")
      } per row (wall, mean over ${fast.rows} rows)`,
      value: total / fast.rows,
      unit: "ms",
    });
  }
  return rows;
}

if (import.meta.main) {
  const i = Deno.args.indexOf("--child");
  if (i >= 0) {
    await childSweep(Deno.args[i + 1]!, Deno.args[i + 2]!.split(","));
  } else {
    const rows = quick
      ? await benchCodeSweep()
      : [...await benchCodeSweep(), ...await benchFullBank()];
    for (const row of rows) console.log(JSON.stringify(row));
  }
}

/** The whole bank (the 188-row sweep) on the default backend. */
export async function benchFullBank(): Promise<BenchRow[]> {
  if (quick) return [];
  const problems = await subset(true);
  const r = await measureChild<SweepResult>(
    import.meta.url,
    ["--child", "auto", problems.join(",")],
    "sweep the whole code bank",
  );
  const rate = r.rows / (r.ms / 1000);
  return [{
    name: `code bank sweep, whole bank (${r.rows} rows), auto [${
      r.backends.join("+")
    }]`,
    value: rate,
    unit: "rows/s",
    ratio: rate / 0.19,
    target: ">= 10× the issue's 0.19 rows/s",
    pass: rate >= 1.9,
  }, {
    name: "code bank sweep, whole bank: machine CPU per row",
    value: r.busyMs / 1000 / r.rows,
    unit: "s",
  }, {
    name: "code bank sweep, whole bank: correct rows",
    value: r.correct,
    unit: `of ${r.rows}`,
  }];
}
