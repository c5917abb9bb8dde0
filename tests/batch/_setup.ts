/** Shared set-up of the batch tests: a small sweep served by the sim over HTTP. */
import assert from "node:assert/strict";
import OpenAI, { toFile } from "openai";
import { batchStatus, TERMINAL } from "../../lib/batch/mod.ts";
import {
  type SweepConfig,
  SweepConfigSchema,
} from "../../lib/config/schema.ts";
import { runSweep, startSimServer, SUITES } from "../../lib/mod.ts";
import type { SimServerOptions } from "../../lib/providers/mod.ts";
import { readRows, stable, withTemp } from "../e2e/_setup.ts";

export { stable, SUITES };

/** The sim profiles of the batch tests (one makes mistakes, one is chatty). */
export const PROFILES = ["sim-average", "sim-chatty"];

/** A small arithmetic sweep against `baseURL` (2 profiles × 8 questions × 2 samples). */
export function smallConfig(baseURL: string, outputDir: string): SweepConfig {
  return SweepConfigSchema.parse({
    name: "batch-test",
    outputDir,
    cache: false,
    samples: 2,
    temperature: 0.7,
    seed: 5,
    retries: 0,
    suites: [{
      name: "arithmetic",
      params: { families: ["add", "mul"], digits: [2, 4], count: 2 },
    }],
    models: PROFILES.map((p) => ({
      name: p,
      provider: "openai",
      model: p,
      baseURL,
    })),
  });
}

/** Rows of a run folder by key. */
export async function rowsByKey(
  runDir: string,
): Promise<Map<string, Record<string, unknown>>> {
  const rows = await readRows(runDir);
  return new Map(rows.map((r) => [String(r.key), r]));
}

/** Runs `fn` with a sim server (batch options given) and a temp folder. */
export function withSim(
  options: SimServerOptions,
  fn: (baseURL: string, dir: string) => Promise<void>,
): Promise<void> {
  return withTemp(async (dir) => {
    const server = await startSimServer(options);
    try {
      await fn(server.baseURL, dir);
    } finally {
      await server.close();
    }
  }, "batch_");
}

/** What {@linkcode withSweep} hands a test. */
export interface SweepSetup {
  /** {@linkcode smallConfig} against the sim, writing to `${dir}/out`. */
  config: SweepConfig;
  /** The temp folder, removed afterwards. */
  dir: string;
  /** The sim server's base URL. */
  baseURL: string;
}

/** {@linkcode withSim} with the small sweep's config made for the test. */
export function withSweep(
  options: SimServerOptions,
  fn: (setup: SweepSetup) => Promise<void>,
): Promise<void> {
  return withSim(
    options,
    (baseURL, dir) =>
      fn({ config: smallConfig(baseURL, `${dir}/out`), dir, baseURL }),
  );
}

/** The rows of the same config run online (the reference). */
export async function onlineRows(
  config: SweepConfig,
): Promise<Map<string, Record<string, unknown>>> {
  const result = await runSweep(config, { progress: "none" });
  return await rowsByKey(result.runDir);
}

/** Asserts that `batch` holds the keys of `online`, each with the same stable fields. */
export function assertSameRows(
  batch: Map<string, Record<string, unknown>>,
  online: Map<string, Record<string, unknown>>,
): void {
  assert.deepEqual([...batch.keys()].sort(), [...online.keys()].sort());
  for (const [key, row] of online) {
    assert.deepEqual(stable(batch.get(key)!), stable(row), key);
  }
}

/**
 * Polls `batchStatus` until no batch of the run is running; returns every
 * status seen, in order. `env` looks up the API keys.
 */
export async function waitAll(
  runDir: string,
  env?: (name: string) => string | undefined,
): Promise<string[]> {
  const seen: string[] = [];
  for (;;) {
    const states = await batchStatus(runDir, {
      suites: SUITES,
      ...(env ? { env } : {}),
    });
    for (const s of states) if (seen.at(-1) !== s.status) seen.push(s.status);
    if (states.every((s) => TERMINAL.has(s.status))) return seen;
    await new Promise((r) => setTimeout(r, 10));
  }
}

/** Runs `fn` with an OpenAI client of a sim server started with `options`. */
export async function withClient(
  options: SimServerOptions,
  fn: (client: OpenAI) => Promise<void>,
): Promise<void> {
  const server = await startSimServer(options);
  try {
    await fn(
      new OpenAI({ baseURL: server.baseURL, apiKey: "x", logLevel: "off" }),
    );
  } finally {
    await server.close();
  }
}

/** Uploads `lines` as the batch input file `name`. */
export async function uploadFile(
  client: OpenAI,
  lines: string,
  name = "in.jsonl",
): Promise<OpenAI.FileObject> {
  return await client.files.create({
    file: await toFile(new TextEncoder().encode(lines), name),
    purpose: "batch",
  });
}

/** Creates a chat-completions batch of the uploaded file `fileId`. */
export async function createBatch(
  client: OpenAI,
  fileId: string,
): Promise<OpenAI.Batch> {
  return await client.batches.create({
    input_file_id: fileId,
    endpoint: "/v1/chat/completions",
    completion_window: "24h",
  });
}

/** Polls batch `id` until it is terminal; returns it and every status seen, in order. */
export async function untilDone(
  client: OpenAI,
  id: string,
): Promise<{ batch: OpenAI.Batch; seen: string[] }> {
  const seen: string[] = [];
  for (;;) {
    const batch = await client.batches.retrieve(id);
    if (seen.at(-1) !== batch.status) seen.push(batch.status);
    if (TERMINAL.has(batch.status)) return { batch, seen };
    await new Promise((r) => setTimeout(r, 5));
  }
}

/**
 * Plays vLLM's `run_batch`: answers each request line by POSTing its body
 * to the chat route, and writes the output-file format.
 */
export async function runBatchLikeVllm(
  baseURL: string,
  input: string,
  output: string,
): Promise<number> {
  const lines = (await Deno.readTextFile(input)).split("\n").filter((l) =>
    l !== ""
  );
  const out: string[] = [];
  for (const [i, text] of lines.entries()) {
    const request = JSON.parse(text);
    const response = await fetch(`${baseURL}/chat/completions`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify(request.body),
    });
    out.push(JSON.stringify({
      id: `vllm-${i}`,
      custom_id: request.custom_id,
      response: {
        status_code: response.status,
        request_id: `vllm-batch-${i}`,
        body: await response.json(),
      },
      error: null,
    }));
  }
  await Deno.writeTextFile(output, out.map((l) => l + "\n").join(""));
  return out.length;
}
