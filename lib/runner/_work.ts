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
import type { Suite, Template } from "../suites/types.ts";
import type { GenerationParams, Prompt, Question } from "../types.ts";
import { rowKey } from "./row.ts";
import { requestSeed } from "./seed.ts";
import { type Shard, shardOf } from "./shard.ts";

/** A suite of the sweep with its questions and chosen templates. */
export interface SuiteEntry {
  config: SuiteConfig;
  suite: Suite;
  questions: Question[];
  /** Template ids (keys of `suite.templates`) and the templates. */
  templates: [string, Template][];
}

/** One request-to-row unit of work. */
export interface WorkItem {
  entry: SuiteEntry;
  question: Question;
  templateId: string;
  template: Template;
  sample: number;
}

/**
 * Yields suites × questions × templates × samples for one model, skipping
 * keys in `finished`; nothing is materialised. With `shard`, only the
 * (question, template) pairs of that shard are yielded (see `shard.ts`);
 * the others are neither yielded nor skipped.
 */
export function* workItems(
  model: string,
  entries: readonly SuiteEntry[],
  samples: number,
  finished: ReadonlySet<string>,
  onSkip: () => void,
  shard?: Shard,
): Generator<WorkItem> {
  const count = shard?.count ?? 1;
  for (const entry of entries) {
    for (const question of entry.questions) {
      for (const [templateId, template] of entry.templates) {
        if (
          count > 1 &&
          shardOf(model, question.id, templateId, count) !== shard?.index
        ) continue;
        for (let sample = 0; sample < samples; sample++) {
          // A fresh run skips the key: building it (and hashing it for the
          // lookup) per item showed in profiles.
          if (
            finished.size > 0 &&
            finished.has(rowKey(model, question.id, templateId, sample))
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

/** Renders the prompt of a work item for a model. */
export function buildPrompt(
  item: WorkItem,
  model: ModelConfig,
  config: SweepConfig,
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

/** Tokens a request may use, for TPM: prompt characters / 4 + max_tokens. */
export function estimateTokens(prompt: Prompt): number {
  let chars = 0;
  for (const m of prompt.messages) chars += m.content.length;
  return Math.ceil(chars / 4) + prompt.params.max_tokens;
}
