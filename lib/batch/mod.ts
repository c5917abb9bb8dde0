/**
 * Past one machine: a sweep's requests as batch files. Submit them to an
 * OpenAI-compatible Batch API and collect the answers, or export them for
 * vLLM's `run-batch` and import its output. A batch row and an online row
 * of the same request are the same row: the request body is the one an
 * online call sends, and every answer goes through the runner's
 * `finishRow`.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { exportRequests } from "./mod.ts";
 * import { SweepConfigSchema } from "../config/schema.ts";
 * import { SUITES } from "../suites/mod.ts";
 * const dir = await Deno.makeTempDir();
 * const config = SweepConfigSchema.parse({
 *   models: [{ name: "m", provider: "sim" }],
 *   suites: [{ name: "arithmetic", params: { families: ["mul"], digits: [2], count: 2 } }],
 * });
 * const { requests } = await exportRequests(config, `${dir}/r.jsonl`, { suites: SUITES });
 * assert.equal(requests, 2);
 * await Deno.remove(dir, { recursive: true });
 * ```
 *
 * @module
 */
export {
  BATCH_URL,
  BatchInputError,
  type BatchPlan,
  type BatchRequestLine,
  type PlannedItem,
} from "./_plan.ts";
export type { BatchConfigOptions, BatchOptions } from "./_run.ts";
export type { StoreCounts } from "./_rows.ts";
export { MAX_BYTES, MAX_LINES } from "./_split.ts";
export {
  type ExportOptions,
  exportRequests,
  type ExportResult,
} from "./requests.ts";
export {
  resubmitBatches,
  type ResubmitResult,
  type SplitOptions,
  submitBatches,
  type SubmitResult,
} from "./submit.ts";
export { type BatchState, batchStatus, TERMINAL } from "./status.ts";
export { collectBatches, type CollectResult } from "./collect.ts";
export {
  importOutput,
  type ImportResult,
  type ImportTarget,
} from "./import.ts";
