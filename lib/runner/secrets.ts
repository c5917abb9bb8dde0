/**
 * The API keys a sweep may send, to redact from everything it stores.
 *
 * @module
 */
import type { SweepConfig } from "../config/schema.ts";

/** Every `apiKeyEnv` named anywhere in a value (a judge model in suite params). */
function keyVariables(value: unknown, out: Set<string>): Set<string> {
  if (Array.isArray(value)) { for (const v of value) keyVariables(v, out); }
  else if (value !== null && typeof value === "object") {
    for (const [k, v] of Object.entries(value)) {
      if (k === "apiKeyEnv" && typeof v === "string") out.add(v);
      else keyVariables(v, out);
    }
  }
  return out;
}

/**
 * Every API key the sweep may send, to redact from what is stored: the
 * models' and any model named in a suite's params (a judge model).
 *
 * @param config The sweep config.
 * @param env Reads environment variables.
 * @returns The key values (4 characters or more) to redact.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { secretsOf } from "./secrets.ts";
 * const config = { models: [{ apiKeyEnv: "K" }], suites: [{ params: { judge: { apiKeyEnv: "J" } } }] } as never;
 * assert.deepEqual(secretsOf(config, (n) => n === "K" ? "sk-1234" : n === "J" ? "sk-5678" : undefined).sort(), ["sk-1234", "sk-5678"]);
 * ```
 */
export function secretsOf(
  config: SweepConfig,
  env: (name: string) => string | undefined,
): string[] {
  const names = keyVariables(config.suites.map((s) => s.params), new Set());
  for (const m of config.models) {
    if (m.apiKeyEnv !== undefined) names.add(m.apiKeyEnv);
  }
  return [...new Set([...names].map((n) => env(n) ?? ""))]
    .filter((s) => s.length >= 4);
}
