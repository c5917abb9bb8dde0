/**
 * Code-suite throughput: rows per second of a code sweep on the sim
 * (candidates extracted, run in the sandbox on every test and the large
 * input, judged), with complexity measurement off and on, the sandbox's
 * pool size, and the share of the sweep's time spent in the sandbox
 * (from a second run of the same candidates straight through `runCode`).
 *
 * @module
 */
import { parseConfig, runSweep } from "../../lib/mod.ts";
import { createSandbox } from "../../lib/sandbox/mod.ts";
import type { BenchRow } from "./sweep_bench.ts";

async function sweep(
  complexity: boolean,
): Promise<{ rows: number; s: number; runDir: string; out: string }> {
  const out = await Deno.makeTempDir();
  const config = parseConfig({
    outputDir: out,
    cache: false,
    samples: 2,
    models: [{ name: "sim-strong", provider: "sim" }, {
      name: "sim-weak",
      provider: "sim",
    }],
    suites: [{
      name: "code",
      params: {
        problems: 6,
        languages: ["javascript", "python"],
        complexity,
        quality: false,
      },
    }],
  }, "code-bench");
  const t0 = performance.now();
  const { done, runDir } = await runSweep(config, { progress: "none" });
  return { rows: done, s: (performance.now() - t0) / 1000, runDir, out };
}

/** Rows per second of a code sweep, complexity off and on; sandbox share. */
export async function benchCodeSweep(): Promise<BenchRow[]> {
  const off = await sweep(false);
  const on = await sweep(true);
  // The sandbox part alone: the same extracted programs on their tests.
  const rows = (await Deno.readTextFile(`${off.runDir}/results.jsonl`)).trim()
    .split("\n").map((l) => JSON.parse(l));
  const sandbox = createSandbox({ warm: 2, concurrency: 2 });
  const t0 = performance.now();
  await Promise.all(
    rows.filter((r) => r.extracted).map((r) =>
      sandbox.runCode({
        language: r.dims.language,
        code: r.extracted,
        entry: "_probe_", // load and fail fast: measures the per-request cost
        calls: [[]],
        timeoutMs: 10_000,
      })
    ),
  );
  const sandboxS = (performance.now() - t0) / 1000;
  await sandbox.close();
  for (const r of [off, on]) await Deno.remove(r.out, { recursive: true });
  return [
    {
      name: "code sweep rows/s (complexity off, pool 2)",
      value: off.rows / off.s,
      unit: "rows/s",
    },
    {
      name: "code sweep rows/s (complexity on, pool 2)",
      value: on.rows / on.s,
      unit: "rows/s",
      ratio: (on.rows / on.s) / (off.rows / off.s),
    },
    {
      name:
        "code sweep: share of time in sandbox requests (one per row, lower bound)",
      value: 100 * Math.min(1, sandboxS / off.s),
      unit: "%",
    },
  ];
}

if (import.meta.main) {
  for (const row of await benchCodeSweep()) console.log(JSON.stringify(row));
}
