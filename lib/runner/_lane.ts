/**
 * One model's lane of a sweep: its work items, each sent (through the
 * cache and the rate limits), run through the suite's tool loop, extracted,
 * scored (which may await) and written as a row.
 *
 * @module
 */
import type { LimitFunction } from "p-limit";
import type { ModelConfig, SweepConfig } from "../config/schema.ts";
import type { Provider } from "../providers/mod.ts";
import type { AdaptiveGroupState, ResultsWriter } from "../store/mod.ts";
import type {
  ChatMessage,
  Completion,
  ErrorKind,
  Prompt,
  ResultRow,
} from "../types.ts";
import type { ResponseCache } from "./cache.ts";
import { RequestPath } from "./_request.ts";
import {
  adaptiveJobs,
  type AdaptiveLane,
  runAdaptiveJob,
} from "./_adaptive.ts";
import { laneWidth } from "./lane_width.ts";
import { CallLimits } from "./_limits.ts";
import type { UnreadSuites } from "./_unread_suites.ts";
import { FailFast, type ModelHealth } from "./model_health.ts";
import type { Shard } from "./shard.ts";
import { finishRow, scoreContexts } from "./finish.ts";
import { sampleGroups, sharedSamples } from "./groups.ts";
import {
  buildPrompt,
  type SuiteEntry,
  type WorkItem,
  workItems,
} from "./work.ts";

/** Tool-call rounds allowed per row before the last answer is taken as is. */
const MAX_TOOL_TURNS = 8;

/** Counters a sweep shows while it runs and reports at the end. */
export interface LaneStats {
  done: number;
  skipped: number;
  errors: number;
  cached: number;
  errorsByKind: Record<string, number>;
  /** Requests in flight. */
  asking: number;
  /** Rows whose reply is in and whose scoring (a sandbox, a judge) runs. */
  judging: number;
  /** Planned rows adaptive designs stopped without (the total shrinks by them). */
  spared: number;
}

/** What every lane of a sweep shares. */
export interface LaneShared {
  runName: string;
  config: SweepConfig;
  entries: readonly SuiteEntry[];
  finished: ReadonlySet<string>;
  /** Stored rows' outcomes by key, for adaptive designs replaying them. */
  outcomes: ReadonlyMap<string, boolean | null>;
  /** Each adaptive design's end, as the lanes finish them. */
  adaptive: AdaptiveGroupState[];
  cache: ResponseCache | null;
  writer: ResultsWriter;
  stop: AbortController;
  stats: LaneStats;
  /** The shard of the work this sweep runs (none: all of it). */
  shard: Shard | undefined;
  /** The global in-flight limit, or null when lanes cannot exceed it. */
  global: LimitFunction | null;
  /** Makes (or reuses) the provider of a model. */
  provider(model: ModelConfig): Provider;
  /** The same for a judge model, loading its provider kind if needed. */
  judgeProvider(model: ModelConfig): Promise<Provider>;
  /** Removes every secret of the sweep from text that will be stored. */
  redact(text: string): string;
  /** Suites a model's provider could not read a prompt of (the sim's skills). */
  unread: UnreadSuites;
  /** Rows and error rows per model (resumed rows included). */
  health: ModelHealth;
  /** A model stops when its first this-many rows fail alike (0: never). */
  failFast: number;
  /** The models stopped that way, with the error. */
  stopped: { model: string; rows: number; message: string }[];
  /** What a sim reply depends on besides its prompt (`simVersion`). */
  simVersion: string;
}

/**
 * Answers one group of samples of a (question, template) for a model with
 * `n: true`: cache hits first; then the leading samples the rule of
 * `groups.ts` shares (0..m-1, m ≥ 2) in one request with `n: m` and the
 * sweep seed as `seed`
 * (the sim answers choice i as a single request with seed
 * `requestSeed(seed, i)`, so rows equal separate calls); choice i is
 * sample i and is cached under sample i's own key, so a run without `n`
 * finds it. Samples the endpoint did not return (it ignored `n`), or all
 * of them when the request failed, go as separate calls.
 */
async function answerGroup(
  items: readonly WorkItem[],
  prompts: readonly Prompt[],
  path: RequestPath,
  shared: LaneShared,
): Promise<Completion[]> {
  const answered: (Completion | undefined)[] = prompts.map((p, i) =>
    path.cached(p, items[i]!.sample)
  );
  const m = sharedSamples(items, (i) => answered[i] !== undefined);
  if (m > 0 && !shared.stop.signal.aborted) {
    const choices = await path.choices(prompts[0]!, m, shared.config.seed);
    for (const [i, choice] of choices.slice(0, m).entries()) {
      if (choice.error !== undefined) continue;
      answered[i] = { ...choice, cached: false };
      path.keep(prompts[i]!, items[i]!.sample, choice);
    }
  }
  const out: Completion[] = [];
  for (const [i, item] of items.entries()) {
    // Separate calls (through the cache and limits) for what is left.
    out.push(answered[i] ?? await converse(item, prompts[i]!, path));
  }
  return out;
}

/**
 * Asks, runs the suite's tools while the model calls them (bounded), and
 * returns the final completion with attempts, latency and usage summed
 * over the turns and the tool turns kept as its transcript.
 */
async function converse(
  item: WorkItem,
  prompt: Prompt,
  path: RequestPath,
): Promise<Completion> {
  const execute = item.entry.suite.executeTool;
  let completion = await path.one(prompt, item.sample);
  let attempts = completion.attempts;
  let latency = completion.latencyMs;
  let promptTokens = completion.usage.promptTokens;
  let completionTokens = completion.usage.completionTokens;
  let allCached = completion.cached === true;
  let messages: ChatMessage[] = prompt.messages;
  const transcript: ChatMessage[] = [];
  for (
    let turn = 0;
    turn < MAX_TOOL_TURNS && completion.error === undefined &&
    prompt.tools !== undefined && execute !== undefined &&
    (completion.toolCalls?.length ?? 0) > 0;
    turn++
  ) {
    const calls = completion.toolCalls ?? [];
    const turnMessages: ChatMessage[] = [
      { role: "assistant", content: completion.text, tool_calls: calls },
    ];
    for (const tc of calls) {
      let content: string;
      try {
        content = await execute(tc.function.name, tc.function.arguments);
      } catch (error) {
        content = `Error: ${
          error instanceof Error ? error.message : String(error)
        }`;
      }
      turnMessages.push({ role: "tool", tool_call_id: tc.id, content });
    }
    transcript.push(...turnMessages);
    messages = [...messages, ...turnMessages];
    completion = await path.one({ ...prompt, messages }, item.sample);
    attempts += completion.attempts;
    latency += completion.latencyMs;
    promptTokens += completion.usage.promptTokens;
    completionTokens += completion.usage.completionTokens;
    allCached &&= completion.cached === true;
  }
  const out: Completion = {
    ...completion,
    attempts,
    latencyMs: latency,
    usage: { promptTokens, completionTokens },
    cached: allCached,
  };
  if (transcript.length > 0) out.transcript = transcript;
  return out;
}

/**
 * Runs every work item of one model with `concurrency` workers and writes
 * each finished row. Resolves when the items run out or the sweep stops.
 */
export async function runLane(
  model: ModelConfig,
  shared: LaneShared,
  onSkip: () => void,
): Promise<void> {
  const { config, stats, stop, writer } = shared;
  const path = new RequestPath(
    model,
    shared,
    new CallLimits(model.rpm, model.tpm),
  );
  const { provider } = path;
  const items = workItems(model.name, shared.entries, {
    samples: config.samples,
    finished: shared.finished,
    onSkip,
    shard: shared.shard,
  });
  const contextOf = scoreContexts(shared.judgeProvider, {
    signal: stop.signal,
    cache: shared.cache,
  });
  // This model alone stops when its first rows all fail alike.
  const lane = new AbortController();
  const watch = new FailFast(shared.failFast);
  const halted = () => stop.signal.aborted || lane.signal.aborted;

  const finish = async (
    item: WorkItem,
    prompt: Prompt,
    answered: Completion,
  ): Promise<ResultRow | null> => {
    if (stop.signal.aborted && answered.error !== undefined) return null; // redo on resume
    if (provider.lacksSkill !== undefined) {
      // Asked of the prompt, not the reply: a cached reply counts too.
      shared.unread.note(
        item.entry.suite.name,
        model.name,
        () => provider.lacksSkill!(prompt),
      );
    }
    stats.judging++;
    const row = await finishRow({
      runName: shared.runName,
      model,
      item,
      messages: prompt.messages,
      completion: answered,
      context: contextOf(item.entry),
      redact: shared.redact,
      ...(config.extractionJudge === undefined
        ? {}
        : { extractionJudge: config.extractionJudge }),
    }).finally(() => stats.judging--);
    const written = writer.append(row);
    shared.health.note(row);
    if (watch.note(row)) {
      lane.abort();
      shared.stopped.push({
        model: model.name,
        rows: shared.failFast,
        message: watch.message ?? "",
      });
    }
    stats.done++;
    if (row.cached) stats.cached++;
    if (row.error_kind !== null) {
      stats.errors++;
      const kind: ErrorKind = row.error_kind;
      stats.errorsByKind[kind] = (stats.errorsByKind[kind] ?? 0) + 1;
    }
    await written;
    return row;
  };
  const process = async (item: WorkItem): Promise<ResultRow | null> => {
    const prompt = buildPrompt(item, { model, config });
    return await finish(item, prompt, await converse(item, prompt, path));
  };

  // Adaptive designs first (each asks one question at a time, so they
  // are the long ones); then the fixed items.
  const jobs = adaptiveJobs(shared.entries)[Symbol.iterator]();
  const adaptiveLane: AdaptiveLane = {
    model: model.name,
    stored: shared.outcomes,
    ask: process,
    onSkip,
    halted,
  };
  const designs = async (): Promise<void> => {
    while (!halted()) {
      const next = jobs.next();
      if (next.done) return;
      const state = await runAdaptiveJob(next.value, adaptiveLane);
      shared.adaptive.push(state);
      if (state.stopped !== null) stats.spared += state.questions - state.rows;
    }
  };

  const worker = async (): Promise<void> => {
    await designs();
    while (!halted()) {
      const next = items.next();
      if (next.done) return;
      await process(next.value);
    }
  };
  // Samples through `n`: whole (question, template) groups per worker.
  const groups = model.n === true && config.samples > 1
    ? sampleGroups(items)
    : null;
  const groupWorker = async (): Promise<void> => {
    await designs();
    while (groups !== null && !halted()) {
      const next = groups.next();
      if (next.done) return;
      const group = next.value;
      if (sharedSamples(group) === 0) {
        // Nothing to share (tool loops are multi-turn: one conversation
        // per sample; a resume's gaps go one by one).
        for (const item of group) await process(item);
        continue;
      }
      const prompts = group.map((item) => buildPrompt(item, { model, config }));
      const answers = await answerGroup(group, prompts, path, shared);
      for (const [i, item] of group.entries()) {
        await finish(item, prompts[i]!, answers[i]!);
      }
    }
  };
  await Promise.all(
    Array.from(
      { length: laneWidth(model, config) },
      groups === null ? worker : groupWorker,
    ),
  );
}
