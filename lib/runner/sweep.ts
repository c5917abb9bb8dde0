/**
 * The sweep runner: models × questions × templates × samples, with a global
 * and per-model concurrency limit, RPM/TPM buckets, the response cache,
 * row-by-row storage, resume and clean interruption.
 *
 * @module
 */
import { join, resolve } from "node:path";
import pLimit from "p-limit";
import type { ModelConfig, SweepConfig } from "../config/schema.ts";
import { createProvider, type Provider } from "../providers/mod.ts";
import { getSuite, type Suite } from "../suites/mod.ts";
import type {
  ChatMessage,
  Completion,
  ErrorKind,
  Extraction,
  Prompt,
  Verdict,
} from "../types.ts";
import {
  buildManifest,
  createRunDir,
  type Manifest,
  type ManifestSession,
  readEnvironment,
  readManifest,
  readResults,
  repairResults,
  ResultsWriter,
  writeManifest,
} from "../store/mod.ts";
import { cacheKey, type CacheTarget, ResponseCache } from "./cache.ts";
import { TokenBucket } from "./_limits.ts";
import {
  createReporter,
  type ProgressMode,
  type SweepProgress,
} from "./progress.ts";
import { errorVerdict, toResultRow } from "./row.ts";
import { REQUEST_SEED_RULE } from "./seed.ts";
import {
  buildPrompt,
  estimateTokens,
  type SuiteEntry,
  type WorkItem,
  workItems,
} from "./_work.ts";

/** Makes the provider of a model (the providers module's `createProvider`). */
export type ProviderFactory = (
  model: ModelConfig,
  sweep: SweepConfig,
  env?: (name: string) => string | undefined,
) => Provider;

/** Options of {@linkcode runSweep}. */
export interface SweepOptions {
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
  /** Suites by name, overriding the registry (tests). */
  suites?: Record<string, Suite>;
  /** Folder relative dataset paths resolve against. @default the working directory */
  baseDir?: string;
  /** At most this many questions per suite (a quick try). */
  limit?: number;
  /** Provider factory, overriding `lib/providers` (tests, custom backends). */
  createProvider?: ProviderFactory;
}

/** What a sweep did. */
export interface SweepResult {
  runDir: string;
  /** Rows the sweep plans in all. */
  total: number;
  /** Rows written in this session. */
  done: number;
  /** Rows already stored before this session (resume). */
  skipped: number;
  /** Error rows written in this session. */
  errors: number;
  /** Rows of this session served from the cache. */
  cached: number;
  interrupted: boolean;
  elapsedSeconds: number;
}

export type { SweepProgress };

/** Tool-call rounds allowed per row before the last answer is taken as is. */
const MAX_TOOL_TURNS = 8;

function loadSuite(
  name: string,
  overrides: Record<string, Suite> | undefined,
): Suite {
  const own = overrides?.[name];
  if (own !== undefined) return own;
  return getSuite(name);
}

function abortedCompletion(): Completion {
  return {
    text: "",
    reasoning: null,
    finishReason: "error",
    usage: { promptTokens: 0, completionTokens: 0 },
    latencyMs: 0,
    attempts: 0,
    error: { kind: "aborted", message: "the sweep was interrupted" },
  };
}

/**
 * Runs a sweep and stores every row in `<runDir>/results.jsonl` as it
 * finishes, beside `manifest.json`. With `resume`, rows already stored are
 * skipped and the rest are appended; nothing is duplicated.
 *
 * @param config A validated sweep config (ignored with `resume`: the
 *   manifest's config is used).
 * @param options Run folder, resume, cache, progress, abort signal...
 * @returns Counts, the run folder and whether it was interrupted.
 * @throws {Error} "Cannot ..." when the run folder or manifest cannot be
 *   used, or a suite cannot produce its questions.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { runSweep } from "./sweep.ts";
 * import { SweepConfigSchema } from "../config/schema.ts";
 * import { getSuite, type Suite } from "../suites/mod.ts";
 * const suite: Suite = {
 *   name: "tiny", description: "", validateParams: () => ({ ok: true }),
 *   questions: () => Promise.resolve([{ id: "q1", suite: "tiny", text: "1+1", answer: { kind: "rational", value: "2" }, dims: {} }]),
 *   templates: { direct: { id: "direct", description: "", render: (q) => [{ role: "user", content: q.text }] } },
 *   defaultTemplates: ["direct"],
 *   extract: (_q, c) => ({ value: c.text, rule: "all", span: null, candidates: 1 }),
 *   judge: (_q, _c, e) => ({ status: e.value === "2" ? "correct" : "wrong", score: e.value === "2" ? 1 : 0, formatValid: true }),
 * };
 * const out = await Deno.makeTempDir();
 * const config = SweepConfigSchema.parse({ models: [{ name: "echo", provider: "sim" }], suites: [{ name: "tiny" }], samples: 2, outputDir: out });
 * const result = await runSweep(config, {
 *   suites: { tiny: suite }, progress: "none",
 *   createProvider: (m) => ({ name: m.name, complete: () => Promise.resolve({ text: "2", reasoning: null, finishReason: "stop", usage: { promptTokens: 1, completionTokens: 1 }, latencyMs: 0, attempts: 1 }) }),
 * });
 * assert.equal(result.done, 2);
 * assert.equal(result.errors, 0);
 * await Deno.remove(out, { recursive: true });
 * ```
 */
export async function runSweep(
  config: SweepConfig,
  options: SweepOptions = {},
): Promise<SweepResult> {
  const started = new Date();
  const t0 = performance.now();
  const env = options.env ?? ((name: string) => Deno.env.get(name));
  let manifest: Manifest | null = null;
  let runDir: string;
  let baseDir = resolve(options.baseDir ?? Deno.cwd());
  let limit = options.limit;
  if (options.resume !== undefined) {
    runDir = options.resume;
    manifest = await readManifest(runDir);
    config = manifest.config;
    if (manifest.baseDir !== undefined && options.baseDir === undefined) {
      baseDir = manifest.baseDir;
    }
    limit ??= manifest.limit;
  } else if (options.runDir !== undefined) {
    runDir = options.runDir;
    await Deno.mkdir(runDir, { recursive: true });
    try {
      await Deno.stat(join(runDir, "manifest.json"));
      throw new Error(
        `Cannot start a sweep in ${runDir}: it already holds a run; resume it with --resume ${runDir}`,
      );
    } catch (error) {
      if (!(error instanceof Deno.errors.NotFound)) throw error;
    }
  } else {
    runDir = await createRunDir(config.outputDir, config.name, started);
  }
  const runName = manifest?.run ??
    runDir.split(/[\\/]/).filter(Boolean).pop() ??
    config.name;

  // Suites and their questions (each suite's list is its own; work items
  // over them are generated lazily per model).
  const entries: SuiteEntry[] = [];
  const questionCounts: Record<string, number> = {};
  const seenIds = new Set<string>();
  // A new run's manifest needs the git revision (a subprocess): read it
  // while the questions are generated.
  const environment = manifest === null ? readEnvironment() : null;
  try {
    await loadEntries();
  } catch (error) {
    await environment?.catch(() => {});
    throw error;
  }
  async function loadEntries(): Promise<void> {
    for (const suiteConfig of config.suites) {
      const suite = loadSuite(suiteConfig.name, options.suites);
      let questions = await suite.questions({
        seed: config.seed,
        params: suiteConfig.params,
        baseDir,
      });
      if (limit !== undefined) questions = questions.slice(0, limit);
      for (const q of questions) {
        if (seenIds.has(q.id)) {
          throw new Error(
            `Cannot run the sweep: question id "${q.id}" occurs twice (suite ${suiteConfig.name}); row keys would collide`,
          );
        }
        seenIds.add(q.id);
      }
      const ids = suiteConfig.templates ?? suite.defaultTemplates;
      const templates = ids.map(
        (id): [string, SuiteEntry["templates"][0][1]] => {
          const template = suite.templates[id];
          if (template === undefined) {
            throw new Error(
              `Cannot run the sweep: suite "${suite.name}" has no template "${id}"`,
            );
          }
          return [id, template];
        },
      );
      questionCounts[suiteConfig.name] =
        (questionCounts[suiteConfig.name] ?? 0) +
        questions.length;
      entries.push({ config: suiteConfig, suite, questions, templates });
    }
  }
  seenIds.clear();
  const perModel = entries.reduce(
    (n, e) => n + e.questions.length * e.templates.length,
    0,
  ) * config.samples;
  const total = perModel * config.models.length;

  // The store: manifest first, then the results file (torn tail repaired).
  const resultsPath = join(runDir, "results.jsonl");
  const finished = new Set<string>();
  let priorErrors = 0;
  let priorCached = 0;
  if (manifest !== null) {
    await repairResults(resultsPath);
    for await (const row of readResults(resultsPath, { onBadLine: () => {} })) {
      if (finished.has(row.key)) continue;
      finished.add(row.key);
      if (row.status === "error") priorErrors++;
      if (row.cached) priorCached++;
    }
  } else {
    manifest = await buildManifest({
      run: runName,
      config,
      questions: questionCounts,
      total,
      requestSeed: REQUEST_SEED_RULE,
      startedAt: started,
      ...(environment === null ? {} : { environment }),
    });
    manifest.baseDir = baseDir;
    if (limit !== undefined) manifest.limit = limit;
  }
  const secrets = [
    ...new Set(
      config.models.flatMap((m) =>
        m.apiKeyEnv === undefined ? [] : [env(m.apiKeyEnv) ?? ""]
      ).filter((s) => s.length >= 4),
    ),
  ];
  const session: ManifestSession = {
    startedAt: started.toISOString(),
    endedAt: null,
    written: 0,
    skipped: 0,
    interrupted: false,
  };
  manifest.sessions.push(session);
  await writeManifest(runDir, manifest, secrets);
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
  const stats = {
    done: 0,
    skipped: 0,
    errors: 0,
    cached: 0,
    errorsByKind: {} as Record<string, number>,
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
  const reporter = createReporter(options.progress ?? "auto");
  const ticker = setInterval(() => reporter.update(snapshot()), 250);

  // Stop: the caller's signal stops scheduling and aborts calls in flight.
  const stop = new AbortController();
  const onAbort = () => stop.abort(options.signal?.reason);
  if (options.signal?.aborted) stop.abort(options.signal.reason);
  options.signal?.addEventListener("abort", onAbort, { once: true });

  const factory = options.createProvider ?? createProvider;
  const providers: Provider[] = [];
  // Each worker has one call in flight at a time, so when the lanes'
  // widths add up to at most the global limit, the limiter never holds a
  // call back and is skipped (it cost about 10 µs a row).
  const widthOf = (model: ModelConfig) =>
    Math.max(1, Math.min(model.concurrency, config.concurrency));
  const global = config.models.reduce((n, m) => n + widthOf(m), 0) >
      config.concurrency
    ? pLimit(config.concurrency)
    : null;
  const redact = (text: string | null): string | null => {
    if (text === null || secrets.length === 0) return text;
    for (const s of secrets) text = text.replaceAll(s, "[redacted]");
    return text;
  };

  const runLane = async (model: ModelConfig): Promise<void> => {
    const provider = factory(model, config, env);
    providers.push(provider);
    const target: CacheTarget = {
      provider: model.provider,
      baseURL: model.baseURL ?? null,
      model: model.model ?? model.name,
    };
    const rpm = new TokenBucket(model.rpm);
    const tpm = new TokenBucket(model.tpm);
    const items = workItems(
      model.name,
      entries,
      config.samples,
      finished,
      () => stats.skipped++,
    );

    const call = async (
      prompt: Prompt,
      sample: number,
    ): Promise<Completion> => {
      const key = cache === null ? null : cacheKey(target, prompt, sample);
      if (key !== null) {
        const hit = cache?.get(key);
        if (hit !== undefined) return hit;
      }
      // Unlimited buckets are not awaited: each await costs a turn of the
      // event loop per row at thousands of rows per second.
      const estimate = tpm.limited ? estimateTokens(prompt) : 0;
      if (rpm.limited || tpm.limited) {
        try {
          await rpm.take(1, stop.signal);
          await tpm.take(estimate, stop.signal);
        } catch {
          return abortedCompletion();
        }
      }
      const send = () =>
        stop.signal.aborted
          ? abortedCompletion()
          : provider.complete(prompt, { sample, signal: stop.signal })
            .catch((error: unknown): Completion => ({
              // Providers never throw by contract; if one does, record it.
              ...abortedCompletion(),
              error: {
                kind: "unknown",
                message: `Cannot complete the request: ${
                  error instanceof Error ? error.message : String(error)
                }`,
              },
            }));
      const completion = await (global === null ? send() : global(send));
      if (tpm.limited) {
        const used = completion.usage.promptTokens +
          completion.usage.completionTokens;
        if (used > 0) tpm.adjust(estimate - used);
      }
      if (key !== null && completion.error === undefined) {
        cache?.put(key, completion);
      }
      return completion;
    };

    const process = async (item: WorkItem): Promise<void> => {
      const prompt = buildPrompt(item, model, config);
      const { suite } = item.entry;
      let completion = await call(prompt, item.sample);
      // Tool loop: run the suite's tools and ask again, bounded.
      let attempts = completion.attempts;
      let latency = completion.latencyMs;
      let promptTokens = completion.usage.promptTokens;
      let completionTokens = completion.usage.completionTokens;
      let allCached = completion.cached === true;
      let messages: ChatMessage[] = prompt.messages;
      for (
        let turn = 0;
        turn < MAX_TOOL_TURNS && completion.error === undefined &&
        prompt.tools !== undefined && suite.executeTool !== undefined &&
        (completion.toolCalls?.length ?? 0) > 0;
        turn++
      ) {
        const calls = completion.toolCalls ?? [];
        const execute = suite.executeTool;
        messages = [
          ...messages,
          { role: "assistant", content: completion.text, tool_calls: calls },
          ...calls.map((tc): ChatMessage => {
            let content: string;
            try {
              content = execute(tc.function.name, tc.function.arguments);
            } catch (error) {
              content = `Error: ${
                error instanceof Error ? error.message : error
              }`;
            }
            return { role: "tool", tool_call_id: tc.id, content };
          }),
        ];
        completion = await call({ ...prompt, messages }, item.sample);
        attempts += completion.attempts;
        latency += completion.latencyMs;
        promptTokens += completion.usage.promptTokens;
        completionTokens += completion.usage.completionTokens;
        allCached &&= completion.cached === true;
      }
      if (stop.signal.aborted && completion.error !== undefined) return; // redo on resume
      completion = {
        ...completion,
        attempts,
        latencyMs: latency,
        usage: { promptTokens, completionTokens },
        cached: allCached,
      };
      let row;
      if (completion.error !== undefined) {
        row = toResultRow({
          run: runName,
          model: model.name,
          question: item.question,
          template: item.templateId,
          sample: item.sample,
          completion,
          extraction: null,
          verdict: errorVerdict(completion.error.message),
          finishedAt: new Date(),
        });
      } else {
        let extraction: Extraction;
        let verdict: Verdict;
        try {
          extraction = suite.extract(item.question, completion);
          verdict = suite.judge(item.question, completion, extraction);
        } catch (error) {
          // Suites never throw by contract; if one does, keep the row and go on.
          const message = `Cannot judge the completion: ${
            error instanceof Error ? error.message : String(error)
          }`;
          completion = { ...completion, error: { kind: "unknown", message } };
          extraction = { value: null, rule: "none", span: null, candidates: 0 };
          verdict = errorVerdict(message);
        }
        row = toResultRow({
          run: runName,
          model: model.name,
          question: item.question,
          template: item.templateId,
          sample: item.sample,
          completion,
          extraction,
          verdict,
          finishedAt: new Date(),
        });
      }
      if (secrets.length > 0) {
        row.response = redact(row.response) ?? "";
        row.reasoning = redact(row.reasoning);
        row.error_message = redact(row.error_message);
      }
      const written = writer.append(row);
      stats.done++;
      if (row.cached) stats.cached++;
      if (row.error_kind !== null) {
        stats.errors++;
        const kind: ErrorKind = row.error_kind;
        stats.errorsByKind[kind] = (stats.errorsByKind[kind] ?? 0) + 1;
      }
      await written;
    };

    const worker = async (): Promise<void> => {
      while (!stop.signal.aborted) {
        const next = items.next();
        if (next.done) return;
        await process(next.value);
      }
    };
    const width = widthOf(model);
    await Promise.all(Array.from({ length: width }, worker));
  };

  let failure: unknown = null;
  try {
    await Promise.all(config.models.map(runLane));
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
    await Promise.all(providers.map((p) => p.close?.().catch(() => {})));
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
  };
}
