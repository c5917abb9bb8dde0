/**
 * The sweep runner: concurrency, rate limits, retries (by the providers),
 * the response cache, progress, resume and clean interruption.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { rowKey, requestSeed } from "./mod.ts";
 * assert.equal(rowKey({ model: "m", question: "q", template: "t", sample: 0 }), "m|q|t|0");
 * assert.equal(requestSeed(1, 0), requestSeed(1, 0));
 * ```
 *
 * @module
 */
export { runSweep } from "./sweep.ts";
export type {
  ProviderFactory,
  SweepOptions,
  SweepResult,
} from "./sweep_options.ts";
export { checkResumePlan } from "./resume_plan.ts";
export * from "./identity.ts";
// The identity types its functions take and give (defined by the store).
export type {
  IdentityInput,
  IdentitySuite,
  RunIdentity,
} from "../store/mod.ts";
export { secretsOf } from "./secrets.ts";
export { laneWidth } from "./lane_width.ts";
export { SweepInputError } from "./entries.ts";
export * from "./progress.ts";
export * from "./row.ts";
export * from "./cache.ts";
export * from "./seed.ts";
export * from "./shard.ts";
export * from "./shard_env.ts";
export * from "./job_dir.ts";
export * from "./finish.ts";
export * from "./groups.ts";
export {
  type LoadedEntries,
  loadEntries,
  type LoadEntriesOptions,
} from "./entries.ts";
// The config type a `SuiteEntry` carries (`lib/mod.ts` exports the others).
export type { SuiteConfig } from "../config/schema.ts";
export {
  type AdaptiveEntry,
  buildPrompt,
  requestTokenBudget,
  type SuiteEntry,
  type WorkItem,
  workItems,
  type WorkItemsOptions,
} from "./work.ts";
export type { AdaptivePool } from "../adaptive/pools.ts";
