/**
 * Reading a batch output file made elsewhere (vLLM `run-batch`, another
 * batch service) into rows (`deno task batch import`).
 *
 * @module
 */
import type { SweepConfig } from "../config/mod.ts";
import { BatchInputError } from "./_plan.ts";
import {
  type BatchConfigOptions,
  type BatchRun,
  createBatchRun,
  openBatchRun,
} from "./_run.ts";
import {
  type OutputLine,
  parseOutput,
  type StoreCounts,
  storeRows,
} from "./_rows.ts";

/** What {@linkcode importOutput} did. */
export interface ImportResult {
  /** The run folder the rows went to (new for a config). */
  runDir: string;
  /** Lines read. */
  lines: number;
  /** Rows written, replaced and skipped. */
  counts: StoreCounts;
  /** Planned rows of the run. */
  total: number;
}

/** Where {@linkcode importOutput} puts the rows. */
export type ImportTarget =
  | { runDir: string }
  | { config: SweepConfig };

async function readOutput(path: string): Promise<string> {
  try {
    return await Deno.readTextFile(path);
  } catch (error) {
    throw new BatchInputError(
      `Cannot read the output file ${path}: ${
        error instanceof Deno.errors.NotFound
          ? "no such file"
          : (error as Error).message
      }; give the file the batch runner wrote (vLLM run_batch -o)`,
    );
  }
}

/**
 * Reads an output file (`{custom_id, response: {status_code, body}, error}`
 * per line) into rows of a run: an existing run folder, or a new one made
 * for a config. The whole file is checked first: a line that is not JSON,
 * or whose `custom_id` is not a row key of the run/config, is named and
 * nothing is written. Idempotent like `collectBatches`.
 *
 * @param target `{ runDir }` or `{ config }`.
 * @param outputFile The output JSONL file.
 * @param options The suites; dataset folder and limit for a config.
 * @returns The run folder and counts.
 * @throws {BatchInputError} for a bad file or line (nothing written).
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { importOutput } from "./import.ts";
 * import { SweepConfigSchema } from "../config/schema.ts";
 * import { SUITES } from "../suites/mod.ts";
 * const dir = await Deno.makeTempDir();
 * const config = SweepConfigSchema.parse({
 *   outputDir: dir,
 *   models: [{ name: "m", provider: "sim" }],
 *   suites: [{ name: "arithmetic", params: { families: ["add"], digits: [2], count: 1 } }],
 * });
 * await Deno.writeTextFile(`${dir}/out.jsonl`, '{"custom_id":"other|q|t|0","response":null,"error":null}\n');
 * await assert.rejects(importOutput({ config }, `${dir}/out.jsonl`, { suites: SUITES }), /line 1 has custom_id "other\|q\|t\|0"/);
 * await Deno.remove(dir, { recursive: true });
 * ```
 */
export async function importOutput(
  target: ImportTarget,
  outputFile: string,
  options: BatchConfigOptions,
): Promise<ImportResult> {
  const text = await readOutput(outputFile);
  let lines: OutputLine[] = [];
  let run: BatchRun;
  if ("runDir" in target) {
    run = await openBatchRun(target.runDir, options);
    lines = parseOutput(text, outputFile, (k) => run.plan.items.has(k), "run");
  } else {
    run = await createBatchRun(target.config, options, (plan) => {
      lines = parseOutput(text, outputFile, (k) => plan.items.has(k), "config");
    });
  }
  const counts = await storeRows(run, lines);
  return {
    runDir: run.runDir,
    lines: lines.length,
    counts,
    total: run.plan.items.size,
  };
}
