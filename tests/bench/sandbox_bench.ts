/**
 * Benchmarks of `lib/sandbox`, called by `tests/bench/run.ts` (which calls
 * every exported `bench*` function of every `*_bench.ts` file), each
 * backend against the Pyodide-only path measured in the same run:
 *
 * - `benchSandboxThroughput()`: runs per second of a trivial function,
 *   every request a fresh worker (a warm pool of 2, 2 at a time), for
 *   native Python, Pyodide and JavaScript.
 * - `benchSandboxHumanEval()`: wall time of HumanEval's 164 canonical
 *   solutions, native and Pyodide.
 * - `benchSandboxComplexity()`: the confusion matrix (declared × measured
 *   class) of every known-class program (the bank's references and naive
 *   solutions, the hidden-work programs) per backend and language over 10
 *   repetitions (3 for Pyodide, whose measurements take ~10× as long; 1
 *   each with `--quick`), the agreement on each half of the bank ("tune",
 *   on which the method's thresholds were chosen, and "hold"), and the
 *   median time of one measurement.
 * - `benchSandboxPerfRatio()`: a fixed correct-but-slower program's
 *   large-input performance ratio in 5 separate processes per backend
 *   (native Python, Pyodide, JavaScript; the reference timed afresh in
 *   each, in turns with the candidate), and its spread.
 *
 * Run alone: `deno run -A tests/bench/sandbox_bench.ts [--quick]`.
 *
 * @module
 */
import {
  type ComplexityClass,
  createSandbox,
  loadHumanEval,
  type PythonChoice,
  runHumanEval,
  type RunRequest,
} from "../../lib/sandbox/mod.ts";
import {
  CLASS_ORDER,
  knownClassPrograms,
} from "../suites/code/_known_classes.ts";
import { measureChild, printMeasured } from "./_child.ts";
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

/** Runs per second of a trivial function, per backend. */
export async function benchSandboxThroughput(): Promise<BenchRow[]> {
  const rates: Record<string, number> = {};
  const cases: [string, "python" | "javascript", PythonChoice][] = [
    ["native Python", "python", "native"],
    ["Pyodide", "python", "pyodide"],
    ["JavaScript (Deno)", "javascript", "auto"],
  ];
  for (const [label, language, python] of cases) {
    const n = python === "pyodide" ? (quick ? 8 : 24) : (quick ? 20 : 100);
    const sandbox = createSandbox({ warm: 2, concurrency: 2, python });
    // start the pool (and Pyodide's snapshot) before timing
    await sandbox.runCode(SMALL[language]);
    await new Promise((r) => setTimeout(r, 1500));
    const t0 = performance.now();
    const results = await Promise.all(
      Array.from({ length: n }, () => sandbox.runCode(SMALL[language])),
    );
    const s = (performance.now() - t0) / 1000;
    await sandbox.close();
    if (!results.every((r) => r.status === "ok")) {
      throw new Error(`a ${label} benchmark run failed`);
    }
    rates[label] = n / s;
  }
  const pyodide = rates["Pyodide"]!;
  return Object.entries(rates).map(([label, rate]) => {
    const row: BenchRow = {
      name:
        `sandbox ${label}: runs/s of a trivial function, a fresh worker each (2 at a time)`,
      value: rate,
      unit: "runs/s",
      ratio: rate / pyodide,
    };
    if (label === "native Python") {
      row.target = ">= 20 runs/s";
      row.pass = rate >= 20;
    }
    return row;
  });
}

/** HumanEval's 164 canonical solutions, native and Pyodide. */
export async function benchSandboxHumanEval(): Promise<BenchRow[]> {
  const problems = await loadHumanEval();
  const rows: BenchRow[] = [];
  const seconds: Record<string, number> = {};
  for (const python of ["native", "pyodide"] as const) {
    const sandbox = createSandbox({ warm: 2, concurrency: 2, python });
    await sandbox.runCode(SMALL.python); // the pool (and snapshot) first
    await new Promise((r) => setTimeout(r, 1500));
    const t0 = performance.now();
    const out = await runHumanEval(problems, (p) => p.canonical_solution, {
      sandbox,
    });
    const s = (performance.now() - t0) / 1000;
    seconds[python] = s;
    await sandbox.close();
    const passed = out.filter((o) => o.passed).length;
    rows.push({
      name: `sandbox HumanEval canonical checks passed (${python})`,
      value: passed,
      unit: "of 164",
      target: "164",
      pass: passed === 164,
    }, {
      name: `sandbox HumanEval 164 canonical checks (${python}), pool of 2`,
      value: s,
      unit: "s",
    });
  }
  rows.at(-3)!.ratio = seconds["native"]! / seconds["pyodide"]!;
  return rows;
}

/** The confusion matrix of known-class programs per backend and language. */
export async function benchSandboxComplexity(): Promise<BenchRow[]> {
  const programs = await knownClassPrograms();
  const rows: BenchRow[] = [];
  const cases: [string, "python" | "javascript", PythonChoice, number][] = [
    ["native Python", "python", "native", quick ? 1 : 10],
    ["JavaScript", "javascript", "auto", quick ? 1 : 10],
    ["Pyodide", "python", "pyodide", quick ? 1 : 3],
  ];
  for (const [label, language, python, reps] of cases) {
    const sandbox = createSandbox({
      python,
      warm: 1,
      concurrency: 1,
      timingConcurrency: 1,
    });
    const mine = programs.filter((p) => p.language === language);
    const matrix = new Map<string, number>();
    let agree = 0, unknown = 0, total = 0, pairAgree = 0;
    const byHalf = { tune: [0, 0], hold: [0, 0] };
    const times: number[] = [];
    for (let rep = 0; rep < reps; rep++) {
      for (const p of mine) {
        const t0 = performance.now();
        const r = await sandbox.measureComplexity({
          language,
          code: p.code,
          entry: p.entry,
          input: p.input,
        });
        times.push(performance.now() - t0);
        const key = `${p.declared}|${r.class}`;
        matrix.set(key, (matrix.get(key) ?? 0) + 1);
        total++;
        if (r.class === p.declared) agree++;
        byHalf[p.half][1]!++;
        if (r.class === p.declared) byHalf[p.half][0]!++;
        if (r.class === "unknown") unknown++;
        const pair = new Set<ComplexityClass>(["O(n)", "O(n log n)"]);
        if (
          r.class === p.declared || (pair.has(r.class) && pair.has(p.declared))
        ) pairAgree++;
      }
    }
    await sandbox.close();
    console.error(
      `[bench] complexity ${label}: declared × measured over ${reps} repetitions`,
    );
    console.error(confusion(matrix));
    times.sort((a, b) => a - b);
    rows.push(
      {
        name:
          `complexity ${label}: measured as declared (${mine.length} programs × ${reps})`,
        value: (100 * agree) / total,
        unit: "%",
        target: language === "python" && python === "pyodide" ? "" : ">= 92%",
        ...(python === "pyodide" ? {} : { pass: agree / total >= 0.92 }),
      },
      ...(["tune", "hold"] as const).map((half) => ({
        name: `complexity ${label}: measured as declared, ${half} half (${
          byHalf[half][1]! / reps
        } programs)`,
        value: (100 * byHalf[half][0]!) / byHalf[half][1]!,
        unit: "%",
      })),
      {
        name:
          `complexity ${label}: as declared, O(n) and O(n log n) taken as one`,
        value: (100 * pairAgree) / total,
        unit: "%",
      },
      {
        name: `complexity ${label}: unknown`,
        value: (100 * unknown) / total,
        unit: "%",
        target: "<= 3%",
        pass: unknown / total <= 0.03,
      },
      {
        name: `complexity ${label}: median time of one measurement`,
        value: times[times.length >> 1]! / 1000,
        unit: "s",
      },
    );
  }
  return rows;
}

/** A declared × measured table for the bench's log. */
function confusion(matrix: Map<string, number>): string {
  const measured = [...CLASS_ORDER, "unknown"];
  const head = ["declared \\ measured", ...measured];
  const lines = [head];
  for (const d of CLASS_ORDER) {
    const cells = measured.map((m) => String(matrix.get(`${d}|${m}`) ?? ""));
    if (cells.some((c) => c !== "")) lines.push([d, ...cells]);
  }
  const widths = head.map((_, i) =>
    Math.max(...lines.map((l) => l[i]!.length))
  );
  return lines.map((l) =>
    l.map((c, i) => i === 0 ? c.padEnd(widths[i]!) : c.padStart(widths[i]!))
      .join("  ")
  ).join("\n");
}

/** A correct but slower program per language for the perf ratio. */
const SLOWER = {
  python:
    "def squares_sorted(nums):\n    out = []\n    for x in nums:\n        out.append(x * x)\n    return sorted(out, key=lambda v: (v, 0))\n",
  javascript:
    "function squaresSorted(nums) { return nums.map((x) => x * x).sort((a, b) => a - b); }",
} as const;

/** Child: one judging of the slower program, its perf ratio. */
async function childPerf(
  language: "python" | "javascript",
  python: PythonChoice,
): Promise<void> {
  const { loadBank, expectedOutputs } = await import(
    "../../lib/suites/code/mod.ts"
  );
  const { judgeBank } = await import("../../lib/suites/code/judge.ts");
  const problem = (await loadBank()).find((p) => p.id === "squares_sorted")!;
  const sandbox = createSandbox({
    warm: 1,
    python,
    concurrency: Number(Deno.env.get("PERF_CONCURRENCY") ?? 2),
  });
  await printMeasured(async () => {
    const expected = await expectedOutputs(problem, sandbox);
    const j = await judgeBank(SLOWER[language], problem.entry[language], {
      sandbox,
      problem,
      language,
      expected,
      inputSeed: 1,
      timeoutMs: 10_000,
      memoryMb: 256,
      complexity: false,
    });
    return {
      perf: j.metrics.perf_ratio as number,
      candidate: j.metrics.large_ms as number,
      reference: j.metrics.reference_large_ms as number,
    };
  });
  await sandbox.close();
}

/**
 * The perf ratio of one fixed program over 5 processes per backend (native
 * Python, Pyodide, JavaScript), each judged as the code suite does: its
 * samples in turns with the reference's, timed by the parent.
 */
export async function benchSandboxPerfRatio(): Promise<BenchRow[]> {
  const rows: BenchRow[] = [];
  const cases = [
    ["python", "native"],
    ["python", "pyodide"],
    ["javascript", "auto"],
  ] as const;
  for (const [language, python] of cases) {
    const label = language === "python" ? `${language} (${python})` : language;
    const ratios: number[] = [];
    for (let i = 0; i < (quick ? 2 : 5); i++) {
      const r = await measureChild<{ perf: number }>(
        import.meta.url,
        ["--perf", language, python],
        `judge the slower ${label} program`,
      );
      ratios.push(r.perf);
    }
    const lo = Math.min(...ratios), hi = Math.max(...ratios);
    const spread = (hi - lo) / lo;
    console.error(
      `[bench] perf ratio ${label}: ${
        ratios.map((r) => r.toFixed(3)).join(", ")
      }`,
    );
    rows.push({
      name:
        `perf ratio of a fixed ${label} program over ${ratios.length} processes: spread (max − min) / min (mean ${
          (ratios.reduce((a, b) => a + b, 0) / ratios.length).toFixed(3)
        })`,
      value: 100 * spread,
      unit: "%",
      target: "<= 15%",
      pass: spread <= 0.15,
    });
  }
  return rows;
}

if (import.meta.main) {
  const i = Deno.args.indexOf("--perf");
  if (i >= 0) {
    await childPerf(
      Deno.args[i + 1] as "python" | "javascript",
      (Deno.args[i + 2] ?? "auto") as PythonChoice,
    );
  } else {
    for (
      const f of [
        benchSandboxThroughput,
        benchSandboxHumanEval,
        benchSandboxComplexity,
        benchSandboxPerfRatio,
      ]
    ) {
      for (const row of await f()) console.log(JSON.stringify(row));
    }
  }
}
