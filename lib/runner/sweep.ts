/**
 * The sweep runner: models × questions × templates × samples, with a global
 * and per-model concurrency limit, RPM/TPM buckets, the response cache,
 * row-by-row storage, resume and clean interruption. Suites are given to
 * it (the registry lives above the runner); one lane per model does the
 * work (see `_lane.ts`). The run folder is opened (new, resumed or a
 * `--run-dir`) by `_run_folder.ts`; the options and result types are in
 * `sweep_options.ts`.
 *
 * @module
 */
import { join } from "node:path";
import pLimit from "p-limit";
import type { ModelConfig, SweepConfig } from "../config/schema.ts";
import type { Provider } from "../providers/mod.ts";
import { loadProviderFactory } from "../providers/load.ts";
import { simVersion } from "../providers/sim_version.ts";
import {
  type AdaptiveGroupState,
  buildManifest,
  identityOf,
  type Manifest,
  type ManifestSession,
  readEnvironment,
  redactSecrets,
  ResultsWriter,
  type RunIdentity,
  writeManifest,
} from "../store/mod.ts";
import { ResponseCache } from "./cache.ts";
import { type LoadedEntries, loadEntries, SweepInputError } from "./entries.ts";
import { identityMismatch, runIdentity } from "./identity.ts";
import { ModelHealth } from "./model_health.ts";
import { laneWidth } from "./lane_width.ts";
import { createReporter, type SweepProgress } from "./progress.ts";
import { secretsOf } from "./secrets.ts";
import { REQUEST_SEED_RULE } from "./seed.ts";
import type {
  ProviderFactory,
  SweepOptions,
  SweepResult,
} from "./sweep_options.ts";
import { type LaneShared, type LaneStats, runLane } from "./_lane.ts";
import { plannedRows } from "./_planned_rows.ts";
import { openRun, openStore, shardToRun } from "./_run_folder.ts";
import type { Shard } from "./shard.ts";
import { UnreadSuites } from "./_unread_suites.ts";
import type { SuiteEntry } from "./work.ts";

export type { ProviderFactory, SweepOptions, SweepProgress, SweepResult };

/**
 * Runs one step of a sweep's start, before its run folder exists. If the
 * step throws, the environment read of a new run (the git revision, a
 * subprocess) is first let finish, so a refused start leaves nothing
 * running, then the error is thrown.
 */
async function beforeFolder<T>(
  environment: Promise<unknown> | null,
  step: () => T | Promise<T>,
): Promise<T> {
  try {
    return await step();
  } catch (error) {
    await environment?.catch(() => {});
    throw error;
  }
}

/**
 * Refuses to resume a run whose identity (inputs, config, generators) is
 * not the one it recorded. A run made before identities were recorded
 * gets this one, with a warning that what changed before cannot be told.
 *
 * @returns Warnings for the closing summary.
 * @throws {SweepInputError} naming every difference.
 */
function checkResumedIdentity(
  runDir: string,
  manifest: Manifest | null,
  identity: RunIdentity,
): string[] {
  if (manifest === null) return [];
  const recorded = identityOf(manifest) ?? undefined;
  const refused = identityMismatch({
    action: `resume ${runDir}`,
    recorded,
    now: identity,
    instead:
      "start a new run from the config: deno task sweep <config.json> (the rows stored stay in this run)",
  });
  if (refused !== null) throw new SweepInputError(refused);
  manifest.identity = identity;
  return recorded === undefined
    ? [
      `${runDir} was made before runs recorded their identity: its inputs as of now are recorded, but a change made before this resume cannot be told`,
    ]
    : [];
}

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
 * import { defineSuite } from "../suites/define.ts";
 * const suite = defineSuite({
 *   name: "tiny", description: "",
 *   questions: () => [{ id: "q1", suite: "tiny", text: "1+1", answer: { kind: "rational", value: "2" }, dims: {} }],
 *   templates: { direct: "" },
 *   extract: ({ completion: c }) => ({ value: c.text, rule: "all", span: null, candidates: 1 }),
 *   score: ({ extraction: e }) => ({ status: e.value === "2" ? "correct" : "wrong", score: e.value === "2" ? 1 : 0, formatValid: true }),
 * });
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
  const clock: Clock = { started: new Date(), t0: performance.now() };
  const env = options.env ?? ((name: string) => Deno.env.get(name));
  const run = await prepareRun(config, options);
  // The suites' runs (sandboxes, banks) close whatever happens next.
  try {
    return await sweepPrepared(run, options, clock, env);
  } finally {
    await run.closeEntries();
  }
}

/** Steps 2 to 8 of {@linkcode runSweep}, on a prepared run. */
async function sweepPrepared(
  run: PreparedRun,
  options: SweepOptions,
  clock: Clock,
  env: (name: string) => string | undefined,
): Promise<SweepResult> {
  const store = await openRunFolder(run, options, clock, env);
  const stats = newStats();
  const progress = await startProgress(options, stats, run.total, clock);
  const stop = stopOn(options.signal);
  const providers = providerPool(run, options, env);
  const shared = laneShared(run, store, options, { stats, stop, providers });
  const failure = await runLanes(run, shared, store, providers);
  stop.release();
  const final = progress.stop();
  await closeManifest(store, run, {
    stats,
    interrupted: stop.controller.signal.aborted,
    adaptive: shared.adaptive,
  });
  if (failure !== null) throw failure;
  return {
    runDir: store.runDir,
    total: final.total,
    done: stats.done,
    skipped: stats.skipped,
    errors: stats.errors,
    cached: stats.cached,
    interrupted: stop.controller.signal.aborted,
    elapsedSeconds: final.elapsedSeconds,
    warnings: [
      ...run.identityWarnings,
      ...store.warnings,
      ...shared.unread.warnings(),
    ],
    stopped: shared.stopped,
    failing: store.health.failing().map(([model, r]) => ({
      model,
      rows: r.rows,
      firstError: r.firstError,
    })),
  };
}

/** When the sweep started (the manifest's time, and the elapsed time's zero). */
interface Clock {
  started: Date;
  t0: number;
}

/** What a sweep is, settled before its run folder exists. */
interface PreparedRun {
  /** The config (a resume's is the manifest's). */
  config: SweepConfig;
  start: Awaited<ReturnType<typeof openRun>>;
  entries: SuiteEntry[];
  /** Closes the entries' suite runs. */
  closeEntries(): Promise<void>;
  questionCounts: Record<string, number>;
  shard: Shard | undefined;
  identity: RunIdentity;
  identityWarnings: string[];
  /** Rows the run has when complete. */
  total: number;
  /** The git revision and the like, for a new run's manifest (read meanwhile). */
  environment: ReturnType<typeof readEnvironment> | null;
  factory: ProviderFactory;
}

/**
 * Step 1, before the folder exists (so a refusal leaves nothing behind):
 * the run to open or resume, its questions, its shard, its identity (a
 * resumed run must still be the run it was) and the provider kinds.
 */
async function prepareRun(
  given: SweepConfig,
  options: SweepOptions,
): Promise<PreparedRun> {
  const start = await openRun(given, options);
  const { config, baseDir, limit, manifest } = start;
  // Only the provider kinds the models use are loaded (a sim sweep never
  // imports the openai client), while the questions are generated.
  const providersLoading = options.createProvider === undefined
    ? loadProviderFactory(config.models.map((m) => m.provider))
    : undefined;
  providersLoading?.catch(() => {}); // awaited (and its failure thrown) below
  // A new run's manifest needs the git revision (a subprocess): read it
  // while the questions are generated.
  const environment = manifest === null ? readEnvironment() : null;
  const loaded = await beforeFolder(
    environment,
    () => loadEntries(config, { suites: options.suites, baseDir, limit }),
  );
  try {
    return await settleRun(start, loaded, {
      options,
      environment,
      providersLoading,
    });
  } catch (error) {
    await loaded.close();
    throw error;
  }
}

/** The rest of step 1, once the entries are loaded (their runs open). */
async function settleRun(
  start: Awaited<ReturnType<typeof openRun>>,
  loaded: LoadedEntries,
  context: {
    options: SweepOptions;
    environment: ReturnType<typeof readEnvironment> | null;
    providersLoading: Promise<ProviderFactory> | undefined;
  },
): Promise<PreparedRun> {
  const { options, environment, providersLoading } = context;
  const { config, limit, manifest } = start;
  const { entries, questionCounts, inputs } = loaded;
  const shard = await beforeFolder(
    environment,
    () => shardToRun(manifest, options.shard),
  );
  if (
    shard !== undefined && shard.count > 1 &&
    entries.some((e) => e.adaptive !== undefined)
  ) {
    await environment?.catch(() => {});
    throw new SweepInputError(
      `Cannot run an adaptive entry as shard ${shard.index}/${shard.count}: a design asks one question at a time from what the earlier answers showed, so its questions cannot be split between machines; run the sweep whole (without --shard), or remove "adaptive"`,
    );
  }
  const identity = runIdentity({ config, entries, inputs, limit });
  const identityWarnings = await beforeFolder(
    environment,
    () => checkResumedIdentity(start.runDir, manifest, identity),
  );
  const factory = await beforeFolder(
    environment,
    async () => options.createProvider ?? await providersLoading!,
  );
  return {
    config,
    start,
    entries,
    closeEntries: loaded.close,
    questionCounts,
    shard,
    identity,
    identityWarnings,
    total: plannedRows(config, entries, shard),
    environment,
    factory,
  };
}

/** The run folder, opened: its manifest, the rows it has, the writer and the cache. */
interface OpenedFolder {
  runDir: string;
  manifest: Manifest;
  session: ManifestSession;
  secrets: string[];
  finished: ReadonlySet<string>;
  outcomes: ReadonlyMap<string, boolean | null>;
  priorErrors: number;
  priorCached: number;
  warnings: string[];
  health: ModelHealth;
  writer: ResultsWriter;
  cache: ResponseCache | null;
}

/**
 * Step 2: the folder appears with its manifest; earlier rows are read (a
 * torn tail repaired, garbage moved aside); the results writer and the
 * response cache open.
 */
async function openRunFolder(
  run: PreparedRun,
  options: SweepOptions,
  clock: Clock,
  env: (name: string) => string | undefined,
): Promise<OpenedFolder> {
  const { config, start, entries, shard, environment } = run;
  const secrets = secretsOf(config, env);
  const session: ManifestSession = {
    startedAt: clock.started.toISOString(),
    endedAt: null,
    written: 0,
    skipped: 0,
    interrupted: false,
  };
  const judging = judgingOf(entries);
  if (judging !== undefined) session.judging = judging;
  // The cache folder is checked before the run folder is made (a file in
  // its place is refused, leaving nothing behind), and made after it.
  const useCache = options.cache ?? config.cache;
  const cacheDir = options.cacheDir ?? join(config.outputDir, ".cache");
  if (useCache) {
    await beforeFolder(environment, () => ResponseCache.check(cacheDir));
  }
  const health = new ModelHealth();
  const opened = await beforeFolder(environment, () =>
    openStore({
      health,
      config,
      options,
      start,
      entries,
      shard,
      started: clock.started,
      session,
      secrets,
      newManifest: async () => {
        const fresh = await buildManifest({
          run: config.name,
          config,
          questions: run.questionCounts,
          total: run.total,
          requestSeed: REQUEST_SEED_RULE,
          startedAt: clock.started,
          ...(environment === null ? {} : { environment }),
        });
        fresh.identity = run.identity;
        fresh.baseDir = start.baseDir;
        if (start.limit !== undefined) fresh.limit = start.limit;
        if (shard !== undefined) fresh.shard = shard;
        return fresh;
      },
    }));
  const cache = useCache
    ? await ResponseCache.open(cacheDir, { secrets })
    : null;
  let writer: ResultsWriter;
  try {
    writer = await ResultsWriter.open(join(opened.runDir, "results.jsonl"));
  } catch (error) {
    cache?.close();
    throw error;
  }
  return {
    runDir: opened.runDir,
    manifest: opened.manifest,
    session,
    secrets,
    finished: opened.finished,
    outcomes: opened.outcomes,
    priorErrors: opened.priorErrors,
    priorCached: opened.priorCached,
    warnings: opened.warnings,
    health,
    writer,
    cache,
  };
}

/** Counters at zero. */
function newStats(): LaneStats {
  return {
    done: 0,
    skipped: 0,
    errors: 0,
    cached: 0,
    errorsByKind: {},
    asking: 0,
    judging: 0,
    spared: 0,
  };
}

/** Step 3: the progress display, updated four times a second from the counters. */
async function startProgress(
  options: SweepOptions,
  stats: LaneStats,
  total: number,
  clock: Clock,
): Promise<{ stop(): SweepProgress }> {
  const snapshot = (): SweepProgress => {
    const elapsed = (performance.now() - clock.t0) / 1000;
    const rate = elapsed > 0 ? stats.done / elapsed : 0;
    // Adaptive designs that stopped early take their unasked rows off.
    const planned = total - stats.spared;
    const left = planned - stats.done - stats.skipped;
    return {
      done: stats.done,
      total: planned,
      skipped: stats.skipped,
      errors: stats.errors,
      errorsByKind: { ...stats.errorsByKind },
      asking: stats.asking,
      judging: stats.judging,
      rowsPerSecond: rate,
      etaSeconds: left <= 0 ? 0 : rate > 0 ? left / rate : null,
      elapsedSeconds: elapsed,
    };
  };
  const reporter = await createReporter(options.progress ?? "auto");
  const ticker = setInterval(() => reporter.update(snapshot()), 250);
  return {
    stop() {
      clearInterval(ticker);
      const final = snapshot();
      reporter.stop(final);
      return final;
    },
  };
}

/** Step 4: the caller's signal stops scheduling and aborts calls in flight. */
function stopOn(
  signal: AbortSignal | undefined,
): { controller: AbortController; release(): void } {
  const controller = new AbortController();
  const onAbort = () => controller.abort(signal?.reason);
  if (signal?.aborted) controller.abort(signal.reason);
  signal?.addEventListener("abort", onAbort, { once: true });
  return {
    controller,
    release: () => signal?.removeEventListener("abort", onAbort),
  };
}

/** The providers of a sweep: one per model config, made on first use. */
interface ProviderPool {
  provider(model: ModelConfig): Provider;
  judgeProvider(model: ModelConfig): Promise<Provider>;
  /** Closes every provider made. */
  close(): Promise<void>;
}

/**
 * Step 5: providers made on first use; a judge model (named in a suite's
 * params) may be of a kind the swept models do not use, loaded on its
 * first call.
 */
function providerPool(
  run: PreparedRun,
  options: SweepOptions,
  env: (name: string) => string | undefined,
): ProviderPool {
  const { config } = run;
  let factory = run.factory;
  const simSkills = options.suites.flatMap((s) => s.simSkills ?? []);
  const providers = new Map<string, Provider>();
  // The provider kinds the factory has (judges may add one).
  const kindsLoaded = new Set(config.models.map((m) => m.provider));
  let kindsReady = Promise.resolve();
  const provider = (model: ModelConfig): Provider => {
    const id = JSON.stringify(model);
    let made = providers.get(id);
    if (made === undefined) {
      made = factory(model, config, { env, simSkills });
      providers.set(id, made);
    }
    return made;
  };
  return {
    provider,
    async judgeProvider(model) {
      // Loads chain, so concurrent first calls all wait for a factory with
      // their kind and a later, smaller one never replaces a larger one.
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
    async close() {
      await Promise.all(
        [...providers.values()].map((p) => p.close?.().catch(() => {})),
      );
    },
  };
}

/** Step 6: what every lane shares. */
function laneShared(
  run: PreparedRun,
  store: OpenedFolder,
  options: SweepOptions,
  parts: {
    stats: LaneStats;
    stop: { controller: AbortController };
    providers: ProviderPool;
  },
): LaneShared {
  const { config } = run;
  return {
    runName: store.manifest.run,
    config,
    entries: run.entries,
    finished: store.finished,
    outcomes: store.outcomes,
    adaptive: [],
    cache: store.cache,
    writer: store.writer,
    stop: parts.stop.controller,
    stats: parts.stats,
    shard: run.shard,
    // Each worker has one call in flight at a time, so when the lanes'
    // widths add up to at most the global limit, the limiter never holds a
    // call back and is skipped (it cost about 10 µs a row).
    global: config.models.reduce((n, m) => n + laneWidth(m, config), 0) >
        config.concurrency
      ? pLimit(config.concurrency)
      : null,
    provider: parts.providers.provider,
    judgeProvider: parts.providers.judgeProvider,
    redact: (text: string): string => redactSecrets(text, store.secrets),
    unread: new UnreadSuites(),
    health: store.health,
    failFast: options.failFast ?? 20,
    stopped: [],
    simVersion: simVersion(options.suites),
  };
}

/**
 * Step 7: one lane per model, side by side; then the writer, the cache
 * and the providers close whatever happened (the suites' runs close in
 * {@linkcode runSweep}).
 *
 * @returns The first failure (a lane's or the writer's), or null.
 */
async function runLanes(
  run: PreparedRun,
  shared: LaneShared,
  store: OpenedFolder,
  providers: ProviderPool,
): Promise<unknown> {
  let failure: unknown = null;
  try {
    await Promise.all(
      run.config.models.map((model) =>
        runLane(model, shared, () => shared.stats.skipped++)
      ),
    );
  } catch (error) {
    failure = error;
    shared.stop.abort(error);
  } finally {
    await store.writer.close().catch((error) => {
      failure ??= error;
    });
    store.cache?.close();
    await providers.close();
  }
  return failure;
}

/** Step 8: the manifest records the session and the run's counts. */
async function closeManifest(
  store: OpenedFolder,
  run: PreparedRun,
  ended: {
    stats: LaneStats;
    interrupted: boolean;
    adaptive: readonly AdaptiveGroupState[];
  },
): Promise<void> {
  const { stats, interrupted } = ended;
  const { session, manifest } = store;
  session.endedAt = new Date().toISOString();
  session.written = stats.done;
  session.skipped = stats.skipped;
  session.interrupted = interrupted;
  manifest.endedAt = session.endedAt;
  manifest.interrupted = interrupted;
  // The rows planned: an adaptive design that stopped plans the rows it
  // asked (its unasked questions are off the plan), one that did not
  // still plans its whole pool.
  manifest.total = run.total - stats.spared;
  if (ended.adaptive.length > 0) {
    manifest.adaptive = [...ended.adaptive].sort((a, b) =>
      a.entry.localeCompare(b.entry) || a.model.localeCompare(b.model) ||
      a.template.localeCompare(b.template) || a.group.localeCompare(b.group)
    );
  }
  manifest.counts = {
    rows: store.finished.size + stats.done,
    errors: store.priorErrors + stats.errors,
    cached: store.priorCached + stats.cached,
  };
  await writeManifest(store.runDir, manifest, { redact: store.secrets });
}
