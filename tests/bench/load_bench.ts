/**
 * Benchmarks of loading results into Polars, called by `tests/bench/run.ts`:
 *
 * - `benchLoad()`: the first load of a fresh 1,000,000-row run (written
 *   through the store's `ResultsWriter`, as a sweep writes it) plus the
 *   report's `summarize()` by suite × model, against a plain loop (stream,
 *   `JSON.parse`, a Map) computing the same table from `results.jsonl`.
 *   Target: ratio = plain loop time ÷ first Polars load time ≥ 1. Also
 *   shown: the same load from the JSONL alone (no copy) and the old load
 *   (types inferred over every line, then the Parquet cache written), and
 *   what the CSV copy costs the writer per row.
 * - `benchLoadScale()`: load (only the columns the summary needs) and
 *   summarise 10,000,000 rows in 10 run folders, against the same work on
 *   one folder of 1,000,000: time and peak RSS.
 *
 * Each measurement runs in its own process (`--child ...` is that entry),
 * which reports its peak RSS (`VmHWM`) when done, so numbers do not mix.
 * Rows are synthetic but shaped as a sweep writes them: built by the
 * runner's own `toResultRow`, four suites with their dims and metrics,
 * templates, samples, wrong answers, parse errors, failed calls, reasoning.
 *
 * Run alone: `deno run -A tests/bench/load_bench.ts [--rows N] [--scale-rows N]
 * [--scale-only | --ratio-only]`. `--quick` (as for run.ts) uses 200k rows
 * and 2 folders of 200k.
 *
 * @module
 */
import { join } from "node:path";
import { toResultRow } from "../../lib/runner/row.ts";
import { ResultsWriter } from "../../lib/store/mod.ts";
import { loadRuns, summarize, wilsonInterval } from "../../lib/report/mod.ts";
import pl from "nodejs-polars";
import {
  measureChild,
  type Measured,
  printMeasured,
  runChild,
} from "./_child.ts";
import type { BenchRow } from "./sweep_bench.ts";
import type {
  Completion,
  Extraction,
  Question,
  ResultRow,
  Verdict,
} from "../../lib/types.ts";

const MODELS = [
  "sim-strong",
  "sim-average",
  "sim-weak",
  "sim-chatty",
  "sim-reasoner",
];
const FAMILIES = ["add", "sub", "mul", "div"];
const SUBJECTS = [
  ["high_school_physics", "高中物理", "STEM", "high_school"],
  ["college_economics", "大学经济学", "Social Science", "college"],
  ["modern_chinese_history", "近代史纲要", "Humanities", "college"],
  ["middle_school_mathematics", "初中数学", "STEM", "middle_school"],
] as const;
const TASKS = ["det", "inverse", "rank", "eigenvalues", "multiply"];
const PROBLEMS = [
  "balanced_brackets",
  "max_window_sum",
  "first_repeated_value",
];

/** A small seeded PRNG (mulberry32), inlined so generation stays fast. */
function prng(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/**
 * The i-th row of a synthetic run: a mix of the four suites (arithmetic
 * half the rows, then linalg, C-Eval and code) with their own dims and
 * metrics, templates, samples, wrong answers, parse errors and failed calls,
 * built by the runner's own `toResultRow` so the shape is the sweep's.
 */
export function syntheticRow(
  run: string,
  i: number,
  rand: () => number,
): ResultRow {
  const model = MODELS[i % MODELS.length]!;
  const kind = (i >> 3) % 10;
  const sample = (i >> 6) % 2;
  const q = i >> 7;
  let question: Question;
  let template: string;
  let response: string;
  let reasoning: string | null = null;
  let metrics: Record<string, string | number | boolean | null> | undefined;
  const r = rand();
  const status = r < 0.7
    ? "correct"
    : r < 0.88
    ? "wrong"
    : r < 0.97
    ? "parse_error"
    : "error";
  if (kind < 5) {
    const family = FAMILIES[q % FAMILIES.length]!;
    const digits = 2 + 2 * (q % 5);
    const a = 10 ** (digits - 1) + ((q * 7919) % (9 * 10 ** (digits - 1)));
    const b = 10 ** (digits - 1) + ((q * 104729) % (9 * 10 ** (digits - 1)));
    const op = { add: "+", sub: "-", mul: "×", div: "÷" }[family];
    template = kind % 2 === 0 ? "direct" : "cot";
    question = {
      id: `arithmetic/${family}/d${digits}/s1/${q}/en`,
      suite: "arithmetic",
      text: `What is ${a} ${op} ${b}?`,
      answer: { kind: "rational", value: String(a + b) },
      dims: {
        family,
        language: "en",
        level: `d${digits}`,
        digits,
        carries: q % (digits + 1),
        ops: null,
      },
    };
    response = template === "direct"
      ? String(a + b)
      : `Let's work through it step by step.\n${a} ${op} ${b}: add the columns from the right, carrying where needed.\nFinal answer: ${
        a + b
      }`;
  } else if (kind < 7) {
    const size = 3 + (q % 4);
    const task = TASKS[q % TASKS.length]!;
    template = "paper";
    question = {
      id: `linalg/linalgbench/${task}-${size}x${size}-${q}/latex`,
      suite: "linalg",
      text: `Compute the ${task} of the matrix \\begin{pmatrix}${
        Array.from({ length: size }, (_, k) => `${k + q % 9} & ${k - 3}`).join(
          " \\\\ ",
        )
      }\\end{pmatrix}.`,
      answer: { kind: "rational", value: String(q - 500) },
      dims: {
        task,
        size,
        format: "latex",
        tier: task === "eigenvalues" ? "hard" : "core",
        source: "linalgbench",
      },
    };
    response =
      `Expanding along the first row and collecting the minors gives \\boxed{${
        q - 500
      }}.`;
    metrics = { forensic_stage: 1 };
  } else if (kind < 9) {
    const [subject, zh, category, level] = SUBJECTS[q % SUBJECTS.length]!;
    template = kind === 7 ? "answer_only" : "few_shot_cot";
    question = {
      id: `ceval/${subject}/val/${q}`,
      suite: "ceval",
      text:
        `以下是中国关于${zh}考试的单项选择题，请选出其中的正确答案。\n问题 ${q}\nA. 甲\nB. 乙\nC. 丙\nD. 丁`,
      answer: { kind: "choice", value: "ABCD"[q % 4]! },
      dims: {
        subject,
        subject_zh: zh,
        category,
        level,
        hard: q % 3 === 0,
        split: "val",
      },
    };
    response = template === "answer_only"
      ? "ABCD"[q % 4]!
      : `让我们一步一步思考。选项逐一分析后，答案是 ${"ABCD"[q % 4]}`;
  } else {
    const problem = PROBLEMS[q % PROBLEMS.length]!;
    template = "direct";
    question = {
      id: `code/bank/${problem}/javascript`,
      suite: "code",
      text: `Write a JavaScript function for ${problem}.`,
      answer: { kind: "text", value: "all tests pass" },
      dims: {
        topic: "arrays",
        difficulty: "medium",
        language: "javascript",
        complexity: "O(n)",
        source: "bank",
        problem,
      },
    };
    response =
      "```js\nfunction solve(xs) {\n  const seen = new Set();\n  for (const x of xs) {\n    if (seen.has(x)) return x;\n    seen.add(x);\n  }\n  return null;\n}\n```";
    metrics = {
      sandbox_status: "ok",
      functional_pass_rate: status === "correct" ? 1 : 0.5,
      edge_pass_rate: 1,
      large_pass: status === "correct",
      large_ms: status === "correct" ? 12.5 : null,
      perf_ratio: status === "correct" ? 1.1 : null,
    };
  }
  if (model === "sim-reasoner") {
    reasoning =
      "Okay, let me think about this carefully. First I restate the problem, then I check each step twice before answering. "
        .repeat(
          3,
        );
  }
  const failed = status === "error";
  const completion: Completion = {
    text: failed ? "" : response,
    reasoning: failed ? null : reasoning,
    finishReason: failed ? "error" : "stop",
    usage: {
      promptTokens: failed ? 0 : 10 + (question.text.length >> 2),
      completionTokens: failed ? 0 : 1 + (response.length >> 2),
    },
    latencyMs: Math.round(50 + rand() * 900),
    attempts: failed ? 3 : 1,
    ...(failed
      ? { error: { kind: "server" as const, message: "HTTP 500: upstream" } }
      : {}),
  };
  const expected = question.answer.kind === "matrix"
    ? ""
    : String(question.answer.value);
  const extraction: Extraction | null = failed ? null : {
    value: status === "parse_error"
      ? null
      : status === "wrong"
      ? `${expected}1`
      : expected,
    rule: status === "parse_error" ? null : "answer_marker",
    span: status === "parse_error" ? null : [0, 1],
    candidates: 1,
  } as Extraction;
  const verdict: Verdict = {
    status,
    score: status === "correct" ? 1 : 0,
    formatValid: status !== "parse_error" && !failed,
    ...(status === "wrong" ? { errorClass: "carry", relError: 0.01 } : {}),
    explanation: `expected ${expected}`,
    ...(metrics ? { metrics } : {}),
  } as Verdict;
  return toResultRow({
    run,
    model,
    question,
    template,
    sample,
    messages: [{ role: "user", content: question.text }],
    completion,
    extraction,
    verdict,
    finishedAt: new Date(1_780_000_000_000 + i * 7),
  });
}

/**
 * Writes a run folder of `n` synthetic rows (manifest + results.jsonl)
 * through the store's `ResultsWriter`, as a sweep does (so with its CSV
 * copy unless `copy` is false).
 *
 * @returns The bytes of results.jsonl.
 */
export async function writeSyntheticRun(
  dir: string,
  n: number,
  options: { seed?: number; copy?: boolean } = {},
): Promise<number> {
  const { seed = 1, copy = true } = options;
  await Deno.mkdir(dir, { recursive: true });
  const run = dir.split("/").pop() ?? "bench";
  const path = join(dir, "results.jsonl");
  await Deno.writeTextFile(path, "");
  const writer = await ResultsWriter.open(path, { copy });
  const rand = prng(seed);
  for (let i = 0; i < n; i++) {
    await writer.append(syntheticRow(run, i, rand));
  }
  await writer.close();
  await Deno.writeTextFile(
    join(dir, "manifest.json"),
    JSON.stringify({
      format: 1,
      run,
      config: {
        models: MODELS.map((name, k) => ({
          name,
          provider: "sim",
          price: { input: 0.5 + k, output: 1.5 + k },
        })),
      },
    }),
  );
  return (await Deno.stat(path)).size;
}

/** The columns `summarize()` by suite × model reads (cost is derived). */
const SUMMARY_COLUMNS = [
  "suite",
  "model",
  "status",
  "correct",
  "format_valid",
  "latency_ms",
  "prompt_tokens",
  "completion_tokens",
];

/** What a child process reports (with its time and peak RSS). */
interface ChildResult extends Measured {
  rows: number;
  groups: Record<string, { n: number; correct: number; p95: number }>;
}

/** The summary table with a plain loop: streaming read, JSON.parse, a Map. */
async function plainLoop(dirs: string[]): Promise<ChildResult["groups"]> {
  interface Acc {
    n: number;
    correct: number;
    formatValid: number;
    parseErrors: number;
    errors: number;
    latencies: number[];
    tokensIn: number;
    tokensOut: number;
  }
  const groups = new Map<string, Acc>();
  const take = (line: string) => {
    if (!line) return;
    const r = JSON.parse(line);
    if (r.status === "unscored") return;
    const key = `${r.suite}|${r.model}`;
    let g = groups.get(key);
    if (!g) {
      g = {
        n: 0,
        correct: 0,
        formatValid: 0,
        parseErrors: 0,
        errors: 0,
        latencies: [],
        tokensIn: 0,
        tokensOut: 0,
      };
      groups.set(key, g);
    }
    g.n++;
    if (r.correct) g.correct++;
    if (r.format_valid) g.formatValid++;
    if (r.status === "parse_error") g.parseErrors++;
    if (r.status === "error") g.errors++;
    g.latencies.push(r.latency_ms);
    g.tokensIn += r.prompt_tokens;
    g.tokensOut += r.completion_tokens;
  };
  for (const dir of dirs) {
    using file = await Deno.open(join(dir, "results.jsonl"));
    let rest = "";
    for await (
      const chunk of file.readable.pipeThrough(new TextDecoderStream())
    ) {
      const lines = (rest + chunk).split("\n");
      rest = lines.pop() ?? "";
      for (const line of lines) take(line);
    }
    take(rest);
  }
  const out: ChildResult["groups"] = {};
  for (const [key, g] of groups) {
    const lat = g.latencies.sort((a, b) => a - b);
    wilsonInterval(g.correct, g.n);
    out[key] = {
      n: g.n,
      correct: g.correct,
      p95: lat[Math.round(0.95 * (g.n - 1))]!,
    };
  }
  return out;
}

function polarsGroups(frame: pl.DataFrame): ChildResult["groups"] {
  const out: ChildResult["groups"] = {};
  for (const r of summarize(frame, ["suite", "model"]).toRecords()) {
    out[`${r.suite}|${r.model}`] = {
      n: Number(r.n),
      correct: Number(r.correct),
      p95: Number(r.latency_p95),
    };
  }
  return out;
}

/** The load before this change: types inferred over every line, dims and
 * metrics unnested, then the Parquet cache written. */
function oldLoad(dir: string): pl.DataFrame {
  let frame = pl.scanJson(join(dir, "results.jsonl"), {
    inferSchemaLength: null,
  }).collectSync();
  for (const column of ["dims", "metrics"]) {
    const taken = new Set(frame.columns);
    const fields = (frame.getColumn(column).dtype as unknown as {
      fields: { name: string }[];
    }).fields.map(({ name }) => taken.has(name) ? `m_${name}` : name);
    frame = frame.withColumns(pl.col(column).struct.renameFields(fields))
      .unnest(column);
  }
  const tmp = join(dir, `.old-cache-${crypto.randomUUID()}.parquet`);
  frame.writeParquet(tmp);
  Deno.removeSync(tmp);
  return frame;
}

/** Child-process entry: one measurement, printed as a JSON line. */
async function child(mode: string, dirs: string[]): Promise<void> {
  await printMeasured(async () => {
    if (mode === "plain") {
      const groups = await plainLoop(dirs);
      const rows = Object.values(groups).reduce((s, g) => s + g.n, 0);
      return { rows, groups };
    }
    if (mode === "old") {
      const frame = oldLoad(dirs[0]!);
      return { rows: frame.height, groups: polarsGroups(frame) };
    }
    const options = mode === "first"
      ? {}
      : mode === "jsonl"
      ? { cache: false }
      : { columns: SUMMARY_COLUMNS };
    const { frame } = await loadRuns(dirs, { warn: false, ...options });
    return { rows: frame.height, groups: polarsGroups(frame) };
  });
}

async function measure(mode: string, dirs: string[]): Promise<ChildResult> {
  // Every load is a first load: no Parquet cache from an earlier one.
  for (const dir of dirs) {
    for (const f of [".results.cache.parquet", ".results.cache.json"]) {
      await Deno.remove(join(dir, f)).catch(() => {});
    }
  }
  return await measureChild<ChildResult>(
    import.meta.url,
    ["--child", mode, ...dirs],
    `measure ${mode}`,
  );
}

/** Both paths must compute the same table, or the ratio means nothing. */
function assertSameGroups(
  a: ChildResult["groups"],
  b: ChildResult["groups"],
  what: string,
) {
  const keys = Object.keys(a).sort();
  if (keys.join() !== Object.keys(b).sort().join()) {
    throw new Error(`Cannot compare ${what}: different groups`);
  }
  for (const k of keys) {
    const x = a[k]!, y = b[k]!;
    if (x.n !== y.n || x.correct !== y.correct || x.p95 !== y.p95) {
      throw new Error(`Cannot compare ${what}: ${k} differs`);
    }
  }
}

/** Writes `count` folders of `rows` rows, two at a time (one per core). */
async function writeRuns(
  parent: string,
  count: number,
  rows: number,
): Promise<string[]> {
  const dirs = Array.from({ length: count }, (_, i) => join(parent, `run${i}`));
  for (let i = 0; i < count; i += 2) {
    await Promise.all(
      dirs.slice(i, i + 2).map((dir, k) =>
        runChild(
          import.meta.url,
          ["--write", dir, String(rows), String(i + k + 1)],
          `write ${dir}`,
        )
      ),
    );
  }
  return dirs;
}

const quick = Deno.args.includes("--quick");

/**
 * First Polars load of a fresh run against the plain loop (see the module
 * doc). Each timing is one child process; the plain loop and the first load
 * are measured twice, alternating, and the better of each kept.
 *
 * @param options `rows` in the run (default 1,000,000; 200,000 with `--quick`).
 * @returns The timings, the ratio with its target, peak RSS and the copy's
 *   cost to the writer.
 */
export async function benchLoad(
  options: { rows?: number } = {},
): Promise<BenchRow[]> {
  const { rows = quick ? 200_000 : 1_000_000 } = options;
  const parent = await Deno.makeTempDir({ prefix: "load-bench-" });
  try {
    // The writer's cost of the copy: the same rows with and without it.
    const writeRows = Math.min(rows, 200_000);
    const costDir = join(parent, "cost");
    let t = performance.now();
    await writeSyntheticRun(join(costDir, "a"), writeRows, { copy: false });
    const without = performance.now() - t;
    t = performance.now();
    await writeSyntheticRun(join(costDir, "b"), writeRows, { copy: true });
    const withCopy = performance.now() - t;
    await Deno.remove(costDir, { recursive: true });

    const [dir] = await writeRuns(parent, 1, rows);
    const dirs = [dir!];
    const plain: ChildResult[] = [];
    const first: ChildResult[] = [];
    for (let i = 0; i < 2; i++) {
      plain.push(await measure("plain", dirs));
      first.push(await measure("first", dirs));
    }
    const jsonl = await measure("jsonl", dirs);
    const old = await measure("old", dirs);
    for (const r of [...first, jsonl, old]) {
      assertSameGroups(plain[0]!.groups, r.groups, "the loads");
    }
    const best = (xs: ChildResult[]) =>
      xs.reduce((a, b) => (a.ms <= b.ms ? a : b));
    const p = best(plain), f = best(first);
    const ratio = p.ms / f.ms;
    console.log(
      `load bench: ${rows} rows; plain ${p.ms.toFixed(0)} ms, first load ${
        f.ms.toFixed(0)
      } ms (${ratio.toFixed(2)}×), JSONL only ${jsonl.ms.toFixed(0)} ms, old ${
        old.ms.toFixed(0)
      } ms`,
    );
    return [
      {
        name: `load: plain loop (stream + JSON.parse + Map), ${rows} rows`,
        value: p.ms,
        unit: "ms",
      },
      {
        name: `load: first loadRuns + summarize (CSV copy), ${rows} rows`,
        value: f.ms,
        unit: "ms",
      },
      {
        name: "load: first Polars load vs plain loop",
        value: ratio,
        unit: "×",
        ratio,
        target: ">= 1",
        pass: ratio >= 1,
      },
      {
        name: "load: from the JSONL alone (declared schema) vs plain loop",
        value: jsonl.ms,
        unit: "ms",
        ratio: p.ms / jsonl.ms,
      },
      {
        name: "load: old first load (inferred + Parquet cache) vs plain loop",
        value: old.ms,
        unit: "ms",
        ratio: p.ms / old.ms,
      },
      {
        name: `load: peak RSS, first load of ${rows} rows (all columns)`,
        value: f.hwmMB,
        unit: "MB",
      },
      {
        name: "load: writer time per row with the CSV copy vs without",
        value: (withCopy * 1000) / writeRows,
        unit: "µs",
        ratio: withCopy / without,
      },
    ];
  } finally {
    await Deno.remove(parent, { recursive: true });
  }
}

/**
 * 10 million rows in 10 run folders, loaded (summary columns only) and
 * summarised by suite × model, against the same on one folder.
 *
 * @param options `folders` and `rows` per folder (default 10 × 1,000,000;
 *   2 × 200,000 with `--quick`).
 * @returns Time and peak RSS at both sizes.
 */
export async function benchLoadScale(
  options: { folders?: number; rows?: number } = {},
): Promise<BenchRow[]> {
  const { folders = quick ? 2 : 10, rows = quick ? 200_000 : 1_000_000 } =
    options;
  const parent = await Deno.makeTempDir({ prefix: "load-scale-bench-" });
  try {
    const t = performance.now();
    const dirs = await writeRuns(parent, folders, rows);
    console.log(
      `load scale bench: wrote ${folders} × ${rows} rows in ${
        ((performance.now() - t) / 1000).toFixed(0)
      } s`,
    );
    const one = await measure("columns", dirs.slice(0, 1));
    const all = await measure("columns", dirs);
    const total = folders * rows;
    if (all.rows !== total || one.rows !== rows) {
      throw new Error(
        `Cannot time the scale: loaded ${all.rows} and ${one.rows} rows`,
      );
    }
    console.log(
      `load scale bench: ${rows} rows ${one.ms.toFixed(0)} ms ${
        one.hwmMB.toFixed(0)
      } MB; ${total} rows ${all.ms.toFixed(0)} ms ${all.hwmMB.toFixed(0)} MB`,
    );
    return [
      {
        name:
          `load scale: ${rows} rows (1 folder), summary columns + summarize`,
        value: one.ms,
        unit: "ms",
      },
      {
        name: `load scale: peak RSS at ${rows} rows`,
        value: one.hwmMB,
        unit: "MB",
      },
      {
        name:
          `load scale: ${total} rows (${folders} folders), summary columns + summarize`,
        value: all.ms,
        unit: "ms",
        ratio: all.ms / one.ms,
      },
      {
        name: `load scale: peak RSS at ${total} rows`,
        value: all.hwmMB,
        unit: "MB",
        ratio: all.hwmMB / one.hwmMB,
        target: "< 16000",
        pass: all.hwmMB < 16_000,
      },
    ];
  } finally {
    await Deno.remove(parent, { recursive: true });
  }
}

if (import.meta.main) {
  const args = Deno.args;
  const at = (flag: string) => {
    const i = args.indexOf(flag);
    return i >= 0 ? Number(args[i + 1]) : undefined;
  };
  if (args[0] === "--child") {
    await child(args[1]!, args.slice(2));
  } else if (args[0] === "--write") {
    await writeSyntheticRun(args[1]!, Number(args[2]), {
      seed: Number(args[3] ?? 1),
      copy: args[4] !== "nocopy",
    });
  } else {
    const rows = at("--rows");
    const scaleRows = at("--scale-rows");
    if (!args.includes("--scale-only")) {
      console.table(await benchLoad(rows === undefined ? {} : { rows }));
    }
    if (!args.includes("--ratio-only")) {
      console.table(
        await benchLoadScale(
          scaleRows === undefined ? {} : { rows: scaleRows },
        ),
      );
    }
  }
}
