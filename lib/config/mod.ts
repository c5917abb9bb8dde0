/**
 * Sweep configs: the zod schema, loading from JSON files, and checks that
 * run before any request is sent.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { parseConfig } from "./mod.ts";
 * const TOY = { name: "toy", validateParams: () => ({ ok: true as const }), templates: { direct: {} } };
 * const config = parseConfig({
 *   models: [{ name: "sim-average", provider: "sim" }],
 *   suites: [{ name: "toy" }],
 * }, "inline", { suites: [TOY] });
 * assert.equal(config.models[0]?.concurrency, 16);
 * ```
 *
 * @module
 */
export * from "./schema.ts";
export * from "./row_config.ts";
export {
  checkEnv,
  ConfigError,
  formatPath,
  loadConfig,
  parseConfig,
  type SuiteSpec,
} from "./load.ts";
export {
  checkEndpoints,
  type CheckEndpointsOptions,
  type EndpointReport,
} from "./endpoints.ts";
