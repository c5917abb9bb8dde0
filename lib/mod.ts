/**
 * calc-bench's root entry: what a notebook needs, and nothing more — load
 * or write a config, plan and run a sweep (on the sim or a real
 * endpoint), load runs into Polars, the headline and generic breakdowns,
 * the HTML report, the sim server, and what writing a suite of your own
 * takes (`defineSuite`, a sim skill, the numeric judge). Everything else
 * is a subpath of the package (`deno.json`'s `exports`): `./report` (every
 * analysis and chart), `./runner`, `./config`, `./plan`, `./judge`,
 * `./extract`, `./inputs`, `./prompting`, `./providers`, `./sim`,
 * `./sandbox`, `./store`, `./batch`, `./merge` (cluster shards), `./suites`
 * and one per suite (`./suites/arithmetic`, …). In this repository the
 * same entries are `lib/<part>/mod.ts`.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { loadRuns, parseConfig, runSweep } from "./mod.ts";
 * const outputDir = await Deno.makeTempDir();
 * const config = parseConfig({
 *   outputDir, cache: false,
 *   models: [{ name: "sim-strong", provider: "sim" }],
 *   suites: [{ name: "arithmetic", params: { families: ["add"], digits: [2], count: 3 } }],
 * }, "inline");
 * const { runDir, done } = await runSweep(config, { progress: "none" });
 * assert.equal(done, 3);
 * const { frame } = await loadRuns(runDir, { warn: false });
 * assert.equal(frame.height, 3);
 * await Deno.remove(outputDir, { recursive: true });
 * ```
 *
 * @module
 */
import {
  loadConfig as loadConfigWith,
  parseConfig as parseConfigWith,
  type SweepConfig,
} from "./config/mod.ts";
import {
  createSimBackend,
  type SimServer,
  type SimServerOptions,
  startSimServer as startSimServerWith,
} from "./providers/mod.ts";
import {
  headlineTable as headlineTableWith,
  notebookProgress,
  renderReport as renderReportWith,
  summaryText as summaryTextWith,
  writeReport as writeReportWith,
  writeSummaryCsv as writeSummaryCsvWith,
} from "./report/mod.ts";
import type {
  DataFrame,
  LoadedRuns,
  RenderReportOptions,
  SummaryCsvOptions,
  SummaryTextOptions,
  Table,
  WriteReportOptions,
} from "./report/mod.ts";
import {
  runSweep as runSweepWith,
  type SweepOptions,
  type SweepResult,
} from "./runner/mod.ts";
import { SIM_SKILLS, SUITES } from "./suites/mod.ts";
import {
  type Plan,
  type PlanOptions,
  planSweep as planSweepWith,
} from "./plan/mod.ts";

// The flow's types: Question → Prompt → Completion → Extraction → Verdict → ResultRow.
export type {
  Completion,
  DimSpec,
  Extraction,
  Judged,
  Prompt,
  Question,
  Reply,
  ResultRow,
  Verdict,
} from "./types.ts";
// Configs and sweeps.
export { ConfigError, type SweepConfig } from "./config/mod.ts";
export type { SweepOptions, SweepResult } from "./runner/mod.ts";
export { type Plan, planText } from "./plan/mod.ts";
// Results: load, summarise, break down, report.
export {
  accuracyByCategory,
  accuracyByDimension,
  accuracyHeatmap,
  allWrong,
  compareModels,
  compareTemplates,
  costFrontier,
  type DataFrame,
  dimKinds,
  errorTypes,
  type LoadedRuns,
  loadRuns,
  summarize,
  table,
} from "./report/mod.ts";
export { ACCURACY, FORMAT_VALID_RATE, type Metric } from "./judge/mod.ts";
// The sim server.
export type { SimServer } from "./providers/mod.ts";
// Suites: the registry, and writing your own.
export { defineSuite, type SuiteDefinition } from "./suites/define.ts";
export {
  getSuite,
  listSuites,
  loadSuites,
  type Suite,
  type SuiteRun,
  SUITES,
} from "./suites/mod.ts";
export { defineSkill, passes } from "./providers/sim/mod.ts";
export { instructionTemplate, type Template } from "./prompting/mod.ts";
export { numberExtract, suiteExtract } from "./extract/suite_extract.ts";
export { judgeNumber } from "./judge/number_judge.ts";

/**
 * Validates a parsed config against the registered suites.
 *
 * @param json The parsed JSON value.
 * @param source The file name or label used in error messages.
 * @returns The config with defaults filled in.
 * @throws {ConfigError} listing every problem with its path.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { parseConfig } from "./mod.ts";
 * const config = parseConfig({ models: [{ name: "sim-weak", provider: "sim" }], suites: [{ name: "ceval" }] }, "inline");
 * assert.equal(config.suites[0]?.name, "ceval");
 * ```
 */
export function parseConfig(json: unknown, source: string): SweepConfig {
  return parseConfigWith(json, source, { suites: SUITES });
}

/**
 * Reads and validates a sweep config file against the registered suites.
 *
 * @param path Path to a JSON config file.
 * @returns The config, and the folder relative dataset paths resolve against.
 * @throws {ConfigError} when the file is missing, is not JSON, or is invalid.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { loadConfig } from "./mod.ts";
 * const { config } = await loadConfig("data/configs/demo.json");
 * assert.ok(config.models.length > 0);
 * ```
 */
export function loadConfig(
  path: string,
): Promise<{ config: SweepConfig; baseDir: string }> {
  return loadConfigWith(path, SUITES);
}

/**
 * Runs a sweep over the registered suites (see the runner's `runSweep` for
 * every option; `suites` defaults to the registry).
 *
 * @param config A validated sweep config.
 * @param options Run folder, resume, cache, progress, abort signal...
 * @returns Counts, the run folder and whether it was interrupted.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { parseConfig, runSweep } from "./mod.ts";
 * const outputDir = await Deno.makeTempDir();
 * const config = parseConfig({ outputDir, cache: false, models: [{ name: "sim-strong", provider: "sim" }], suites: [{ name: "linalg", params: { source: "generated", tasks: ["trace"], sizes: [2], count: 2 } }] }, "inline");
 * assert.equal((await runSweep(config, { progress: "none" })).done, 2);
 * await Deno.remove(outputDir, { recursive: true });
 * ```
 */
export function runSweep(
  config: SweepConfig,
  options: Partial<SweepOptions> = {},
): Promise<SweepResult> {
  return runSweepWith(config, { ...options, suites: options.suites ?? SUITES });
}

/**
 * Plans a sweep over the registered suites without sending anything or
 * writing any file: per model × suite × template the requests, input
 * tokens (counted with a real tokenizer), expected output tokens and how
 * they were estimated, cost online and in a batch, and wall time (see the
 * plan module's `planSweep`; `suites` defaults to the registry). Print it
 * with {@linkcode planText}.
 *
 * @param config A validated sweep config.
 * @param options Dataset folder, `limit`, `shard`, runs to measure from (`from`), `measure`.
 * @returns The plan.
 * @throws {SweepInputError} when the questions or templates cannot be loaded.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { parseConfig, planSweep, planText } from "./mod.ts";
 * const config = parseConfig({
 *   models: [{ name: "gpt-4.1-mini", provider: "openai", baseURL: "https://api.openai.com/v1", rpm: 60, price: { input: 0.4, output: 1.6 } }],
 *   suites: [{ name: "arithmetic", params: { families: ["add"], digits: [2], count: 5 }, templates: ["direct"] }],
 *   samples: 2,
 * }, "inline");
 * const plan = await planSweep(config, { measure: false });
 * assert.equal(plan.totals.requests, 10);
 * assert.equal(plan.rows[0]?.bound, "rpm");
 * assert.match(planText(plan), /o200k_base/);
 * ```
 */
export function planSweep(
  config: SweepConfig,
  options: Partial<PlanOptions> = {},
): Promise<Plan> {
  return planSweepWith(config, {
    ...options,
    suites: options.suites ?? SUITES,
  });
}

/**
 * A sweep inside a notebook: a live progress line under the cell, a cache
 * of its own (nothing from an earlier run is reused: a notebook re-run
 * measures again; a program judged for one row is not judged again for
 * another), and the run folder back. With `reuse` (e.g. from an environment variable) the sweep is
 * skipped and that folder is returned, so a rendered notebook can be
 * rebuilt from a stored run.
 *
 * @param config A validated sweep config.
 * @param options `reuse`: an existing run folder; other sweep options.
 * @returns The run folder.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { notebookSweep } from "./mod.ts";
 * assert.equal(await notebookSweep({} as never, { reuse: "outputs/x" }), "outputs/x");
 * ```
 */
export async function notebookSweep(
  config: SweepConfig,
  options: Partial<SweepOptions> & { reuse?: string } = {},
): Promise<string> {
  const { reuse, ...rest } = options;
  if (reuse !== undefined && reuse !== "") return reuse;
  const progress = notebookProgress();
  // A cache of this sweep's own: nothing from an earlier run is reused,
  // while what scoring derives (a judged program) is shared by the rows
  // of this run.
  const cacheDir = rest.cacheDir ??
    await Deno.makeTempDir({ prefix: "calc-bench-notebook-" });
  try {
    const result = await runSweep(config, {
      cache: true,
      cacheDir,
      progress: progress.update,
      ...rest,
    });
    await progress.flush();
    return result.runDir;
  } finally {
    if (rest.cacheDir === undefined) {
      await Deno.remove(cacheDir, { recursive: true }).catch(() => {});
    }
  }
}

/**
 * Renders loaded runs as one HTML page, with each registered suite's own
 * section (its dims, baseline and sections).
 *
 * @param loaded What `loadRuns` returned.
 * @param options The page title, dims to break the results down by
 *   (`suites` defaults to every registered suite).
 * @returns The HTML document.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import pl from "nodejs-polars";
 * import { renderReport } from "./mod.ts";
 * const frame = pl.DataFrame({ model: ["a"], suite: ["arithmetic"], status: ["correct"], correct: [true] });
 * assert.match(await renderReport({ frame, dims: [], runs: [], warnings: [] }, { title: "T" }), /^<!DOCTYPE html>/);
 * ```
 */
export function renderReport(
  loaded: LoadedRuns,
  options: RenderReportOptions = {},
): Promise<string> {
  return renderReportWith(loaded, { suites: SUITES, ...options });
}

/**
 * Writes the report of one run folder, or of several side by side, with
 * each registered suite's section.
 *
 * @param runDirs The run folder, or several (tables then group by run).
 * @param options `out`: where to write (by default `<first run>/report.html`);
 *   `by`: dims to break the results down by.
 * @returns The path of the written report.
 * @throws {Deno.errors.NotFound} When a run folder or its results are missing.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { writeReport } from "./mod.ts";
 * await assert.rejects(() => writeReport("/nonexistent-run"));
 * ```
 */
export function writeReport(
  runDirs: string | readonly string[],
  options: WriteReportOptions = {},
): Promise<string> {
  return writeReportWith(runDirs, { suites: SUITES, ...options });
}

/**
 * Writes a run's `summary.csv` with each registered suite's declared
 * headline metrics (see the report's `writeSummaryCsv`).
 *
 * @param runDir The run folder.
 * @param options Grouping and output path (`suites` defaults to every
 *   registered suite).
 * @returns The path written.
 * @throws {Error} "Cannot load run ..." when the folder or its results are missing.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { writeSummaryCsv } from "./mod.ts";
 * await assert.rejects(() => writeSummaryCsv("/nonexistent-run"));
 * ```
 */
export function writeSummaryCsv(
  runDir: string,
  options: SummaryCsvOptions = {},
): Promise<string> {
  return writeSummaryCsvWith(runDir, { suites: SUITES, ...options });
}

/**
 * The sweep's closing table from a frame, with each registered suite's
 * declared headline metrics (see the report's `summaryText`).
 *
 * @param frame A result frame from `loadRuns`.
 * @param by Grouping columns. @default ["suite", "model"]
 * @param options The run's manifest and folder (`suites` defaults to
 *   every registered suite).
 * @returns The tables as text.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import pl from "nodejs-polars";
 * import { summaryText } from "./mod.ts";
 * const frame = pl.DataFrame({ suite: ["ceval"], model: ["m"], status: ["correct"], correct: [true] });
 * assert.match(await summaryText(frame), /subject mean\s+HARD mean/);
 * ```
 */
export function summaryText(
  frame: DataFrame,
  by?: readonly string[],
  options: SummaryTextOptions = {},
): Promise<string> {
  return summaryTextWith(frame, by, { suites: SUITES, ...options });
}

/**
 * A notebook's headline table: per group, each registered suite's
 * declared headline metrics (see the report's `headlineTable`).
 *
 * @param frame A result frame from `loadRuns`.
 * @param by Grouping columns. @default ["suite", "model"]
 * @returns A displayable table.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import pl from "nodejs-polars";
 * import { headlineTable } from "./mod.ts";
 * const frame = pl.DataFrame({ suite: ["linalg", "linalg"], model: ["m", "m"], status: ["correct", "wrong"], correct: [true, false], size: [3, 5] });
 * assert.match((await headlineTable(frame)).toJupyter()["text/html"]!, /accuracy_size_5/);
 * ```
 */
export function headlineTable(
  frame: DataFrame,
  by?: readonly string[],
): Promise<Table> {
  return headlineTableWith(frame, by, { suites: SUITES });
}

/**
 * Starts the sim as an OpenAI-compatible HTTP server that answers every
 * registered suite's prompts (see the providers' `startSimServer`).
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { startSimServer } from "./mod.ts";
 * const server = await startSimServer();
 * const r = await fetch(`${server.baseURL}/models`);
 * assert.equal(r.status, 200);
 * await r.body?.cancel();
 * await server.close();
 * ```
 */
export function startSimServer(
  options: SimServerOptions = {},
): Promise<SimServer> {
  return startSimServerWith({
    backend: createSimBackend(SIM_SKILLS),
    ...options,
  });
}
