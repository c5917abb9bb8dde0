/**
 * The state of a batch run's batches (`deno task batch status`).
 *
 * @module
 */
import {
  type BatchOptions,
  type BatchRun,
  clientsOf,
  endpointError,
  openBatchRun,
  saveManifest,
} from "./_run.ts";
import { BatchInputError } from "./_plan.ts";

/** Batch statuses after which nothing changes. */
export const TERMINAL: ReadonlySet<string> = new Set([
  "completed",
  "failed",
  "expired",
  "cancelled",
]);

/** One batch as the endpoint reports it now. */
export interface BatchState {
  /** The model whose requests the batch holds. */
  model: string;
  /** The provider's id of the batch. */
  batchId: string;
  /** `validating`, `in_progress`, `finalizing`, `completed`, `failed`, `expired`, `cancelling` or `cancelled`. */
  status: string;
  /** Requests in the batch, answered, failed. */
  total: number;
  /** Requests answered so far. */
  completed: number;
  /** Requests the provider could not answer. */
  failed: number;
  /** Why a batch failed validation (line numbers of its request file), if it did. */
  errors: string[];
}

/**
 * Asks the endpoint for every recorded batch (`batches.retrieve`) and
 * records status and output/error file ids in the manifest.
 */
export async function refreshBatches(run: BatchRun): Promise<BatchState[]> {
  const records = run.manifest.batches;
  if (records === undefined) {
    throw new BatchInputError(
      `Cannot read the batches of ${run.runDir}: it was not made by deno task batch submit (no batches in its manifest); give the folder submit printed`,
    );
  }
  const client = clientsOf(run);
  const states: BatchState[] = [];
  for (const record of records) {
    let batch;
    try {
      batch = await client(record.model).batches.retrieve(record.batchId);
    } catch (error) {
      throw endpointError(
        error,
        run.plan.config.models.find((m) => m.name === record.model),
        `read the state of batch ${record.batchId} of ${run.runDir}`,
        "nothing was written in the run folder; run the command again once it answers",
      );
    }
    record.status = batch.status;
    record.outputFileId = batch.output_file_id ?? null;
    record.errorFileId = batch.error_file_id ?? null;
    states.push({
      model: record.model,
      batchId: record.batchId,
      status: batch.status,
      total: batch.request_counts?.total ?? record.requests,
      completed: batch.request_counts?.completed ?? 0,
      failed: batch.request_counts?.failed ?? 0,
      errors: (batch.errors?.data ?? []).map((e) =>
        `${record.file}${e.line ? `:${e.line}` : ""}: ${e.message ?? e.code}`
      ),
    });
  }
  await saveManifest(run);
  return states;
}

/**
 * Each batch's state and request counts, read from the endpoint (and
 * recorded in the manifest).
 *
 * @param runDir A run folder made by `submitBatches`.
 * @param options The suites (to read the run's config); env for keys.
 * @returns One state per batch, in submission order.
 * @throws {BatchInputError} for a folder that is not a batch run;
 *   {OsFailureError} naming the baseURL of an endpoint that does not
 *   answer (nothing is written).
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { batchStatus } from "./status.ts";
 * import { SUITES } from "../suites/mod.ts";
 * await assert.rejects(batchStatus("/nonexistent-run", { suites: SUITES }), /Cannot read the manifest/);
 * ```
 */
export async function batchStatus(
  runDir: string,
  options: BatchOptions,
): Promise<BatchState[]> {
  return await refreshBatches(await openBatchRun(runDir, options));
}
