/**
 * The Wilson score interval, as the report's modules and its public API
 * name it; it is computed in `lib/judge/wilson.ts`, where the suites'
 * declared accuracy metric reads it without loading report code.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { wilsonInterval, Z95 } from "./wilson.ts";
 * assert.equal(wilsonInterval(0, 10).lo, 0);
 * assert.ok(Z95 > 1.95 && Z95 < 1.97);
 * ```
 *
 * @module
 */
export {
  type WilsonInterval,
  wilsonInterval,
  type WilsonOptions,
  Z95,
} from "../judge/wilson.ts";
