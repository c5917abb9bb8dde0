/**
 * The sweep runner: concurrency, rate limits, retries (by the providers),
 * the response cache, progress, resume and clean interruption.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { rowKey, requestSeed } from "./mod.ts";
 * assert.equal(rowKey("m", "q", "t", 0), "m|q|t|0");
 * assert.equal(requestSeed(1, 0), requestSeed(1, 0));
 * ```
 *
 * @module
 */
export {
  checkResumePlan,
  type ProviderFactory,
  runSweep,
  secretsOf,
  type SweepOptions,
  type SweepResult,
} from "./sweep.ts";
export { SweepInputError } from "./_entries.ts";
export * from "./progress.ts";
export * from "./row.ts";
export * from "./cache.ts";
export * from "./seed.ts";
export * from "./shard.ts";
export * from "./finish.ts";
export * from "./groups.ts";
export { type LoadedEntries, loadEntries } from "./_entries.ts";
// The config type a `SuiteEntry` carries (`lib/mod.ts` exports the others).
export type { SuiteConfig } from "../config/schema.ts";
export {
  buildPrompt,
  estimateTokens,
  type SuiteEntry,
  type WorkItem,
  workItems,
} from "./_work.ts";
