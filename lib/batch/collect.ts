/**
 * Turning finished batches into rows (`deno task batch collect`).
 *
 * @module
 */
import {
  type BatchOptions,
  clientsOf,
  endpointError,
  openBatchRun,
  saveManifest,
} from "./_run.ts";
import {
  missingKeys,
  type OutputLine,
  parseOutput,
  type StoreCounts,
  storeRows,
} from "./_rows.ts";
import { type BatchState, refreshBatches, TERMINAL } from "./status.ts";

/** What {@linkcode collectBatches} did. */
export interface CollectResult {
  /** Every batch's state when collected. */
  batches: BatchState[];
  /** Rows written, replaced and skipped. */
  counts: StoreCounts;
  /** Batches still running (collect again later). */
  pending: number;
  /** Planned keys still without an answered row (resubmit sends them). */
  missing: number;
  /** Planned rows of the run. */
  total: number;
}

/**
 * Downloads the output and error files of every finished batch
 * (`files.content`) and turns each line into the row an online sweep
 * writes — extraction, judging, dims, usage from the line; error lines
 * become error rows with `error_kind` — appended to `results.jsonl`.
 * Idempotent: collecting twice writes nothing new; an error row is
 * replaced when a resubmitted line brings an answer.
 *
 * @param runDir A run folder made by `submitBatches`.
 * @param options The suites; env for keys.
 * @returns States, row counts, batches pending and keys missing.
 * @throws {BatchInputError} for a folder that is not a batch run or an
 *   output line that is not a request of the run; {OsFailureError} naming
 *   the baseURL of an endpoint that does not answer (nothing is written).
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { collectBatches } from "./collect.ts";
 * import { SUITES } from "../suites/mod.ts";
 * await assert.rejects(collectBatches("/nonexistent-run", { suites: SUITES }), /Cannot read the manifest/);
 * ```
 */
export async function collectBatches(
  runDir: string,
  options: BatchOptions,
): Promise<CollectResult> {
  const run = await openBatchRun(runDir, options);
  const batches = await refreshBatches(run);
  const client = clientsOf(run);
  const lines: OutputLine[] = [];
  const collected = [];
  for (const record of run.manifest.batches ?? []) {
    if (!TERMINAL.has(record.status)) continue;
    for (const id of [record.outputFileId, record.errorFileId]) {
      if (id === null) continue;
      let text: string;
      try {
        text = await (await client(record.model).files.content(id)).text();
      } catch (error) {
        throw endpointError(
          error,
          run.plan.config.models.find((m) => m.name === record.model),
          `download file ${id} of batch ${record.batchId} of ${runDir}`,
          "nothing was written in the run folder; collect again once it answers",
        );
      }
      lines.push(
        ...parseOutput(
          text,
          `file ${id} of batch ${record.batchId}`,
          run.plan,
          `run ${runDir}`,
        ),
      );
    }
    collected.push(record);
  }
  const counts = await storeRows(run, lines);
  const now = new Date().toISOString();
  for (const record of collected) record.collectedAt = now;
  await saveManifest(run);
  return {
    batches,
    counts,
    pending: batches.filter((b) => !TERMINAL.has(b.status)).length,
    missing: (await missingKeys(run)).length,
    total: run.plan.items.size,
  };
}
