/**
 * Reading a batch output file made elsewhere (vLLM `run-batch`, another
 * batch service) into rows (`deno task batch import`).
 *
 * @module
 */
import { decodeText, EncodingInputError } from "../inputs/decode.ts";
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
    // Strict UTF-8 (JSONL's encoding): bad bytes are named, not imported.
    return decodeText(await Deno.readFile(path), {
      path,
      what: "the output file",
    }).text;
  } catch (error) {
    if (error instanceof EncodingInputError) {
      throw new BatchInputError(error.message);
    }
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
 * for a config (or one `shard` of it). The whole file is checked first:
 * a line that is not JSON is named; lines whose `custom_id` is not a row
 * key of the run's plan — of another shard, for a shard run
 * (`manifest.shard`), or of no shard — are counted and the first few
 * named; either way nothing is written. Idempotent like `collectBatches`.
 *
 * @param target `{ runDir }` or `{ config }`.
 * @param outputFile The output JSONL file.
 * @param options The suites; dataset folder, limit and shard for a config
 *   (a run keeps its own: a different `shard` is refused).
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
 * await assert.rejects(
 *   importOutput({ config }, `${dir}/out.jsonl`, { suites: SUITES }),
 *   /1 line\(s\) are not requests of this config .*: line 1 \(custom_id "other\|q\|t\|0"\)/,
 * );
 * // Nothing was written: no run folder.
 * assert.deepEqual([...Deno.readDirSync(dir)].map((e) => e.name), ["out.jsonl"]);
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
    const asked = options.shard, own = run.plan.shard;
    if (
      asked !== undefined &&
      (asked.index !== own?.index || asked.count !== own?.count)
    ) {
      throw new BatchInputError(
        `Cannot import into ${target.runDir} as shard ${asked.index}/${asked.count}: the run holds ${
          own === undefined
            ? "the whole sweep"
            : `shard ${own.index}/${own.count}`
        }; leave out --shard (a run keeps its shard)`,
      );
    }
    lines = parseOutput(text, outputFile, run.plan, `run ${target.runDir}`);
  } else {
    run = await createBatchRun(target.config, options, (plan) => {
      lines = parseOutput(text, outputFile, plan, "config");
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
