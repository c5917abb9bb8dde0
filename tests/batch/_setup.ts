/** Shared set-up of the batch tests: a small sweep served by the sim over HTTP. */
import {
  type SweepConfig,
  SweepConfigSchema,
} from "../../lib/config/schema.ts";
import { runSweep, startSimServer, SUITES } from "../../lib/mod.ts";
import type { SimServerOptions } from "../../lib/providers/mod.ts";

export { SUITES };

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
  const text = await Deno.readTextFile(`${runDir}/results.jsonl`);
  const rows = text.split("\n").filter((l) => l !== "").map((l) =>
    JSON.parse(l) as Record<string, unknown>
  );
  return new Map(rows.map((r) => [String(r.key), r]));
}

/** Fields that differ between an online and a batch row of one request. */
const VOLATILE = ["latency_ms", "finished_at", "attempts", "cached", "run"];

/** A row without the fields that legitimately differ. */
export function stable(row: Record<string, unknown>): Record<string, unknown> {
  return Object.fromEntries(
    Object.entries(row).filter(([k]) => !VOLATILE.includes(k)),
  );
}

/** Runs `fn` with a sim server (batch options given) and a temp folder. */
export async function withSim(
  options: SimServerOptions,
  fn: (baseURL: string, dir: string) => Promise<void>,
): Promise<void> {
  const dir = await Deno.makeTempDir({ prefix: "batch_" });
  const server = await startSimServer(options);
  try {
    await fn(server.baseURL, dir);
  } finally {
    await server.close();
    await Deno.remove(dir, { recursive: true });
  }
}

/** The rows of the same config run online (the reference). */
export async function onlineRows(
  config: SweepConfig,
): Promise<Map<string, Record<string, unknown>>> {
  const result = await runSweep(config, { progress: "none" });
  return await rowsByKey(result.runDir);
}
