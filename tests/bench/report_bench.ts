/**
 * Benchmark of the analysis layer, called by `tests/bench/run.ts`:
 * loading and summarising 1,000,000 result rows by three keys (model,
 * family, digits) with Wilson intervals, latency p50/p95 and token sums —
 * through Polars (`loadRuns` + `summarize`) and through a plain TypeScript
 * loop (streaming line read + JSON.parse + Map) over the same file in the
 * same run. Target: the Polars path at least 5× faster.
 *
 * Two Polars timings: "cold" is the first load of a run (Polars parses the
 * NDJSON — in nodejs-polars 0.25.2 that is slower than V8's JSON.parse —
 * and writes the run's Parquet cache); "warm" is every later load while the
 * JSONL is unchanged (the columns the summary needs, from Parquet). The
 * target applies to the warm path, which is what a notebook or report
 * re-run pays; the cold ratio is printed beside it.
 *
 * A second benchmark (`benchReportPage`) renders the HTML report of a
 * 100,000-row run (the report tests' fixture, with replies of a few hundred
 * characters): the page's size (target < 15 MB: the sample explorer keeps at
 * most 2,000 wrong and 300 correct rows), the time to load and render it,
 * and the time headless Chromium takes to its `load` event.
 *
 * A third (`benchDemoPage`) builds the demo's report (`deno task demo` on
 * the sim, into a temporary folder) and times it in headless Chromium,
 * cold (a new browser context) and warm (the same context again): to
 * DOMContentLoaded, to the load event, and to the first sample row
 * `[data-key]` of the viewer's list. Target: the list drawn in < 1 s.
 *
 * Run alone: `deno run -A tests/bench/report_bench.ts [--rows N] [--page-rows N] [--demo-only]`.
 *
 * @module
 */
import { join } from "node:path";
import { chromium } from "playwright-core";
import { CHROMIUM } from "../browser/_chromium.ts";
import { runCli } from "../e2e/_cli.ts";
import { loadRuns, summarize, wilsonInterval } from "../../lib/report/mod.ts";
import { renderReport } from "../../lib/mod.ts";
import { fakeRows, writeFakeRun } from "../report/_fixture.ts";
import type { BenchRow } from "./sweep_bench.ts";

const MODELS = [
  "sim-strong",
  "sim-average",
  "sim-weak",
  "sim-chatty",
  "sim-reasoner",
];
const FAMILIES = ["add", "sub", "mul", "div"];
const DIGITS = [2, 4, 6, 8, 10];

/** Writes `n` ResultRow-shaped lines (deterministic) into `dir/results.jsonl`. */
async function writeRows(dir: string, n: number): Promise<number> {
  const file = await Deno.open(join(dir, "results.jsonl"), {
    write: true,
    create: true,
    truncate: true,
  });
  const enc = new TextEncoder();
  let seed = 12345;
  const rand =
    () => ((seed = (Math.imul(seed, 1103515245) + 12345) >>> 0) / 4294967296);
  let bytes = 0;
  const batch: string[] = [];
  for (let i = 0; i < n; i++) {
    const model = MODELS[i % MODELS.length]!;
    const family = FAMILIES[(i >> 3) % FAMILIES.length]!;
    const digits = DIGITS[(i >> 5) % DIGITS.length]!;
    const r = rand();
    const status = r < 0.7
      ? "correct"
      : r < 0.9
      ? "wrong"
      : r < 0.97
      ? "parse_error"
      : "error";
    const qid = `arithmetic/${family}/d${digits}/s1/${i >> 7}/en`;
    batch.push(JSON.stringify({
      key: `${model}|${qid}|direct|0`,
      run: "bench",
      model,
      suite: "arithmetic",
      question_id: qid,
      template: "direct",
      sample: 0,
      dims: { family, language: "en", level: `d${digits}`, digits },
      question: `What is ${i} + ${i * 7}?`,
      expected: String(i * 8),
      status,
      correct: status === "correct",
      score: status === "correct" ? 1 : 0,
      format_valid: status !== "parse_error",
      error_class: status === "wrong" ? "carry" : null,
      rel_error: status === "wrong" ? 0.01 : null,
      extracted: status === "parse_error" ? null : String(i * 8),
      extract_rule: "bare",
      response: `The answer is ${i * 8}.`,
      reasoning: null,
      finish_reason: "stop",
      prompt_tokens: 20 + (i % 13),
      completion_tokens: 5 + (i % 17),
      latency_ms: Math.round(50 + rand() * 500),
      attempts: 1,
      cached: false,
      error_kind: status === "error" ? "server" : null,
      error_message: status === "error" ? "HTTP 500" : null,
      finished_at: "2026-11-29T00:00:00.000Z",
    }));
    if (batch.length === 10_000 || i === n - 1) {
      const chunk = enc.encode(batch.join("\n") + "\n");
      bytes += chunk.length;
      let off = 0;
      while (off < chunk.length) off += await file.write(chunk.subarray(off));
      batch.length = 0;
    }
  }
  file.close();
  await Deno.writeTextFile(
    join(dir, "manifest.json"),
    JSON.stringify({ run: "bench" }),
  );
  return bytes;
}

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

/** The same statistics with a plain loop: streaming read, JSON.parse, a Map. */
async function plainLoop(
  path: string,
): Promise<Map<string, Record<string, number>>> {
  const groups = new Map<string, Acc>();
  using file = await Deno.open(path);
  let rest = "";
  const take = (line: string) => {
    if (!line) return;
    const r = JSON.parse(line);
    const key = `${r.model}\u0000${r.dims.family}\u0000${r.dims.digits}`;
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
  for await (
    const chunk of file.readable.pipeThrough(new TextDecoderStream())
  ) {
    const lines = (rest + chunk).split("\n");
    rest = lines.pop() ?? "";
    for (const line of lines) take(line);
  }
  take(rest);
  const out = new Map<string, Record<string, number>>();
  for (const [key, g] of groups) {
    const lat = g.latencies.sort((a, b) => a - b);
    const ci = wilsonInterval(g.correct, g.n);
    out.set(key, {
      n: g.n,
      accuracy: ci.p,
      acc_lo: ci.lo,
      acc_hi: ci.hi,
      format_valid_rate: g.formatValid / g.n,
      parse_error_rate: g.parseErrors / g.n,
      error_rate: g.errors / g.n,
      latency_mean: lat.reduce((s, x) => s + x, 0) / g.n,
      latency_p50: lat[Math.round(0.5 * (g.n - 1))]!,
      latency_p95: lat[Math.round(0.95 * (g.n - 1))]!,
      tokens_in: g.tokensIn,
      tokens_out: g.tokensOut,
    });
  }
  return out;
}

/**
 * Runs the benchmark: 1,000,000 rows by default, generated once in a temp
 * folder; times each path (best of `repeats`), checks both agree, and prints
 * the ratio.
 *
 * @param options `rows` to generate, `repeats` per path.
 * @returns Measured rows: both timings, and the speed-up with its target.
 */
export async function benchReport(
  options: { rows?: number; repeats?: number } = {},
): Promise<BenchRow[]> {
  const { rows = 1_000_000, repeats = 2 } = options;
  const dir = await Deno.makeTempDir({ prefix: "report-bench-" });
  try {
    const t0 = performance.now();
    const bytes = await writeRows(dir, rows);
    console.log(
      `report bench: wrote ${rows.toLocaleString("en")} rows (${
        (bytes / 1e6).toFixed(0)
      } MB) in ${((performance.now() - t0) / 1000).toFixed(1)} s`,
    );
    const columns = [
      "model",
      "family",
      "digits",
      "correct",
      "status",
      "format_valid",
      "latency_ms",
      "prompt_tokens",
      "completion_tokens",
    ];
    let t = performance.now();
    await loadRuns(dir, { warn: false });
    const coldMs = performance.now() - t;
    let polarsMs = Infinity, loopMs = Infinity;
    let polarsGroups = 0,
      loopGroups = new Map<string, Record<string, number>>();
    let polarsRecords: Record<string, unknown>[] = [];
    for (let i = 0; i < repeats; i++) {
      t = performance.now();
      const { frame } = await loadRuns(dir, { warn: false, columns });
      const summary = summarize(frame, ["model", "family", "digits"]);
      polarsMs = Math.min(polarsMs, performance.now() - t);
      polarsGroups = summary.height;
      polarsRecords = summary.toRecords();
      t = performance.now();
      loopGroups = await plainLoop(join(dir, "results.jsonl"));
      loopMs = Math.min(loopMs, performance.now() - t);
    }
    // Both paths must compute the same statistics, or the ratio means nothing.
    if (polarsGroups !== loopGroups.size) {
      throw new Error(
        `Cannot compare the paths: ${polarsGroups} vs ${loopGroups.size} groups`,
      );
    }
    for (const r of polarsRecords) {
      const want = loopGroups.get(
        `${r.model}\u0000${r.family}\u0000${r.digits}`,
      );
      for (
        const k of [
          "n",
          "acc_lo",
          "acc_hi",
          "latency_p95",
          "tokens_out",
        ] as const
      ) {
        if (!want || Math.abs(Number(r[k]) - want[k]!) > 1e-9) {
          throw new Error(
            `Cannot compare the paths: ${k} differs for ${r.model}/${r.family}/${r.digits}`,
          );
        }
      }
    }
    const ratio = loopMs / polarsMs;
    const coldRatio = loopMs / coldMs;
    const result: BenchRow[] = [
      {
        name:
          `report: Polars first load (NDJSON → frame + Parquet cache), ${rows} rows`,
        value: coldMs,
        unit: "ms",
      },
      {
        name: `report: Polars load (cached) + summarize ${rows} rows by 3 keys`,
        value: polarsMs,
        unit: "ms",
      },
      {
        name:
          `report: plain TS loop (stream + JSON.parse + Map) over the same ${rows} rows`,
        value: loopMs,
        unit: "ms",
      },
      {
        name: "report: first Polars load vs plain loop",
        value: coldRatio,
        unit: "×",
        ratio: coldRatio,
      },
      {
        name: "report: Polars speed-up over the plain loop",
        value: ratio,
        unit: "×",
        ratio,
        target: ">= 5",
        pass: ratio >= 5,
      },
    ];
    console.log(
      `report bench: ${polarsGroups} groups; plain loop ${
        loopMs.toFixed(0)
      } ms; Polars cached ${polarsMs.toFixed(0)} ms = ${
        ratio.toFixed(1)
      }× (target ≥ 5×); Polars first load ${coldMs.toFixed(0)} ms = ${
        coldRatio.toFixed(2)
      }×`,
    );
    return result;
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
}

/**
 * Renders the report of a `rows`-row run (default 100,000: 5 models × 2
 * templates × 10,000 questions) and opens it in headless Chromium.
 *
 * @param options `rows` of the run (a multiple of 10 is exact).
 * @returns Size (target < 15 MB), render time (target < 60 s) and Chromium
 *   time to the first sample row drawn (target < 10 s).
 */
export async function benchReportPage(
  options: { rows?: number } = {},
): Promise<BenchRow[]> {
  const { rows = 100_000 } = options;
  const models = [
    "sim-strong",
    "sim-average",
    "sim-weak",
    "sim-chatty",
    "sim-reasoner",
  ];
  const dir = await Deno.makeTempDir({ prefix: "report-page-bench-" });
  try {
    const fake = fakeRows({
      models,
      questions: Math.ceil(rows / (models.length * 2)),
    }).slice(0, rows);
    for (const [i, r] of fake.entries()) {
      // Replies of a realistic length: the explorer carries them.
      r.response = `Let me work this out step by step. ${
        "Carry the one and add the next column. ".repeat(6)
      }The answer is ${r.extracted ?? "unclear"}. (${i})`;
      if (r.template === "cot") r.reasoning = "Thinking. ".repeat(40);
    }
    const runDir = await writeFakeRun(dir, "run", fake);
    let t = performance.now();
    const loaded = await loadRuns(runDir, { warn: false });
    const html = await renderReport(loaded, { title: "bench" });
    const renderMs = performance.now() - t;
    const path = join(dir, "report.html");
    await Deno.writeTextFile(path, html);
    const mb = new TextEncoder().encode(html).length / 1e6;
    const context = await chromium.launchPersistentContext(
      join(dir, "profile"),
      {
        executablePath: CHROMIUM,
        headless: true,
        args: ["--no-sandbox", "--disable-gpu", "--no-first-run"],
      },
    );
    let loadMs: number;
    try {
      const page = await context.newPage();
      t = performance.now();
      await page.goto(`file://${path}`, { waitUntil: "load" });
      // to the first sample row drawn (the viewer's rows, as the demo
      // page bench waits for them)
      await page.waitForSelector("#vw-rows [data-key]", { timeout: 60_000 })
        .catch(() => {
          throw new Error(
            "Cannot time the page: the sample viewer drew no rows within 60 s of the load event",
          );
        });
      loadMs = performance.now() - t;
    } finally {
      await context.close();
    }
    console.log(
      `report page bench: ${rows.toLocaleString("en")} rows → ${
        mb.toFixed(2)
      } MB in ${(renderMs / 1000).toFixed(1)} s; Chromium to the first row ${
        loadMs.toFixed(0)
      } ms`,
    );
    return [
      {
        name: `report page: HTML size for ${rows} rows`,
        value: mb,
        unit: "MB",
        target: "< 15",
        pass: mb < 15,
      },
      {
        name: `report page: load + render ${rows} rows`,
        value: renderMs,
        unit: "ms",
        target: "< 60000",
        pass: renderMs < 60_000,
      },
      {
        name: "report page: Chromium to the first sample row drawn",
        value: loadMs,
        unit: "ms",
        target: "< 10000",
        pass: loadMs < 10_000,
      },
    ];
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
}

/** One visit's times, in ms from navigation start. */
interface Visit {
  dcl: number;
  load: number;
  firstRow: number;
}

/**
 * Builds the demo's report (the demo CLI on the sim, into a temporary
 * folder) and opens it in headless Chromium: cold (first visit in a new
 * browser context) and warm (the median of three more visits in it).
 *
 * @returns Page size; DOMContentLoaded, load and first sample row times,
 *   cold and warm (target: first row < 1000 ms).
 */
export async function benchDemoPage(): Promise<BenchRow[]> {
  const dir = await Deno.makeTempDir({ prefix: "demo-page-bench-" });
  try {
    const out = await runCli("lib/cli/demo.ts", ["--output-dir", dir]);
    if (out.code !== 0) {
      throw new Error(
        `Cannot build the demo report: the demo exited ${out.code}: ${
          out.stderr.slice(-400)
        }`,
      );
    }
    const run = [...Deno.readDirSync(dir)].find((e) =>
      e.name.startsWith("demo-")
    );
    if (run === undefined) {
      throw new Error(`Cannot find the demo's run folder in ${dir}`);
    }
    const path = join(dir, run.name, "report.html");
    const mb = (await Deno.stat(path)).size / 1e6;
    const browser = await chromium.launch({
      executablePath: CHROMIUM,
      headless: true,
      args: ["--no-sandbox", "--disable-gpu", "--no-first-run"],
    });
    let cold: Visit;
    const warm: Visit[] = [];
    try {
      const context = await browser.newContext({
        viewport: { width: 1280, height: 900 },
      });
      // Notes when the first sample row appears, from before the page's
      // own script runs.
      await context.addInitScript(() => {
        const g = globalThis as unknown as {
          __firstRow?: number;
          document: { querySelector(s: string): unknown };
          MutationObserver: new (f: () => void) => {
            observe(n: unknown, o: object): void;
            disconnect(): void;
          };
        };
        const seen = new g.MutationObserver(() => {
          if (g.document.querySelector("#vw-rows [data-key]")) {
            g.__firstRow = performance.now();
            seen.disconnect();
          }
        });
        seen.observe(g.document, {
          childList: true,
          subtree: true,
        });
      });
      const visit = async (): Promise<Visit> => {
        const page = await context.newPage();
        await page.goto(`file://${path}`, { waitUntil: "load" });
        await page.waitForSelector("#vw-rows [data-key]");
        const v = await page.evaluate(() => {
          const nav = performance.getEntriesByType("navigation")[0] as
            | { domContentLoadedEventEnd: number; loadEventEnd: number }
            | undefined;
          const g = globalThis as unknown as { __firstRow?: number };
          return {
            dcl: nav?.domContentLoadedEventEnd ?? NaN,
            load: nav?.loadEventEnd ?? NaN,
            firstRow: g.__firstRow ?? NaN,
          };
        });
        await page.close();
        return v;
      };
      cold = await visit();
      for (let i = 0; i < 3; i++) warm.push(await visit());
    } finally {
      await browser.close();
    }
    const median = (k: keyof Visit) =>
      warm.map((v) => v[k]).sort((a, b) => a - b)[1]!;
    const w: Visit = {
      dcl: median("dcl"),
      load: median("load"),
      firstRow: median("firstRow"),
    };
    const ms = (x: number) => `${x.toFixed(0)} ms`;
    console.log(
      `demo page bench: ${mb.toFixed(2)} MB; cold DCL ${ms(cold.dcl)}, load ${
        ms(cold.load)
      }, first row ${ms(cold.firstRow)}; warm DCL ${ms(w.dcl)}, load ${
        ms(w.load)
      }, first row ${ms(w.firstRow)}`,
    );
    const rows: BenchRow[] = [{
      name: "demo page: HTML size",
      value: mb,
      unit: "MB",
    }];
    for (const [label, v] of [["cold", cold], ["warm", w]] as const) {
      rows.push(
        {
          name: `demo page (${label}): to DOMContentLoaded`,
          value: v.dcl,
          unit: "ms",
        },
        {
          name: `demo page (${label}): to the load event`,
          value: v.load,
          unit: "ms",
        },
        {
          name: `demo page (${label}): to the first sample row drawn`,
          value: v.firstRow,
          unit: "ms",
          target: "< 1000",
          pass: v.firstRow < 1000,
        },
      );
    }
    return rows;
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
}

if (import.meta.main && Deno.args.includes("--demo-only")) {
  console.table(await benchDemoPage());
} else if (import.meta.main) {
  const i = Deno.args.indexOf("--rows");
  const rows = i >= 0 ? Number(Deno.args[i + 1]) : 1_000_000;
  const j = Deno.args.indexOf("--page-rows");
  const pageRows = j >= 0 ? Number(Deno.args[j + 1]) : 100_000;
  if (!Deno.args.includes("--page-only")) {
    console.table(await benchReport({ rows }));
  }
  console.table(await benchReportPage({ rows: pageRows }));
}
