/**
 * Benchmarks of `lib/sandbox`, called by `tests/bench/run.ts` (which calls
 * every exported `bench*` function of every `*_bench.ts` file):
 *
 * - `benchSandboxThroughput()`: runs per second of a small Python and a
 *   small JavaScript program, cold (no warm worker: every request starts
 *   its own process) and with a warm pool of 2.
 * - `benchSandboxHumanEval()`: the 164 HumanEval canonical checks with a
 *   pool of 2 (target: under 10 s).
 * - `benchSandboxComplexity()`: how often `measureComplexity` recovers each
 *   reference class per language over 20 repetitions (3 with `--quick`),
 *   and the median time of one measurement.
 *
 * Run alone: `deno run -A tests/bench/sandbox_bench.ts [--quick]`.
 *
 * @module
 */
import {
  createSandbox,
  loadHumanEval,
  runHumanEval,
  type RunRequest,
} from "../../lib/sandbox/mod.ts";
import { REFERENCE_LANGUAGES, REFERENCES } from "../sandbox/references.ts";
import type { BenchRow } from "./sweep_bench.ts";

const quick = Deno.args.includes("--quick");

const SMALL: Record<"python" | "javascript", RunRequest> = {
  python: {
    language: "python",
    code: "def f(xs):\n    return sorted(xs)[::-1]\n",
    entry: "f",
    calls: [[[3, 1, 2]], [[5, 4]]],
  },
  javascript: {
    language: "javascript",
    code: "function f(xs) { return [...xs].sort((a, b) => b - a); }",
    entry: "f",
    calls: [[[3, 1, 2]], [[5, 4]]],
  },
};

/** Runs per second, cold and warm, per language. */
export async function benchSandboxThroughput(): Promise<BenchRow[]> {
  const rows: BenchRow[] = [];
  for (const language of ["javascript", "python"] as const) {
    const n = language === "python" ? (quick ? 6 : 12) : (quick ? 20 : 60);
    const rates: Record<string, number> = {};
    for (const warm of [0, 2]) {
      const sandbox = createSandbox({ warm, concurrency: 2 });
      // make the Pyodide snapshot (and warm the pool) before timing
      await sandbox.runCode(SMALL[language]);
      await new Promise((r) => setTimeout(r, warm ? 1500 : 0));
      const t0 = performance.now();
      const results = await Promise.all(
        Array.from({ length: n }, () => sandbox.runCode(SMALL[language])),
      );
      const s = (performance.now() - t0) / 1000;
      await sandbox.close();
      if (!results.every((r) => r.status === "ok")) {
        throw new Error(`a ${language} benchmark run failed`);
      }
      rates[warm] = n / s;
      rows.push({
        name: `sandbox ${language} runs/s, ${warm ? "warm pool of 2" : "cold"}`,
        value: n / s,
        unit: "runs/s",
      });
    }
    rows[rows.length - 1]!.ratio = rates[2]! / rates[0]!;
    rows[rows.length - 1]!.target = "> 1 (warm vs cold)";
    rows[rows.length - 1]!.pass = rates[2]! > rates[0]!;
  }
  return rows;
}

/** The 164 HumanEval canonical checks with a pool of 2. */
export async function benchSandboxHumanEval(): Promise<BenchRow[]> {
  const problems = await loadHumanEval();
  const sandbox = createSandbox({ warm: 2, concurrency: 2 });
  await sandbox.runCode(SMALL.python); // snapshot made outside the timing
  await new Promise((r) => setTimeout(r, 1500));
  const t0 = performance.now();
  const out = await runHumanEval(problems, (p) => p.canonical_solution, {
    sandbox,
  });
  const s = (performance.now() - t0) / 1000;
  await sandbox.close();
  const passed = out.filter((o) => o.passed).length;
  return [
    {
      name: "sandbox HumanEval canonical checks passed",
      value: passed,
      unit: "of 164",
      target: "164",
      pass: passed === 164,
    },
    {
      name: "sandbox HumanEval 164 canonical checks, pool of 2",
      value: s,
      unit: "s",
      target: "< 10 s",
      pass: s < 10,
    },
  ];
}

/** Recovery rate per class and language, and time per measurement. */
export async function benchSandboxComplexity(): Promise<BenchRow[]> {
  const reps = quick ? 3 : 20;
  const sandbox = createSandbox({ warm: 1, concurrency: 1 });
  const rows: BenchRow[] = [];
  const times: number[] = [];
  const linearish = new Set(["O(n)", "O(n log n)"]);
  for (const language of REFERENCE_LANGUAGES) {
    for (const ref of REFERENCES) {
      let exact = 0, allowed = 0;
      const got: Record<string, number> = {};
      for (let i = 0; i < reps; i++) {
        const t0 = performance.now();
        const r = await sandbox.measureComplexity({
          language,
          code: ref.code[language as "python" | "javascript"],
          entry: ref.entry,
          input: ref.input,
        });
        times.push(performance.now() - t0);
        got[r.class] = (got[r.class] ?? 0) + 1;
        if (r.class === ref.class) exact++;
        if (
          r.class === ref.class ||
          (linearish.has(ref.class) && linearish.has(r.class))
        ) allowed++;
      }
      console.error(
        `[bench] complexity ${language} ${ref.class}: ${JSON.stringify(got)}`,
      );
      rows.push({
        name: `complexity ${language} ${ref.class} recovered (${reps} runs)`,
        value: (100 * allowed) / reps,
        unit: `% (exact ${Math.round((100 * exact) / reps)}%)`,
        target: "100%",
        pass: allowed === reps,
      });
    }
  }
  await sandbox.close();
  times.sort((a, b) => a - b);
  rows.push({
    name: "complexity: median time of one measurement",
    value: times[times.length >> 1]! / 1000,
    unit: "s",
  });
  rows.push({
    name: "complexity: slowest measurement",
    value: times[times.length - 1]! / 1000,
    unit: "s",
  });
  return rows;
}

if (import.meta.main) {
  for (
    const f of [
      benchSandboxThroughput,
      benchSandboxHumanEval,
      benchSandboxComplexity,
    ]
  ) {
    for (const row of await f()) console.log(JSON.stringify(row));
  }
}
