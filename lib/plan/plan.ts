/**
 * A sweep's plan before anything is sent: per model × suite × template the
 * requests, input tokens (counted with a real tokenizer), an output-token
 * estimate, the cost and the expected wall time.
 *
 * @module
 */
import { basename } from "node:path";
import type { ModelConfig, SweepConfig } from "../config/schema.ts";
import { getSimProfile } from "../providers/sim/mod.ts";
import {
  buildPrompt,
  laneWidth,
  loadEntries,
  MAX_N,
  requestCount,
  sampleGroups,
  type Shard,
  type SuiteEntry,
  workItems,
} from "../runner/mod.ts";
import type { SuiteList, Template } from "../suites/types.ts";
import type { Question } from "../types.ts";
import { addCost, type TokenCost, tokenCost } from "./cost.ts";
import {
  type PlanPrecision,
  planPrecision,
  type PrecisionOptions,
} from "./precision.ts";
import {
  type EncodingChoice,
  encodingFor,
  type EncodingName,
} from "./encoding.ts";
import { type MeasuredRuns, measurementKey, measureRuns } from "./measured.ts";
import { heuristicOutput, type OutputSource } from "./output_estimate.ts";
import { loadTokenizer, promptTokens } from "./tokens.ts";
import {
  ASSUMED_BASE_LATENCY_MS,
  ASSUMED_MS_PER_TOKEN,
  type PaceBound,
  wallTime,
} from "./wall_time.ts";
import { planNotes } from "./_notes.ts";

/** Options of {@linkcode planSweep}. */
export interface PlanOptions {
  /** The suites a config may name (the registry's `SUITES`). */
  suites: SuiteList;
  /** Folder relative dataset paths resolve against. @default {"."} */
  baseDir?: string;
  /** At most this many questions per suite, as `--limit` does. */
  limit?: number;
  /**
   * Run folders to measure output tokens and latency from (`--plan-from`).
   * @default {the runs in the config's `outputDir`, newest first}
   */
  from?: readonly string[];
  /** Read earlier runs at all; false uses the heuristics only. @default {true} */
  measure?: boolean;
  /** Row keys already stored (a resume plans only the rest). */
  finished?: ReadonlySet<string>;
  /** Plan only this shard of the work (`--shard i/n`). */
  shard?: Shard;
  /**
   * The assumptions of the precision and power section (`Plan.precision`).
   * @default {accuracy measured by an earlier run or 50%, a 5-point difference, 80% power, two-sided 5%}
   */
  precision?: PrecisionOptions;
}

/** Where a latency figure came from. */
export type LatencySource = "measured" | "sim" | "assumed";

/** One model × suite × template of a plan. */
export interface PlanRow {
  /** The model's name in the config. */
  model: string;
  /** The suite's name. */
  suite: string;
  /** The template id. */
  template: string;
  /**
   * Requests the sweep sends: one per row, or with the model's `n` one per
   * (question, template) for its samples (see {@linkcode planSweep}).
   */
  requests: number;
  /** Rows the sweep writes (one per sample). */
  rows: number;
  /** Input tokens of all the requests (a prompt once per request), counted with `encoding`. */
  inputTokens: number;
  /** Expected output tokens of all the rows. */
  outputTokens: number;
  /** How the output estimate was made. */
  outputSource: OutputSource;
  /** The estimate's method in a few words. */
  outputNote: string;
  /** Upper bound: rows × max_tokens. */
  outputTokensMax: number;
  /** Online and batch cost; null when the model has no `price`. */
  cost: TokenCost | null;
  /** Expected latency of one request, ms. */
  latencyMs: number;
  /** Where the latency came from: an earlier run, the sim's profile, or assumed. */
  latencySource: LatencySource;
  /** Expected seconds for these requests alone. */
  wallSeconds: number;
  /** The limit that sets the pace. */
  bound: PaceBound;
}

/** One model's totals. */
export interface PlanModel {
  /** The model's name in the config. */
  name: string;
  /** The encoding its tokens were counted with, and whether that is exact. */
  encoding: EncodingChoice;
  /** Requests of the model over all its suites and templates. */
  requests: number;
  /** Rows the sweep writes for the model. */
  rows: number;
  /** Input tokens of those requests. */
  inputTokens: number;
  /** Expected output tokens of those rows. */
  outputTokens: number;
  /** Upper bound of the output tokens (rows × max_tokens). */
  outputTokensMax: number;
  /** Online and batch cost; null when the model has no `price`. */
  cost: TokenCost | null;
  /** The model's requests one after another at its pace (its lane's time). */
  wallSeconds: number;
  /** Requests in flight: min(model concurrency, sweep concurrency). */
  concurrency: number;
}

/** A whole plan: rows, per-model totals, totals and the notes that explain them. */
export interface Plan {
  /** The config's name. */
  name: string;
  /** One per model × suite × template, in config order. */
  rows: PlanRow[];
  /** One per model, with its totals. */
  models: PlanModel[];
  /** The whole sweep. */
  totals: {
    /** Requests the sweep sends. */
    requests: number;
    /** Rows the sweep writes (more than requests with a model's `n`). */
    rows: number;
    /** Input tokens of all requests. */
    inputTokens: number;
    /** Expected output tokens of all requests. */
    outputTokens: number;
    /** Upper bound of the output tokens. */
    outputTokensMax: number;
    /** Summed over the models with a price; null when none has one. */
    cost: TokenCost | null;
    /** Models run side by side: the slowest lane, or the global concurrency's floor. */
    wallSeconds: number;
  };
  /** Models without a `price` (not in the cost). */
  unpriced: string[];
  /** How the numbers were made, one line each. */
  notes: string[];
  /** Prompt counting: prompts counted, distinct (question, template) prompts per encoding, time. */
  counting: { prompts: number; distinct: number; ms: number };
  /**
   * Per suite: each model's 95% interval half-width at the planned rows,
   * and the questions the paired test needs to detect a difference.
   */
  precision: PlanPrecision;
}

interface Group {
  model: ModelConfig;
  suite: string;
  template: string;
  requests: number;
  rows: number;
  inputTokens: number;
  estimate: ReturnType<typeof heuristicOutput>;
}

function simLatency(
  model: ModelConfig,
): ((out: number, inp: number) => number) | null {
  if (model.provider !== "sim") return null;
  try {
    const profile = getSimProfile(model.model ?? model.name);
    // The sim's own formula (lib/providers/sim/chat.ts).
    return (out, inp) =>
      profile.baseLatencyMs + profile.msPerToken * out + 0.02 * inp;
  } catch {
    return null;
  }
}

/**
 * Plans a sweep without sending anything or creating any file: loads the
 * questions and templates as the sweep would, counts the requests as the
 * sweep sends them (one per row; for a model with `n: true`, the samples
 * of a (question, template) in one request, at most 128 a request, while
 * templates with tools still ask per sample), renders every request's
 * prompt and counts its tokens with the model's encoding (each distinct
 * question × template once per encoding; a prompt is paid once per
 * request), estimates output tokens per row from earlier runs of the same
 * model (else the suite's figure or a heuristic from the template, with
 * max_tokens a row as the upper bound), prices both with the model's `price` (online, and batch at
 * `price.batchDiscount` off, default 50%), and times them under the
 * model's concurrency, RPM and TPM.
 *
 * @param config A validated sweep config.
 * @param options The suites, dataset folder, `limit`, runs to measure from.
 * @returns The plan.
 * @throws {SweepInputError} when the config's questions or templates cannot be loaded.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { parseConfig } from "../config/mod.ts";
 * import { SUITES } from "../suites/mod.ts";
 * import { planSweep } from "./plan.ts";
 * const config = parseConfig({
 *   models: [{ name: "sim-strong", provider: "sim" }],
 *   suites: [{ name: "arithmetic", params: { families: ["add"], digits: [2], count: 3 }, templates: ["direct", "cot"] }],
 *   samples: 2,
 * }, "inline", { suites: SUITES });
 * const plan = await planSweep(config, { suites: SUITES, measure: false });
 * assert.equal(plan.totals.requests, 12);
 * assert.ok(plan.totals.inputTokens > 12 * 10);
 * // With n, the 2 samples of a (question, template) go in one request.
 * config.models[0]!.n = true;
 * const grouped = await planSweep(config, { suites: SUITES, measure: false });
 * assert.equal(grouped.totals.requests, 6);
 * assert.equal(grouped.totals.rows, 12);
 * assert.equal(grouped.totals.inputTokens * 2, plan.totals.inputTokens);
 * ```
 */
export async function planSweep(
  config: SweepConfig,
  options: PlanOptions,
): Promise<Plan> {
  const { suites, baseDir = ".", limit, measure = true, finished, shard } =
    options;
  const loaded = await loadEntries(config, { suites, baseDir, limit });
  // A plan reads questions and templates only: the runs close at once.
  await loaded.close();
  const { entries } = loaded;
  const runs: MeasuredRuns = measure
    ? await measureRuns(config.models, {
      outputDir: config.outputDir,
      ...(options.from === undefined ? {} : { runs: options.from }),
    })
    : { byKey: new Map(), discordance: new Map() };
  const measured = runs.byKey;

  const t0 = performance.now();
  // Token counts per encoding: of each (question, template) prompt, and of
  // each message text (few-shot examples repeat across questions).
  // Keyed by objects, not strings: building a key per row showed at 2M rows.
  const perPrompt = new Map<EncodingName, Map<Question, Map<string, number>>>();
  const counters = new Map<EncodingName, (text: string) => number>();
  const counterFor = async (encoding: EncodingName) => {
    let counter = counters.get(encoding);
    if (counter === undefined) {
      const tokenizer = await loadTokenizer(encoding);
      const texts = new Map<string, number>();
      counter = (text: string) => {
        let n = texts.get(text);
        if (n === undefined) texts.set(text, n = tokenizer.count(text));
        return n;
      };
      counters.set(encoding, counter);
      perPrompt.set(encoding, new Map());
    }
    return { count: counter, prompts: perPrompt.get(encoding)! };
  };

  const groups = new Map<string, Group>();
  const choices = new Map<string, EncodingChoice>();
  let prompts = 0;
  for (const model of config.models) {
    const choice = encodingFor(model);
    choices.set(model.name, choice);
    const { count, prompts: cache } = await counterFor(choice.encoding);
    const maxTokens = model.max_tokens ?? config.max_tokens;
    const byTemplate = new Map<Template, Group>();
    // The sweep's rule for `n` (runner/groups.ts): without it, every item
    // is a group of one and a request.
    const size = model.n === true && config.samples > 1 ? MAX_N : 1;
    // An adaptive entry is planned at its most: every question of its
    // pools (a design stops once the crossing is pinned, `planNotes`).
    const items = workItems(model.name, entries.map(asGrid), {
      samples: config.samples,
      finished,
      shard,
    });
    for (const run of sampleGroups(items, { size })) {
      const item = run[0]!;
      let group = byTemplate.get(item.template);
      if (group === undefined) {
        const suite = item.entry.suite.name;
        const key = measurementKey(model.name, {
          suite,
          template: item.templateId,
        });
        const seen = measured.get(key);
        group = {
          model,
          suite,
          template: item.templateId,
          requests: 0,
          rows: 0,
          inputTokens: 0,
          estimate: seen === undefined
            ? heuristicOutput(item.entry.suite, {
              templateId: item.templateId,
              template: item.template,
              maxTokens,
            })
            : {
              perRequest: seen.completionTokens,
              source: "measured",
              note: `mean of ${seen.rows} rows in ${basename(seen.run)}`,
            },
        };
        // Two entries of one suite share its template objects and a key.
        const same = groups.get(key);
        if (same !== undefined) group = same;
        else groups.set(key, group);
        byTemplate.set(item.template, group);
      }
      const requests = requestCount(run);
      group.rows += run.length;
      prompts += requests;
      let ofQuestion = cache.get(item.question);
      if (ofQuestion === undefined) {
        cache.set(item.question, ofQuestion = new Map());
      }
      let tokens = ofQuestion.get(item.templateId);
      if (tokens === undefined) {
        tokens = promptTokens(buildPrompt(item, { model, config }), count);
        ofQuestion.set(item.templateId, tokens);
      }
      group.requests += requests;
      group.inputTokens += tokens * requests;
    }
  }
  const countMs = performance.now() - t0;

  const rows: PlanRow[] = [];
  const models = new Map<string, PlanModel>();
  let globalWork = 0;
  for (const [key, group] of groups) {
    const { model, requests, rows: written, inputTokens, estimate } = group;
    const maxTokens = model.max_tokens ?? config.max_tokens;
    // The estimate is per row: with `n`, each choice is a row's reply.
    const outputTokens = Math.round(written * estimate.perRequest);
    const inPerRequest = requests > 0 ? inputTokens / requests : 0;
    const rowsPerRequest = requests > 0 ? written / requests : 1;
    const seen = measured.get(key)?.latencyMs ??
      measured.get(measurementKey(model.name))?.latencyMs ?? null;
    const sim = simLatency(model);
    let latencyMs: number;
    let latencySource: LatencySource;
    if (seen !== null) {
      [latencyMs, latencySource] = [seen, "measured"];
    } else if (sim !== null) {
      [latencyMs, latencySource] = [
        sim(estimate.perRequest, inPerRequest),
        "sim",
      ];
    } else {
      [latencyMs, latencySource] = [
        ASSUMED_BASE_LATENCY_MS + ASSUMED_MS_PER_TOKEN * estimate.perRequest,
        "assumed",
      ];
    }
    const concurrency = laneWidth(model, config);
    const time = wallTime({
      requests,
      latencyMs,
      // What a TPM limit counts: the prompt plus max_tokens per choice, as
      // OpenAI reckons it and as the runner reserves before each request.
      tokensPerRequest: inPerRequest + maxTokens * rowsPerRequest,
      concurrency,
      rpm: model.rpm,
      tpm: model.tpm,
    });
    globalWork += requests * latencyMs / 1000;
    const cost = model.price === undefined
      ? null
      : tokenCost({ inputTokens, outputTokens, price: model.price });
    const row: PlanRow = {
      model: model.name,
      suite: group.suite,
      template: group.template,
      requests,
      rows: written,
      inputTokens,
      outputTokens,
      outputSource: estimate.source,
      outputNote: estimate.note,
      outputTokensMax: written * maxTokens,
      cost,
      latencyMs,
      latencySource,
      wallSeconds: time.seconds,
      bound: time.bound,
    };
    rows.push(row);
    let total = models.get(model.name);
    if (total === undefined) {
      total = {
        name: model.name,
        encoding: choices.get(model.name)!,
        requests: 0,
        rows: 0,
        inputTokens: 0,
        outputTokens: 0,
        outputTokensMax: 0,
        cost: null,
        wallSeconds: 0,
        concurrency,
      };
      models.set(model.name, total);
    }
    total.requests += requests;
    total.rows += written;
    total.inputTokens += inputTokens;
    total.outputTokens += outputTokens;
    total.outputTokensMax += row.outputTokensMax;
    total.cost = addCost(total.cost, cost);
    total.wallSeconds += time.seconds;
  }
  const modelList = [...models.values()];
  const totals: Plan["totals"] = {
    requests: 0,
    rows: 0,
    inputTokens: 0,
    outputTokens: 0,
    outputTokensMax: 0,
    cost: null,
    wallSeconds: Math.max(
      globalWork / config.concurrency,
      ...modelList.map((m) => m.wallSeconds),
      0,
    ),
  };
  for (const m of modelList) {
    totals.requests += m.requests;
    totals.rows += m.rows;
    totals.inputTokens += m.inputTokens;
    totals.outputTokens += m.outputTokens;
    totals.outputTokensMax += m.outputTokensMax;
    totals.cost = addCost(totals.cost, m.cost);
  }
  const unpriced = config.models.filter((m) => m.price === undefined).map((
    m,
  ) => m.name);
  let distinct = 0;
  for (const ofEncoding of perPrompt.values()) {
    for (const ofQuestion of ofEncoding.values()) distinct += ofQuestion.size;
  }
  // A model's accuracy in a suite from an earlier run (its scored rows).
  const accuracyOf = (model: string, suite: string) => {
    let correct = 0, scored = 0;
    for (const [key, m] of measured) {
      if (key.startsWith(`${model}|${suite}|`)) {
        correct += m.correct;
        scored += m.scored;
      }
    }
    return scored > 0 ? correct / scored : null;
  };
  const plan: Plan = {
    name: config.name,
    rows,
    models: modelList,
    totals,
    unpriced,
    notes: [],
    counting: { prompts, distinct, ms: countMs },
    precision: planPrecision(rows, {
      accuracy: accuracyOf,
      discordant: (suite) => {
        const d = runs.discordance.get(suite);
        return d === undefined ? null : d.differ / d.both;
      },
    }, options.precision),
  };
  plan.notes = planNotes(
    plan,
    config,
    entries.some((e) =>
      e.templates.some(([, t]) => t.tools !== undefined && t.tools.length > 0)
    ),
  );
  return plan;
}

/** An entry as the full grid of its questions (an adaptive one's most). */
function asGrid(entry: SuiteEntry): SuiteEntry {
  if (entry.adaptive === undefined) return entry;
  const { adaptive: _, ...grid } = entry;
  return grid;
}
