/**
 * The part of a sweep config that decides its rows, and where two configs
 * differ in it (merge checks shards with it, resume checks a config given
 * beside `--resume`).
 *
 * @module
 */
import { canonicalJson } from "../canonical.ts";
import type { SweepConfig } from "./schema.ts";

/** Config fields that do not change what a row says (where and how fast it was asked). */
const HOW_NOT_WHAT = [
  "name",
  "outputDir",
  "cache",
  "concurrency",
  "timeoutMs",
  "retries",
] as const;
const MODEL_HOW_NOT_WHAT = [
  "baseURL",
  "apiKeyEnv",
  "concurrency",
  "rpm",
  "tpm",
  "price",
  "n",
  "allowUnlisted",
] as const;

/**
 * The part of a config that decides the rows: every field but where the
 * requests went, how fast, and where the run was written (`name`,
 * `outputDir`, `cache`, `concurrency`, `timeoutMs`, `retries`; per model
 * `baseURL`, `apiKeyEnv`, `concurrency`, `rpm`, `tpm`, `price`, `n`) —
 * shards may run on machines with their own endpoints and limits, and a
 * row is the same with or without `n`.
 *
 * @param config A sweep config (as stored in a manifest).
 * @returns The config without those fields.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { rowConfig } from "./row_config.ts";
 * const a = { name: "a", seed: 1, outputDir: "x", models: [{ name: "m", baseURL: "http://a/v1" }] };
 * const b = { name: "b", seed: 1, outputDir: "y", models: [{ name: "m", baseURL: "http://b/v1" }] };
 * assert.deepEqual(rowConfig(a as never), rowConfig(b as never));
 * ```
 */
export function rowConfig(config: SweepConfig): Record<string, unknown> {
  const out: Record<string, unknown> = { ...config };
  for (const field of HOW_NOT_WHAT) delete out[field];
  out.models = config.models.map((model) => {
    const m: Record<string, unknown> = { ...model };
    for (const field of MODEL_HOW_NOT_WHAT) delete m[field];
    return m;
  });
  return out;
}

/**
 * Top-level fields (or `models[i].field`) where two row configs differ.
 *
 * @param a One config (as from {@linkcode rowConfig}).
 * @param b The other.
 * @returns The differing fields, in `a`'s key order.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { configDifferences } from "./row_config.ts";
 * assert.deepEqual(configDifferences({ seed: 1, models: [{ name: "a" }] }, { seed: 2, models: [{ name: "b" }] }), ["seed", "models[0].name"]);
 * ```
 */
export function configDifferences(
  a: Record<string, unknown>,
  b: Record<string, unknown>,
): string[] {
  const out: string[] = [];
  for (const key of new Set([...Object.keys(a), ...Object.keys(b)])) {
    if (canonicalJson(a[key]) === canonicalJson(b[key])) continue;
    const x = a[key], y = b[key];
    if (key === "models" && Array.isArray(x) && Array.isArray(y)) {
      if (x.length !== y.length) out.push("models (how many)");
      else {
        x.forEach((m, i) => {
          for (const d of configDifferences(m, y[i])) {
            out.push(`models[${i}].${d}`);
          }
        });
      }
    } else out.push(key);
  }
  return out;
}
