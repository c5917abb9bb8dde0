/**
 * The run folder: `manifest.json` (what the run is) and `results.jsonl`
 * (one result row per line, appended as each finishes).
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { createRunDir, readResults, ResultsWriter } from "./mod.ts";
 * const base = await Deno.makeTempDir();
 * const dir = await createRunDir(base, "demo");
 * const writer = await ResultsWriter.open(`${dir}/results.jsonl`);
 * writer.append({ key: "m|q|t|0" } as never);
 * await writer.close();
 * const rows = [];
 * for await (const row of readResults(`${dir}/results.jsonl`)) rows.push(row);
 * assert.equal(rows.length, 1);
 * await Deno.remove(base, { recursive: true });
 * ```
 *
 * @module
 */
export * from "./run_dir.ts";
export * from "./manifest.ts";
export * from "./results_writer.ts";
export * from "./results_reader.ts";
export * from "./lines.ts";
export * from "./quarantine.ts";
export * from "./output.ts";
export * from "./redact.ts";
export * from "./identity.ts";
export * from "./same_run.ts";
export * from "./membership.ts";

/** File name of the results inside a run folder. */
export const RESULTS_FILE = "results.jsonl";
/** File name of the manifest inside a run folder. */
export const MANIFEST_FILE = "manifest.json";
