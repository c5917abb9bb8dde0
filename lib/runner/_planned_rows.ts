/**
 * How many rows a sweep (or one shard of it) plans. Private to
 * `lib/runner`.
 *
 * @module
 */
import type { SweepConfig } from "../config/schema.ts";
import { type Shard, shardOf } from "./shard.ts";
import type { SuiteEntry } from "./work.ts";

/** Rows a sweep (or one shard of it) plans. */
export function plannedRows(
  config: SweepConfig,
  entries: readonly SuiteEntry[],
  shard: Shard | undefined,
): number {
  let pairs = 0;
  for (const model of config.models) {
    for (const entry of entries) {
      // An adaptive entry plans its whole pool: the most it may ask.
      if (shard === undefined || shard.count === 1) {
        pairs += entry.questions.length * entry.templates.length;
        continue;
      }
      for (const question of entry.questions) {
        for (const [templateId] of entry.templates) {
          if (
            shardOf({
              model: model.name,
              question: question.id,
              template: templateId,
            }, shard.count) ===
              shard.index
          ) pairs++;
        }
      }
    }
  }
  return pairs * config.samples;
}
