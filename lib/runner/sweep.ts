/**
 * The sweep runner: models × questions × templates × samples, with a global
 * and per-model concurrency limit, RPM/TPM buckets, the response cache,
 * row-by-row storage, resume and clean interruption. Suites are given to
 * it (the registry lives above the runner); one lane per model does the
 * work (see `_lane.ts`).
 *
 * @module
 */
import { basename, join, resolve } from "node:path";
import pLimit from "p-limit";
import type { ModelConfig, SweepConfig } from "../config/schema.ts";
import { configDifferences, rowConfig } from "../config/row_config.ts";
import type { Provider, ProviderContext } from "../providers/mod.ts";
import { loadProviderFactory } from "../providers/load.ts";
import type { SuiteList } from "../suites/types.ts";
import type { ResultRow } from "../types.ts";
import {
  buildManifest,
  createRunDir,
  createRunDirAt,
  fsReason,
  isRunFileName,
  type Manifest,
  type ManifestSession,
  readEnvironment,
  readManifest,
  readResults,
  ResultsWriter,
  RunDirError,
  tidyResults,
  writeManifest,
} from "../store/mod.ts";
import { ResponseCache } from "./cache.ts";
import {
  createReporter,
  type ProgressMode,
  type SweepProgress,
} from "./progress.ts";
import { REQUEST_SEED_RULE } from "./seed.ts";
import { checkShard, type Shard, shardOf } from "./shard.ts";
import { loadEntries, SweepInputError } from "./_entries.ts";
import { type LaneShared, type LaneStats, runLane } from "./_lane.ts";
import type { SuiteEntry } from "./_work.ts";

/** Makes the provider of a model (the providers module's `createProvider`). */
export type ProviderFactory = (
  model: ModelConfig,
  sweep: SweepConfig,
  env?: (name: string) => string | undefined,
  context?: ProviderContext,
) => Provider;

/** Options of {@linkcode runSweep}. */
export interface SweepOptions {
  /**
   * The suites a config may name, in registry order (`lib/suites/mod.ts`'s
   * `SUITES`; `lib/mod.ts`'s `runSweep` passes them). Their sim skills
   * answer for `sim` models.
   */
  suites: SuiteList;
  /** Run folder to create and use. @default `<outputDir>/<name>-<YYYYMMDD-HHMMSS>` */
  runDir?: string;
  /** Run folder to resume; the config is taken from its manifest. */
  resume?: string;
  /** Use the response cache. @default config.cache */
  cache?: boolean;
  /** Cache folder. @default `<outputDir>/.cache` */
  cacheDir?: string;
  /** Progress display, or a callback called a few times a second. @default "auto" */
  progress?: ProgressMode;
  /** Aborting stops scheduling, aborts calls in flight and saves what is done. */
  signal?: AbortSignal;
  /** Environment lookup for API keys. @default Deno.env.get */
  env?: (name: string) => string | undefined;
  /** Folder relative dataset paths resolve against. @default the working directory */
  baseDir?: string;
  /** At most this many questions per suite (a quick try). */
  limit?: number;
  /** Provider factory, overriding `lib/providers` (tests, custom backends). */
  createProvider?: ProviderFactory;
  /**
   * Run only this shard of the work (`--shard i/n`, 1-based; see
   * `shard.ts`). Recorded in the manifest; a resumed run keeps its own.
   */
  shard?: Shard;
}

/** What a sweep did. */
export interface SweepResult {
  /** The run folder (`<outputDir>/<name>-<timestamp>` or the resumed one). */
  runDir: string;
  /** Rows the sweep plans in all (the shard's rows for a shard). */
  total: number;
  /** Rows written in this session. */
  done: number;
  /** Rows already stored before this session (resume). */
  skipped: number;
  /** Error rows written in this session. */
  errors: number;
  /** Rows of this session served from the cache. */
  cached: number;
  /** Whether the sweep was stopped early (abort signal); rows written so far are kept. */
  interrupted: boolean;
  /** Wall time of this session in seconds. */
  elapsedSeconds: number;
  /** Things the user should know (lines of a resumed run set aside). */
  warnings: string[];
}

export type { SweepProgress };

/** Each entry's `judging`, keyed by suite (`code#2` for a repeat). */
function judgingOf(
  entries: readonly SuiteEntry[],
): Record<string, Record<string, string>> | undefined {
  const out: Record<string, Record<string, string>> = {};
  const seen = new Map<string, number>();
  for (const entry of entries) {
    const name = entry.suite.name;
    const n = (seen.get(name) ?? 0) + 1;
    seen.set(name, n);
    if (entry.judging) out[n === 1 ? name : `${name}#${n}`] = entry.judging;
  }
  return Object.keys(out).length > 0 ? out : undefined;
}

/** The run folder and manifest a sweep starts from (new, or resumed). */
interface Start {
  runDir: string;
  manifest: Manifest | null;
  config: SweepConfig;
  baseDir: string;
  limit: number | undefined;
}

async function openRun(
  config: SweepConfig,
  options: SweepOptions,
): Promise<Start> {
  const baseDir = resolve(options.baseDir ?? Deno.cwd());
  if (options.resume !== undefined) {
    let manifest;
    try {
      manifest = await readManifest(options.resume);
    } catch (error) {
      if (error instanceof RunDirError) {
        throw new SweepInputError(error.message);
      }
      throw error;
    }
    checkResumePlan(options.resume, manifest, { config, limit: options.limit });
    return {
      runDir: options.resume,
      manifest,
      config: manifest.config,
      baseDir: manifest.baseDir !== undefined && options.baseDir === undefined
        ? manifest.baseDir
        : baseDir,
      limit: manifest.limit,
    };
  }
  // The folder itself is made only once the questions are loaded, so bad
  // input leaves nothing behind.
  return { runDir: "", manifest: null, config, baseDir, limit: options.limit };
}

/**
 * The rule of resume: the plan is the run's own (its config, `--limit` and
 * shard, as in its manifest), so the manifest always describes the rows.
 * A config whose rows would differ (models, suites, params, seed,
 * templates, samples: see `rowConfig`) or another `--limit` is refused
 * with the command that starts a new run; where the requests go and how
 * fast (endpoints, keys, concurrency, limits) may differ and the run's own
 * are used. A different `--shard` is refused too (by the sweep).
 *
 * @param runDir The run folder being resumed.
 * @param manifest Its manifest (the config and `--limit` it records).
 * @param asked The config and `--limit` given with `--resume`, if any.
 * @throws {SweepInputError} naming what differs and the commands to use.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { checkResumePlan } from "./sweep.ts";
 * const manifest = { config: { seed: 1, models: [{ name: "m" }], suites: [] }, limit: 5 } as never;
 * checkResumePlan("outputs/r", manifest, { limit: 5 });
 * assert.throws(() => checkResumePlan("outputs/r", manifest, { limit: 3 }), /planned with --limit 5/);
 * const other = { seed: 2, models: [{ name: "m" }], suites: [] } as never;
 * assert.throws(() => checkResumePlan("outputs/r", manifest, { config: other }), /differs in seed/);
 * ```
 */
export function checkResumePlan(
  runDir: string,
  manifest: { config: SweepConfig; limit?: number | undefined },
  asked: { config?: SweepConfig; limit?: number | undefined },
): void {
  const { config = manifest.config, limit } = asked;
  const fresh = "start a new run instead: deno task sweep <config.json>";
  const differs = configDifferences(
    rowConfig(manifest.config),
    rowConfig(config),
  );
  if (differs.length > 0) {
    throw new SweepInputError(
      `Cannot resume ${runDir} with this config: it plans other rows than the run's own (it differs in ${
        differs.slice(0, 5).join(", ")
      }${
        differs.length > 5 ? ", ..." : ""
      }), and a resumed run keeps the plan its manifest describes; resume with the run's own config (deno task sweep --resume ${runDir}), or ${fresh}`,
    );
  }
  if (limit !== undefined && limit !== manifest.limit) {
    throw new SweepInputError(
      `Cannot resume ${runDir} with --limit ${limit}: the run was planned ${
        manifest.limit === undefined
          ? "without --limit"
          : `with --limit ${manifest.limit}`
      }, and a resumed run keeps the plan its manifest describes; resume without --limit (deno task sweep --resume ${runDir}), or ${fresh} --limit ${limit}`,
    );
  }
}

/** What {@linkcode openStore} needs to know. */
interface StoreInputs {
  config: SweepConfig;
  options: SweepOptions;
  start: Start;
  entries: readonly SuiteEntry[];
  shard: Shard | undefined;
  started: Date;
  /** Builds the manifest of a new run (named by `run`). */
  newManifest: () => Promise<Manifest>;
  session: ManifestSession;
  secrets: readonly string[];
}

/** The run folder ready for rows: manifest written, earlier rows read. */
interface OpenedStore {
  runDir: string;
  manifest: Manifest;
  finished: Set<string>;
  priorErrors: number;
  priorCached: number;
  warnings: string[];
}

/** Rows already in a results file, and lines that are not rows. */
interface PriorRows {
  finished: Set<string>;
  priorErrors: number;
  priorCached: number;
  /** Keys of rows outside the plan (with `outside`), in file order. */
  outside: string[];
  bad: { line: number; text: string }[];
}

/** Reads the rows stored so far (a torn last line is skipped). Writes nothing. */
async function readPrior(
  resultsPath: string,
  outside?: (row: ResultRow) => boolean,
): Promise<PriorRows> {
  const prior: PriorRows = {
    finished: new Set(),
    priorErrors: 0,
    priorCached: 0,
    outside: [],
    bad: [],
  };
  for await (
    const row of readResults(resultsPath, {
      onBadLine: (line, text) => prior.bad.push({ line, text }),
      onTornLine: (line, text) => prior.bad.push({ line, text }),
    })
  ) {
    if (outside?.(row)) prior.outside.push(row.key);
    if (prior.finished.has(row.key)) continue;
    prior.finished.add(row.key);
    if (row.status === "error") prior.priorErrors++;
    if (row.cached) prior.priorCached++;
  }
  return prior;
}

/** Sets aside what is not a row (see `tidyResults`), saying so in `warnings`. */
async function tidyPrior(
  resultsPath: string,
  prior: PriorRows,
  started: Date,
  warnings: string[],
): Promise<void> {
  const said = await tidyResults(resultsPath, prior.bad, started);
  if (said !== null) warnings.push(said);
}

/** A test of whether a stored row is outside the plan of this sweep. */
function outsidePlan(
  config: SweepConfig,
  entries: readonly SuiteEntry[],
  shard: Shard | undefined,
): (row: ResultRow) => boolean {
  const models = new Set(config.models.map((m) => m.name));
  const templates = new Map<string, Set<string>>();
  for (const entry of entries) {
    const ids = entry.templates.map(([id]) => id);
    for (const q of entry.questions) templates.set(q.id, new Set(ids));
  }
  return (row) =>
    !models.has(row.model) ||
    !(templates.get(row.question_id)?.has(row.template) ?? false) ||
    !Number.isInteger(row.sample) || row.sample < 0 ||
    row.sample >= config.samples ||
    (shard !== undefined && shard.count > 1 &&
      shardOf(row.model, row.question_id, row.template, shard.count) !==
        shard.index);
}

/** What is at a `--run-dir` path. */
async function runDirState(
  runDir: string,
): Promise<"absent" | "file" | "run" | "no-manifest" | { foreign: string }> {
  try {
    if (!(await Deno.stat(runDir)).isDirectory) return "file";
  } catch (error) {
    if (error instanceof Deno.errors.NotFound) return "absent";
    throw new SweepInputError(
      `Cannot use ${runDir} as the run folder: ${
        fsReason(error)
      }; give a folder path with --run-dir`,
    );
  }
  try {
    await Deno.stat(join(runDir, "manifest.json"));
    return "run";
  } catch (error) {
    if (!(error instanceof Deno.errors.NotFound)) throw error;
  }
  for await (const entry of Deno.readDir(runDir)) {
    if (!isRunFileName(entry.name)) return { foreign: entry.name };
  }
  return "no-manifest";
}

/**
 * Opens the run folder for rows, after the input was loaded and checked:
 *
 * - resume: reads the stored rows, moves garbage aside, adds the session
 *   to the manifest;
 * - a new run: the folder appears with its manifest already in it (made
 *   under a temporary name, then renamed), so a kill at any moment leaves
 *   no run folder without one;
 * - `--run-dir` naming a folder without a manifest (a kill in an older
 *   version, a folder made by hand): with no rows, the run restarts in
 *   place; with rows, they are resumed under this config, unless some are
 *   outside its plan (refused). A warning says which happened.
 */
async function openStore(inputs: StoreInputs): Promise<OpenedStore> {
  const { config, options, start, started, session, secrets } = inputs;
  const warnings: string[] = [];
  if (start.manifest !== null) {
    const runDir = start.runDir;
    const resultsPath = join(runDir, "results.jsonl");
    const prior = await readPrior(resultsPath);
    await tidyPrior(resultsPath, prior, started, warnings);
    start.manifest.sessions.push(session);
    await writeManifest(runDir, start.manifest, secrets);
    return { runDir, manifest: start.manifest, ...prior, warnings };
  }
  const manifest = await inputs.newManifest();
  manifest.sessions.push(session);
  const fresh = (runDir: string): OpenedStore => ({
    runDir,
    manifest,
    finished: new Set(),
    priorErrors: 0,
    priorCached: 0,
    warnings,
  });
  const write = async (dir: string, run: string) => {
    manifest.run = run;
    await writeManifest(dir, manifest, secrets);
  };
  try {
    if (options.runDir === undefined) {
      return fresh(
        await createRunDir(config.outputDir, config.name, started, {
          init: write,
        }),
      );
    }
    const runDir = options.runDir;
    const run = basename(resolve(runDir));
    const state = await runDirState(runDir);
    if (state === "absent") {
      return fresh(
        await createRunDirAt(runDir, { init: (dir) => write(dir, run) }),
      );
    }
    if (state === "file") {
      throw new SweepInputError(
        `Cannot use ${runDir} as the run folder: a file of that name exists; give a folder path with --run-dir`,
      );
    }
    if (typeof state === "object") {
      throw new SweepInputError(
        `Cannot start a sweep in ${runDir}: it is a folder of other files (such as ${state.foreign}), not a run, and a sweep would write its rows and manifest among them; give a new or empty folder with --run-dir`,
      );
    }
    if (state === "run") {
      throw new SweepInputError(
        `Cannot start a sweep in ${runDir}: it already holds a run; resume it with --resume ${runDir}`,
      );
    }
    const resultsPath = join(runDir, "results.jsonl");
    const prior = await readPrior(
      resultsPath,
      outsidePlan(config, inputs.entries, inputs.shard),
    );
    const stored = prior.finished.size;
    if (prior.outside.length > 0) {
      throw new SweepInputError(
        `Cannot resume the rows in ${runDir} with this config: ${prior.outside.length} of the ${stored} stored rows are not in its plan (first: ${
          prior.outside[0]
        }); give the config the run was started with, or another --run-dir`,
      );
    }
    await write(runDir, run);
    await tidyPrior(resultsPath, prior, started, warnings);
    warnings.unshift(
      stored === 0
        ? `${runDir} had no manifest and no rows (a sweep killed as it started, or a folder made by hand): restarting in place`
        : `${runDir} had no manifest but ${stored} stored row(s): resuming them with the config given (wrote a new manifest.json)`,
    );
    return { runDir, manifest, ...prior, warnings };
  } catch (error) {
    if (error instanceof RunDirError) throw new SweepInputError(error.message);
    throw error;
  }
}

/**
 * The shard a sweep runs: a resumed run's own (a different `--shard` is
 * refused), else the one asked for, else none.
 */
function shardToRun(
  manifest: Manifest | null,
  asked: Shard | undefined,
): Shard | undefined {
  let shard: Shard | undefined;
  try {
    if (manifest?.shard !== undefined) shard = checkShard(manifest.shard);
    else if (manifest === null && asked !== undefined) {
      shard = checkShard(asked);
    }
  } catch (error) {
    throw new SweepInputError((error as Error).message);
  }
  if (
    manifest !== null && asked !== undefined &&
    (shard?.index !== asked.index || shard?.count !== asked.count)
  ) {
    throw new SweepInputError(
      `Cannot resume with --shard ${asked.index}/${asked.count}: the run holds ${
        shard === undefined
          ? "the whole sweep"
          : `shard ${shard.index}/${shard.count}`
      }; resume without --shard (a run keeps its shard)`,
    );
  }
  return shard;
}

/** Rows a sweep (or one shard of it) plans. */
function plannedRows(
  config: SweepConfig,
  entries: readonly SuiteEntry[],
  shard: Shard | undefined,
): number {
  let pairs = 0;
  for (const model of config.models) {
    for (const entry of entries) {
      if (shard === undefined || shard.count === 1) {
        pairs += entry.questions.length * entry.templates.length;
        continue;
      }
      for (const question of entry.questions) {
        for (const [templateId] of entry.templates) {
          if (
            shardOf(model.name, question.id, templateId, shard.count) ===
              shard.index
          ) pairs++;
        }
      }
    }
  }
  return pairs * config.samples;
}

/** Every `apiKeyEnv` named anywhere in a value (a judge model in suite params). */
function keyVariables(value: unknown, out: Set<string>): Set<string> {
  if (Array.isArray(value)) { for (const v of value) keyVariables(v, out); }
  else if (value !== null && typeof value === "object") {
    for (const [k, v] of Object.entries(value)) {
      if (k === "apiKeyEnv" && typeof v === "string") out.add(v);
      else keyVariables(v, out);
    }
  }
  return out;
}

/**
 * Every API key the sweep may send, to redact from what is stored: the
 * models' and any model named in a suite's params (a judge model).
 *
 * @param config The sweep config.
 * @param env Reads environment variables.
 * @returns The key values (4 characters or more) to redact.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { secretsOf } from "./sweep.ts";
 * const config = { models: [{ apiKeyEnv: "K" }], suites: [{ params: { judge: { apiKeyEnv: "J" } } }] } as never;
 * assert.deepEqual(secretsOf(config, (n) => n === "K" ? "sk-1234" : n === "J" ? "sk-5678" : undefined).sort(), ["sk-1234", "sk-5678"]);
 * ```
 */
export function secretsOf(
  config: SweepConfig,
  env: (name: string) => string | undefined,
): string[] {
  const names = keyVariables(config.suites.map((s) => s.params), new Set());
  for (const m of config.models) {
    if (m.apiKeyEnv !== undefined) names.add(m.apiKeyEnv);
  }
  return [...new Set([...names].map((n) => env(n) ?? ""))]
    .filter((s) => s.length >= 4);
}

/**
 * Runs a sweep and stores every row in `<runDir>/results.jsonl` as it
 * finishes, beside `manifest.json`. With `resume`, rows already stored are
 * skipped and the rest are appended; nothing is duplicated.
 *
 * @param config A validated sweep config (ignored with `resume`: the
 *   manifest's config is used).
 * @param options The suites, run folder, resume, cache, progress, abort
 *   signal...
 * @returns Counts, the run folder and whether it was interrupted.
 * @throws {Error} "Cannot ..." when the run folder or manifest cannot be
 *   used, or a suite cannot produce its questions.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { runSweep } from "./sweep.ts";
 * import { SweepConfigSchema } from "../config/schema.ts";
 * import type { Suite } from "../suites/types.ts";
 * const suite: Suite = {
 *   name: "tiny", description: "", validateParams: () => ({ ok: true }),
 *   questions: () => Promise.resolve([{ id: "q1", suite: "tiny", text: "1+1", answer: { kind: "rational", value: "2" }, dims: {} }]),
 *   templates: { direct: { id: "direct", description: "", render: (q) => [{ role: "user", content: q.text }] } },
 *   defaultTemplates: ["direct"], baseline: "direct", dims: [],
 *   extract: (_q, c) => ({ value: c.text, rule: "all", span: null, candidates: 1 }),
 *   score: (_q, _c, e) => Promise.resolve({ status: e.value === "2" ? "correct" : "wrong", score: e.value === "2" ? 1 : 0, formatValid: true }),
 * };
 * const out = await Deno.makeTempDir();
 * const config = SweepConfigSchema.parse({ models: [{ name: "echo", provider: "sim" }], suites: [{ name: "tiny" }], samples: 2, outputDir: out });
 * const result = await runSweep(config, {
 *   suites: [suite], progress: "none",
 *   createProvider: (m) => ({ name: m.name, complete: () => Promise.resolve({ text: "2", reasoning: null, finishReason: "stop", usage: { promptTokens: 1, completionTokens: 1 }, latencyMs: 0, attempts: 1 }) }),
 * });
 * assert.equal(result.done, 2);
 * assert.equal(result.errors, 0);
 * await Deno.remove(out, { recursive: true });
 * ```
 */
export async function runSweep(
  config: SweepConfig,
  options: SweepOptions,
): Promise<SweepResult> {
  const started = new Date();
  const t0 = performance.now();
  const env = options.env ?? ((name: string) => Deno.env.get(name));
  const start = await openRun(config, options);
  const { baseDir, limit } = start;
  let manifest = start.manifest;
  config = start.config;
  // Only the provider kinds the models use are loaded (a sim sweep never
  // imports the openai client), while the questions are generated.
  const providersLoading = options.createProvider === undefined
    ? loadProviderFactory(config.models.map((m) => m.provider))
    : undefined;
  providersLoading?.catch(() => {}); // awaited (and its failure thrown) below

  // A new run's manifest needs the git revision (a subprocess): read it
  // while the questions are generated.
  const environment = manifest === null ? readEnvironment() : null;
  let loaded;
  try {
    loaded = await loadEntries(config, options.suites, baseDir, limit);
  } catch (error) {
    await environment?.catch(() => {});
    throw error;
  }
  const { entries, questionCounts } = loaded;
  let shard: Shard | undefined;
  try {
    shard = shardToRun(manifest, options.shard);
  } catch (error) {
    await environment?.catch(() => {});
    throw error;
  }
  const total = plannedRows(config, entries, shard);

  // Before the folder exists: nothing to clean up if this fails.
  let factory: ProviderFactory;
  try {
    factory = options.createProvider ?? await providersLoading!;
  } catch (error) {
    await environment?.catch(() => {});
    throw error;
  }

  // The store: the folder appears with its manifest; earlier rows are read
  // (a torn tail repaired, garbage moved aside).
  const secrets = secretsOf(config, env);
  const redact = (text: string): string => {
    for (const s of secrets) text = text.replaceAll(s, "[redacted]");
    return text;
  };
  const session: ManifestSession = {
    startedAt: started.toISOString(),
    endedAt: null,
    written: 0,
    skipped: 0,
    interrupted: false,
  };
  const judging = judgingOf(entries);
  if (judging !== undefined) session.judging = judging;
  let opened: OpenedStore;
  try {
    opened = await openStore({
      config,
      options,
      start,
      entries,
      shard,
      started,
      session,
      secrets,
      newManifest: async () => {
        const fresh = await buildManifest({
          run: config.name,
          config,
          questions: questionCounts,
          total,
          requestSeed: REQUEST_SEED_RULE,
          startedAt: started,
          ...(environment === null ? {} : { environment }),
        });
        fresh.baseDir = baseDir;
        if (limit !== undefined) fresh.limit = limit;
        if (shard !== undefined) fresh.shard = shard;
        return fresh;
      },
    });
  } catch (error) {
    await environment?.catch(() => {});
    throw error;
  }
  const { runDir, finished, priorErrors, priorCached, warnings } = opened;
  manifest = opened.manifest;
  const runName = manifest.run;
  const resultsPath = join(runDir, "results.jsonl");
  const useCache = options.cache ?? config.cache;
  const cache = useCache
    ? await ResponseCache.open(
      options.cacheDir ?? join(config.outputDir, ".cache"),
      { secrets },
    )
    : null;
  let writer: ResultsWriter;
  try {
    writer = await ResultsWriter.open(resultsPath);
  } catch (error) {
    cache?.close();
    throw error;
  }

  // Progress.
  const stats: LaneStats = {
    done: 0,
    skipped: 0,
    errors: 0,
    cached: 0,
    errorsByKind: {},
  };
  const snapshot = (): SweepProgress => {
    const elapsed = (performance.now() - t0) / 1000;
    const rate = elapsed > 0 ? stats.done / elapsed : 0;
    const left = total - stats.done - stats.skipped;
    return {
      done: stats.done,
      total,
      skipped: stats.skipped,
      errors: stats.errors,
      errorsByKind: { ...stats.errorsByKind },
      requestsPerSecond: rate,
      etaSeconds: left <= 0 ? 0 : rate > 0 ? left / rate : null,
      elapsedSeconds: elapsed,
    };
  };
  const reporter = await createReporter(options.progress ?? "auto");
  const ticker = setInterval(() => reporter.update(snapshot()), 250);

  // Stop: the caller's signal stops scheduling and aborts calls in flight.
  const stop = new AbortController();
  const onAbort = () => stop.abort(options.signal?.reason);
  if (options.signal?.aborted) stop.abort(options.signal.reason);
  options.signal?.addEventListener("abort", onAbort, { once: true });

  const simSkills = options.suites.flatMap((s) => s.simSkills ?? []);
  const providers = new Map<string, Provider>();
  // Each worker has one call in flight at a time, so when the lanes'
  // widths add up to at most the global limit, the limiter never holds a
  // call back and is skipped (it cost about 10 µs a row).
  const widthOf = (model: ModelConfig) =>
    Math.max(1, Math.min(model.concurrency, config.concurrency));
  // The provider kinds the factory has (judges may add one).
  const kindsLoaded = new Set(config.models.map((m) => m.provider));
  let kindsReady = Promise.resolve();
  const provider = (model: ModelConfig): Provider => {
    const id = JSON.stringify(model);
    let made = providers.get(id);
    if (made === undefined) {
      made = factory(model, config, env, { simSkills });
      providers.set(id, made);
    }
    return made;
  };
  const shared: LaneShared = {
    runName,
    config,
    entries,
    finished,
    cache,
    writer,
    stop,
    stats,
    shard,
    global: config.models.reduce((n, m) => n + widthOf(m), 0) >
        config.concurrency
      ? pLimit(config.concurrency)
      : null,
    provider,
    async judgeProvider(model) {
      // A judge model (named in a suite's params) may be of a kind the
      // swept models do not use: load it on its first call. Loads chain,
      // so concurrent first calls all wait for a factory with their kind
      // and a later, smaller one never replaces a larger one.
      if (
        options.createProvider === undefined &&
        !kindsLoaded.has(model.provider)
      ) {
        kindsLoaded.add(model.provider);
        kindsReady = kindsReady
          .then(() => loadProviderFactory([...kindsLoaded]))
          .then((loaded) => {
            factory = loaded;
          });
      }
      await kindsReady;
      return provider(model);
    },
    redact,
  };

  let failure: unknown = null;
  try {
    await Promise.all(
      config.models.map((model) =>
        runLane(model, shared, () => stats.skipped++)
      ),
    );
  } catch (error) {
    failure = error;
    stop.abort(error);
  } finally {
    clearInterval(ticker);
    options.signal?.removeEventListener("abort", onAbort);
    await writer.close().catch((error) => {
      failure ??= error;
    });
    cache?.close();
    await Promise.all(
      [...providers.values()].map((p) => p.close?.().catch(() => {})),
    );
    const used = new Set(entries.map((e) => e.suite));
    await Promise.all([...used].map((s) => s.close?.().catch(() => {})));
  }
  const interrupted = stop.signal.aborted;
  const final = snapshot();
  reporter.stop(final);

  const ended = new Date();
  session.endedAt = ended.toISOString();
  session.written = stats.done;
  session.skipped = stats.skipped;
  session.interrupted = interrupted;
  manifest.endedAt = session.endedAt;
  manifest.interrupted = interrupted;
  manifest.total = total;
  manifest.counts = {
    rows: finished.size + stats.done,
    errors: priorErrors + stats.errors,
    cached: priorCached + stats.cached,
  };
  await writeManifest(runDir, manifest, secrets);
  if (failure !== null) throw failure;
  return {
    runDir,
    total,
    done: stats.done,
    skipped: stats.skipped,
    errors: stats.errors,
    cached: stats.cached,
    interrupted,
    elapsedSeconds: (performance.now() - t0) / 1000,
    warnings,
  };
}
