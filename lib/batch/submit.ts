/**
 * Sending request files to a Batch API (`deno task batch submit` and
 * `resubmit`): written into the run folder, split within the service's
 * limits, uploaded with `files.create`, started with `batches.create`, and
 * recorded in the manifest.
 *
 * @module
 */
import { basename, join } from "node:path";
import { toFile } from "openai";
import type { SweepConfig } from "../config/schema.ts";
import type { BatchRecord } from "../store/mod.ts";
import { BATCH_URL, BatchInputError, requestLine } from "./_plan.ts";
import {
  batchClient,
  type BatchConfigOptions,
  type BatchOptions,
  type BatchRun,
  clientsOf,
  createBatchRun,
  endpointError,
  openBatchRun,
  probeEndpoints,
  saveManifest,
} from "./_run.ts";
import { MAX_BYTES, MAX_LINES, splitLines } from "./_split.ts";
import { safeFileName } from "../file_name.ts";
import { missingKeys } from "./_rows.ts";
import { collectBatches, type CollectResult } from "./collect.ts";
import { TERMINAL } from "./status.ts";

/** File limits of the batch service. */
export interface SplitOptions {
  /** Request lines per file. @default 50000 */
  maxLines?: number;
  /** Bytes per file. @default 200000000 */
  maxBytes?: number;
}

/** What {@linkcode submitBatches} did. */
export interface SubmitResult {
  /** The new run folder. */
  runDir: string;
  /** Request lines sent. */
  requests: number;
  /** The batches made (also in the manifest). */
  batches: BatchRecord[];
}

/** Writes, uploads and starts the batches of these keys. */
async function send(
  run: BatchRun,
  keys: readonly string[],
  split: SplitOptions,
): Promise<BatchRecord[]> {
  const config = run.plan.config;
  const client = clientsOf(run);
  const byModel = new Map<string, string[]>();
  for (const key of keys) {
    const planned = run.plan.items.get(key)!;
    const list = byModel.get(planned.model.name) ?? [];
    list.push(key);
    byModel.set(planned.model.name, list);
  }
  const records = run.manifest.batches ??= [];
  const made: BatchRecord[] = [];
  await Deno.mkdir(join(run.runDir, "requests"), { recursive: true });
  for (const [modelName, modelKeys] of byModel) {
    const lines = modelKeys.map((key) =>
      JSON.stringify(requestLine(key, run.plan.items.get(key)!, config))
    );
    for (
      const chunk of splitLines(
        lines,
        split.maxLines ?? MAX_LINES,
        split.maxBytes ?? MAX_BYTES,
      )
    ) {
      const seq = String(records.length + 1).padStart(3, "0");
      const file = join("requests", `${seq}-${safeFileName(modelName)}.jsonl`);
      const bytes = new TextEncoder().encode(
        chunk.map((l) => l + "\n").join(""),
      );
      await Deno.writeFile(join(run.runDir, file), bytes);
      const api = client(modelName);
      let record: BatchRecord;
      try {
        const uploaded = await api.files.create({
          file: await toFile(bytes, basename(file)),
          purpose: "batch",
        });
        const batch = await api.batches.create({
          input_file_id: uploaded.id,
          endpoint: BATCH_URL,
          completion_window: "24h",
          metadata: { run: run.manifest.run, model: modelName },
        });
        record = {
          model: modelName,
          file,
          requests: chunk.length,
          inputFileId: uploaded.id,
          batchId: batch.id,
          submittedAt: new Date().toISOString(),
          status: batch.status,
          outputFileId: batch.output_file_id ?? null,
          errorFileId: batch.error_file_id ?? null,
          collectedAt: null,
        };
      } catch (error) {
        await saveManifest(run);
        const rest =
          `the batches sent before it are recorded in ${run.runDir}/manifest.json — send the rest with deno task batch resubmit ${run.runDir}`;
        const mapped = endpointError(
          error,
          config.models.find((m) => m.name === modelName),
          `submit ${file} of model "${modelName}"`,
          rest,
        );
        throw mapped !== error ? mapped : new Error(
          `Cannot submit ${file} of model "${modelName}": ${
            run.redact((error as Error).message)
          }; ${rest}`,
        );
      }
      records.push(record);
      made.push(record);
      await saveManifest(run);
    }
  }
  return made;
}

/**
 * Makes a new run folder for a config (or one `shard` of it, recorded in
 * the manifest) and sends every row key as batch requests: one or more
 * files per model (split at `maxLines` / `maxBytes`), each uploaded
 * (`files.create`, purpose `batch`) and started (`batches.create`,
 * endpoint `/v1/chat/completions`, window `24h`). The
 * request files stay in `<run>/requests/`; file and batch ids go in the
 * manifest. API keys come from each model's `apiKeyEnv` and are never
 * written.
 *
 * @param config A validated sweep config whose models are `openai` endpoints.
 * @param options The suites; dataset folder, question limit, shard, file
 *   limits.
 * @returns The run folder, requests sent and batches made.
 * @throws {BatchInputError} for `sim` models, unset keys or tool templates
 *   (nothing is created); {OsFailureError} naming the baseURL of an
 *   endpoint that does not answer (probed first: nothing is created).
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { submitBatches } from "./submit.ts";
 * import { SweepConfigSchema } from "../config/schema.ts";
 * import { SUITES } from "../suites/mod.ts";
 * const config = SweepConfigSchema.parse({
 *   models: [{ name: "m", provider: "sim" }],
 *   suites: [{ name: "arithmetic", params: { families: ["add"], digits: [2], count: 1 } }],
 * });
 * await assert.rejects(submitBatches(config, { suites: SUITES }), /no Batch API endpoint/);
 * ```
 */
export async function submitBatches(
  config: SweepConfig,
  options: BatchConfigOptions & SplitOptions,
): Promise<SubmitResult> {
  const env = options.env ?? ((name: string) => Deno.env.get(name));
  const maxBytes = options.maxBytes ?? MAX_BYTES;
  const run = await createBatchRun(config, options, async (plan) => {
    // Every model must be reachable, and every line must fit in a file,
    // before a folder is made.
    const clients = new Map(
      config.models.map((m) => [m, batchClient(m, config, env)]),
    );
    const encoder = new TextEncoder();
    for (const [key, planned] of plan.items) {
      const line = JSON.stringify(requestLine(key, planned, config));
      if (encoder.encode(line).length + 1 > maxBytes) {
        throw new RangeError(
          `Cannot submit ${key}: its request line is over the ${maxBytes}-byte file limit; shorten the prompt or raise --max-bytes`,
        );
      }
    }
    await probeEndpoints(config, (model) => clients.get(model)!);
  });
  const batches = await send(run, [...run.plan.items.keys()], options);
  return { runDir: run.runDir, requests: run.plan.items.size, batches };
}

/** What {@linkcode resubmitBatches} did. */
export interface ResubmitResult {
  /** The collect that ran first. */
  collected: CollectResult;
  /** Request lines sent again. */
  requests: number;
  /** The new batches (also in the manifest). */
  batches: BatchRecord[];
}

async function keysOfFile(run: BatchRun, file: string): Promise<string[]> {
  const text = await Deno.readTextFile(join(run.runDir, file));
  return text.split("\n").filter((l) => l !== "").map((l) =>
    (JSON.parse(l) as { custom_id: string }).custom_id
  );
}

/**
 * Collects what is done, then sends again only the keys with no answered
 * row (lines that failed, expired or were cancelled, batches that
 * failed), leaving out keys of batches still running.
 *
 * @param runDir A run folder made by {@linkcode submitBatches}.
 * @param options The suites; file limits.
 * @returns The collect, the requests sent again and the new batches.
 * @throws {BatchInputError} for a folder that is not a batch run.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { resubmitBatches } from "./submit.ts";
 * import { SUITES } from "../suites/mod.ts";
 * await assert.rejects(resubmitBatches("/nonexistent-run", { suites: SUITES }), /Cannot read the manifest/);
 * ```
 */
export async function resubmitBatches(
  runDir: string,
  options: BatchOptions & SplitOptions,
): Promise<ResubmitResult> {
  const collected = await collectBatches(runDir, options);
  const run = await openBatchRun(runDir, options);
  if (run.manifest.batches === undefined) {
    throw new BatchInputError(
      `Cannot resubmit ${runDir}: it was not made by deno task batch submit (no batches in its manifest); resume a sweep with deno task sweep --resume`,
    );
  }
  const running = new Set<string>();
  for (const record of run.manifest.batches) {
    if (!TERMINAL.has(record.status)) {
      for (const key of await keysOfFile(run, record.file)) running.add(key);
    }
  }
  const keys = (await missingKeys(run)).filter((k) => !running.has(k));
  const batches = keys.length === 0 ? [] : await send(run, keys, options);
  return { collected, requests: keys.length, batches };
}
