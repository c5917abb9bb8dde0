/**
 * The requests of a batch run: every row key of a config with its work
 * item and its request line. Private to `lib/batch`.
 *
 * @module
 */
import type { ModelConfig, SweepConfig } from "../config/schema.ts";
import { chatRequestBody } from "../providers/mod.ts";
import {
  buildPrompt,
  loadEntries,
  rowKey,
  runIdentity,
  type Shard,
  shardOf,
  type SuiteEntry,
  type WorkItem,
  workItems,
} from "../runner/mod.ts";
import type { SuiteList } from "../suites/types.ts";
import type { RunIdentity } from "../store/mod.ts";

/** The endpoint every request line targets. */
export const BATCH_URL = "/v1/chat/completions";

/**
 * Bad input for a batch command (a config with tool templates, an output
 * file from another run, a corrupted line): nothing was written, and the
 * message says what to do. The CLI exits 2 on it.
 */
export class BatchInputError extends Error {
  /** Always `"BatchInputError"`; logs show it before the message. */
  override name = "BatchInputError";
}

/** One line of a batch request file (the OpenAI batch input format). */
export interface BatchRequestLine {
  /** The row key `model|question_id|template|sample`. */
  custom_id: string;
  /** Always `"POST"`, as the batch API asks. */
  method: "POST";
  /** The endpoint each line is for (`/v1/chat/completions`). */
  url: typeof BATCH_URL;
  /** The exact body an online call sends. */
  body: Record<string, unknown>;
}

/** Where a row key's answer belongs. */
export interface PlannedItem {
  /** The model the request goes to. */
  model: ModelConfig;
  /** The question, template and sample it asks. */
  item: WorkItem;
}

/** A config's loaded suites and its row keys (of one shard, for a shard). */
export interface BatchPlan {
  /** The sweep config the plan was made from. */
  config: SweepConfig;
  /** Its suite entries with their questions and templates. */
  entries: SuiteEntry[];
  /** Questions per suite name. */
  questionCounts: Record<string, number>;
  /** What the run is (see `lib/store/identity.ts`). */
  identity: RunIdentity;
  /** Row keys in sweep order, each with its model and work item: the shard's keys only, for a shard. */
  items: Map<string, PlannedItem>;
  /** The shard planned (`--shard i/n`); absent for the whole sweep. */
  shard?: Shard;
  /** Keys of the config that belong to other shards (empty without a shard). */
  otherShards: Set<string>;
  /**
   * Closes what scoring the entries opened (the runs are closed when the
   * plan is made, and open again when a row is scored).
   */
  close(): Promise<void>;
}

/**
 * Loads a config's questions and lists its row keys: every key, or with
 * `shard` only the keys of that shard (the rest go in `otherShards`, so a
 * line of another shard can be named as such). Refuses templates that call
 * tools (the calculator loop needs a reply before its next request, which
 * one batch line cannot carry) and adaptive entries (each next question
 * waits for the answers before it).
 *
 * @throws {BatchInputError} for tool templates and adaptive entries (and the runner's
 *   `SweepInputError` for questions it cannot load).
 */
export async function planBatch(
  config: SweepConfig,
  suites: SuiteList,
  baseDir: string,
  limit: number | undefined,
  shard?: Shard,
): Promise<BatchPlan> {
  const loaded = await loadEntries(config, { suites, baseDir, limit });
  await loaded.close();
  const { entries, questionCounts, inputs } = loaded;
  const identity = runIdentity({ config, entries, inputs, limit });
  for (const [i, entry] of entries.entries()) {
    if (entry.adaptive !== undefined) {
      throw new BatchInputError(
        `Cannot batch suites[${i}] (suite "${entry.suite.name}"): it is adaptive, and a design chooses each next question from the answers before it, while a batch sends all its requests at once; run it online with deno task sweep, or remove "adaptive"`,
      );
    }
    for (const [id, template] of entry.templates) {
      if (template.tools !== undefined && template.tools.length > 0) {
        throw new BatchInputError(
          `Cannot batch template "${id}" of suite "${entry.suite.name}": it lets the model call tools (a multi-turn loop), and a batch line holds one request; run it online with deno task sweep, or list other templates in the config's "templates"`,
        );
      }
    }
  }
  const items = new Map<string, PlannedItem>();
  const otherShards = new Set<string>();
  const count = shard?.count ?? 1;
  for (const model of config.models) {
    for (
      const item of workItems(model.name, entries, {
        samples: config.samples,
      })
    ) {
      const key = rowKey({
        model: model.name,
        question: item.question.id,
        template: item.templateId,
        sample: item.sample,
      });
      if (
        count > 1 &&
        shardOf({
            model: model.name,
            question: item.question.id,
            template: item.templateId,
          }, count) !==
          shard?.index
      ) otherShards.add(key);
      else items.set(key, { model, item });
    }
  }
  return {
    config,
    entries,
    questionCounts,
    identity,
    items,
    otherShards,
    ...(shard === undefined ? {} : { shard }),
    close: loaded.close,
  };
}

/** The request line of a planned row key. */
export function requestLine(
  key: string,
  planned: PlannedItem,
  config: SweepConfig,
): BatchRequestLine {
  const prompt = buildPrompt(planned.item, { model: planned.model, config });
  return {
    custom_id: key,
    method: "POST",
    url: BATCH_URL,
    body: chatRequestBody(prompt, planned.model),
  };
}
