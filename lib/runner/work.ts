/**
 * The lazy work list of one model lane, and turning an item into a prompt.
 *
 * @module
 */
import type {
  ModelConfig,
  SuiteConfig,
  SweepConfig,
} from "../config/schema.ts";
import type { Suite, SuiteRun, Template } from "../suites/types.ts";
import type { GenerationParams, Prompt, Question } from "../types.ts";
import type { AdaptivePool } from "../adaptive/pools.ts";
import { rowKey } from "./row.ts";
import { requestSeed } from "./seed.ts";
import { type Shard, shardOf } from "./shard.ts";

/** A suite of the sweep with its questions and chosen templates. */
export interface SuiteEntry {
  /** The suite's entry in the sweep config (name, params, templates). */
  config: SuiteConfig;
  /** The suite these questions are of (its name, templates and tools). */
  suite: Suite;
  /**
   * The suite's run for this entry's params: it extracts and scores the
   * entry's rows, and holds what the suite keeps across them. Closed when
   * the sweep ends.
   */
  run: SuiteRun;
  /** The questions to ask, at most the sweep's `limit` of them. */
  questions: Question[];
  /** Template ids (keys of `suite.templates`) and the templates. */
  templates: [string, Template][];
  /** What judging runs on (`SuiteRun.judging`), when the suite says. */
  judging?: Record<string, string>;
  /**
   * For an entry with `adaptive`: its questions by group and size, each
   * group asked by a design instead of in full (`workItems` leaves the
   * entry out).
   */
  adaptive?: AdaptiveEntry;
}

/** An adaptive entry's settings and question pools. */
export interface AdaptiveEntry {
  /** The dim the designs move along (e.g. `"digits"`). */
  dim: string;
  /** The accuracy whose crossing is sought. */
  target: number;
  /** A group stops once the crossing's 95% interval is no wider. */
  width: number;
  /** One pool per group. */
  pools: AdaptivePool<Question>[];
}

/** What {@linkcode workItems} needs besides the model and the entries. */
export interface WorkItemsOptions {
  /** Samples per (question, template). */
  samples: number;
  /** Row keys already written (a resume); these are skipped. @default none */
  finished?: ReadonlySet<string> | undefined;
  /** Called once per skipped item. @default nothing */
  onSkip?: () => void;
  /** Only this shard's items. @default all */
  shard?: Shard | undefined;
}

/** One request-to-row unit of work. */
export interface WorkItem {
  /** The suite entry the question belongs to. */
  entry: SuiteEntry;
  /** The question to ask. */
  question: Question;
  /** The template's id (its key in `suite.templates`; the row's `template`). */
  templateId: string;
  /** The template that renders the question into messages. */
  template: Template;
  /** The sample index, 0 to `samples - 1` (it seeds the request). */
  sample: number;
}

/**
 * Yields suites × questions × templates × samples for one model, skipping
 * keys in `finished`; nothing is materialised. With `shard`, only the
 * (question, template) pairs of that shard are yielded (see `shard.ts`);
 * the others are neither yielded nor skipped.
 *
 * @param model The model's name (the first part of each row key).
 * @param entries The sweep's suite entries, in order.
 * @param options Samples per (question, template); the row keys already
 *   written (resume: skipped, each with `onSkip`); the shard.
 * @returns A lazy generator of the work items still to do.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { type SuiteEntry, workItems } from "./work.ts";
 * const entry = {
 *   questions: [{ id: "q1", suite: "demo", text: "2+2", answer: { kind: "rational", value: "4" }, dims: {} }],
 *   templates: [["direct", { id: "direct", description: "", render: () => [] }]],
 * } as unknown as SuiteEntry;
 * let skipped = 0;
 * const items = [...workItems("m", [entry], { samples: 3, finished: new Set(["m|q1|direct|1"]), onSkip: () => skipped++ })];
 * assert.deepEqual(items.map((item) => item.sample), [0, 2]);
 * assert.equal(skipped, 1);
 * ```
 */
export function* workItems(
  model: string,
  entries: readonly SuiteEntry[],
  options: WorkItemsOptions,
): Generator<WorkItem> {
  const {
    samples,
    finished = new Set<string>(),
    onSkip = () => {},
    shard,
  } = options;
  const count = shard?.count ?? 1;
  for (const entry of entries) {
    if (entry.adaptive !== undefined) continue; // asked by its designs
    for (const question of entry.questions) {
      for (const [templateId, template] of entry.templates) {
        if (
          count > 1 &&
          shardOf(
              { model, question: question.id, template: templateId },
              count,
            ) !== shard?.index
        ) continue;
        for (let sample = 0; sample < samples; sample++) {
          // A fresh run skips the key: building it (and hashing it for the
          // lookup) per item showed in profiles.
          if (
            finished.size > 0 &&
            finished.has(
              rowKey({
                model,
                question: question.id,
                template: templateId,
                sample,
              }),
            )
          ) {
            onSkip();
            continue;
          }
          yield { entry, question, templateId, template, sample };
        }
      }
    }
  }
}

/**
 * Renders the prompt of a work item for a model: the template's messages
 * and tools, the model's (else the sweep's) temperature and max_tokens,
 * the model's extra params, and the request seed of the item's sample.
 *
 * @param item The work item to ask.
 * @param target `model`, the model the prompt is for, and `config`, the
 *   sweep config (defaults and seed).
 * @returns The prompt to send.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { buildPrompt, type WorkItem } from "./work.ts";
 * import { requestSeed } from "./seed.ts";
 * import { SweepConfigSchema } from "../config/schema.ts";
 * const config = SweepConfigSchema.parse({
 *   seed: 7, temperature: 0.5,
 *   models: [{ name: "m", provider: "sim", max_tokens: 64 }],
 *   suites: [{ name: "arithmetic" }],
 * });
 * const item = {
 *   question: { id: "q1", suite: "demo", text: "2+2", answer: { kind: "rational", value: "4" }, dims: {} },
 *   templateId: "direct",
 *   template: { id: "direct", description: "", render: (q) => [{ role: "user", content: q.text }] },
 *   sample: 1,
 * } as WorkItem;
 * const prompt = buildPrompt(item, { model: config.models[0]!, config });
 * assert.deepEqual(prompt.messages, [{ role: "user", content: "2+2" }]);
 * assert.deepEqual(prompt.params, { temperature: 0.5, max_tokens: 64, seed: requestSeed(7, 1) });
 * ```
 */
export function buildPrompt(
  item: WorkItem,
  { model, config }: { model: ModelConfig; config: SweepConfig },
): Prompt {
  const params: GenerationParams = {
    temperature: model.temperature ?? config.temperature,
    max_tokens: model.max_tokens ?? config.max_tokens,
    seed: requestSeed(config.seed, item.sample),
  };
  if (Object.keys(model.params).length > 0) params.extra = model.params;
  const prompt: Prompt = {
    templateId: item.templateId,
    messages: item.template.render(item.question),
    params,
  };
  if (item.template.tools !== undefined && item.template.tools.length > 0) {
    prompt.tools = item.template.tools;
  }
  return prompt;
}

/**
 * Tokens a request may use, for TPM: prompt characters / 4 (rounded up)
 * plus max_tokens.
 *
 * @param prompt The prompt to send.
 * @returns The estimate, in tokens.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { requestTokenBudget } from "./work.ts";
 * const prompt = {
 *   templateId: "direct",
 *   messages: [{ role: "user" as const, content: "What is 2+2?" }],
 *   params: { temperature: 0, max_tokens: 100, seed: 0 },
 * };
 * assert.equal(requestTokenBudget(prompt), 3 + 100);
 * ```
 */
export function requestTokenBudget(prompt: Prompt): number {
  let chars = 0;
  for (const m of prompt.messages) chars += m.content.length;
  return Math.ceil(chars / 4) + prompt.params.max_tokens;
}
