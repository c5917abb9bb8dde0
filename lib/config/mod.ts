/**
 * Sweep configs: the zod schema, loading from JSON files, and checks that
 * run before any request is sent.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { parseConfig } from "./mod.ts";
 * const config = parseConfig({
 *   models: [{ name: "sim-average", provider: "sim" }],
 *   suites: [{ name: "arithmetic" }],
 * }, "inline");
 * assert.equal(config.models[0]?.concurrency, 16);
 * ```
 *
 * @module
 */
export * from "./schema.ts";
export {
  checkEnv,
  ConfigError,
  formatPath,
  loadConfig,
  parseConfig,
} from "./load.ts";
export {
  checkEndpoints,
  type CheckEndpointsOptions,
  type EndpointReport,
} from "./endpoints.ts";
