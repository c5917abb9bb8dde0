/**
 * Writing a config's batch request file (`deno task batch export`), for
 * vLLM's `run-batch` or any service that takes the OpenAI batch format.
 *
 * @module
 */
import type { SweepConfig } from "../config/schema.ts";
import { planBatch, requestLine } from "./_plan.ts";
import type { BatchConfigOptions } from "./_run.ts";
import { resolve } from "node:path";
import { checkOutputPath, openFileAtomic } from "../store/mod.ts";

/** Options of {@linkcode exportRequests}. */
export interface ExportOptions extends BatchConfigOptions {
  /** Replace an existing `out` file. @default {false} */
  force?: boolean;
  /**
   * Files the command read besides the dataset files the plan records
   * (the config file): `out` may be none of them. @default none
   */
  reads?: readonly string[];
}

/** What {@linkcode exportRequests} wrote. */
export interface ExportResult {
  /** The file written. */
  path: string;
  /** Request lines (one per row key). */
  requests: number;
  /** Bytes written. */
  bytes: number;
  /** Lines per model name. */
  perModel: Record<string, number>;
}

/**
 * Writes one request line per row key of a config (of its `shard`, when
 * given: the lines a shard run imports) —
 * `{custom_id, method: "POST", url: "/v1/chat/completions", body}`, with
 * the row key as `custom_id` and the exact body an online call sends. No
 * API key is in the file. Templates that call tools are refused.
 *
 * @param config A validated sweep config.
 * @param out The JSONL file to write: a new file, or with `force` an
 *   existing one (never a run's `results.jsonl` or `manifest.json`).
 * @param options The suites; dataset folder, question limit, shard, force.
 * @returns The counts.
 * @throws {BatchInputError} for templates that call tools.
 * @throws {OutputPathError} for an `out` that exists (without `force`), is
 *   a run's data, or whose folder is missing; nothing is written.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { exportRequests } from "./requests.ts";
 * import { SweepConfigSchema } from "../config/schema.ts";
 * import { SUITES } from "../suites/mod.ts";
 * const dir = await Deno.makeTempDir();
 * const config = SweepConfigSchema.parse({
 *   models: [{ name: "m", provider: "sim", model: "sim-strong" }],
 *   suites: [{ name: "arithmetic", params: { families: ["add"], digits: [2], count: 3 } }],
 * });
 * const result = await exportRequests(config, `${dir}/requests.jsonl`, { suites: SUITES });
 * assert.equal(result.requests, 3);
 * const first = JSON.parse((await Deno.readTextFile(result.path)).split("\n")[0]!);
 * assert.equal(first.url, "/v1/chat/completions");
 * assert.equal(first.body.model, "sim-strong");
 * // The shards' files split the keys between them.
 * const one = await exportRequests(config, `${dir}/1.jsonl`, { suites: SUITES, shard: { index: 1, count: 2 } });
 * const two = await exportRequests(config, `${dir}/2.jsonl`, { suites: SUITES, shard: { index: 2, count: 2 } });
 * assert.equal(one.requests + two.requests, 3);
 * await assert.rejects(exportRequests(config, `${dir}/1.jsonl`, { suites: SUITES }), /--force/);
 * await Deno.remove(dir, { recursive: true });
 * ```
 */
export async function exportRequests(
  config: SweepConfig,
  out: string,
  options: ExportOptions,
): Promise<ExportResult> {
  const plan = await planBatch(
    config,
    options.suites,
    resolve(options.baseDir ?? Deno.cwd()),
    options.limit,
    options.shard,
  );
  const baseDir = resolve(options.baseDir ?? Deno.cwd());
  await checkOutputPath(out, {
    what: "the requests",
    flag: "--out",
    force: options.force ?? false,
    reads: [
      ...(options.reads ?? []),
      ...plan.identity.inputs.map((input) => resolve(baseDir, input.name)),
    ],
  });
  const encoder = new TextEncoder();
  // Written beside `out` and renamed over it once whole.
  const atomic = await openFileAtomic(out);
  const file = atomic.file;
  const perModel: Record<string, number> = {};
  let bytes = 0;
  let pending: string[] = [];
  let pendingChars = 0;
  const flush = async () => {
    const data = encoder.encode(pending.join(""));
    pending = [];
    pendingChars = 0;
    let written = 0;
    while (written < data.length) {
      written += await file.write(data.subarray(written));
    }
    bytes += data.length;
  };
  try {
    for (const [key, planned] of plan.items) {
      const text = JSON.stringify(requestLine(key, planned, config)) + "\n";
      pending.push(text);
      pendingChars += text.length;
      perModel[planned.model.name] = (perModel[planned.model.name] ?? 0) + 1;
      if (pendingChars > 1 << 20) await flush();
    }
    await flush();
  } catch (error) {
    await atomic.abort();
    throw error;
  }
  await atomic.commit();
  return { path: out, requests: plan.items.size, bytes, perModel };
}
