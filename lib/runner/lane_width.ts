/**
 * How many workers a model's lane runs: its own concurrency, capped by the
 * sweep's global limit.
 *
 * @module
 */
import type { ModelConfig, SweepConfig } from "../config/schema.ts";

/**
 * The number of workers (calls in flight at once) of one model's lane: the
 * model's `concurrency`, at most the sweep's `concurrency`, at least 1.
 * The runner starts this many workers; the plan reckons wall time with it.
 *
 * @param model The model (its `concurrency`).
 * @param config The sweep (its global `concurrency`).
 * @returns The lane's width.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { laneWidth } from "./lane_width.ts";
 * assert.equal(laneWidth({ concurrency: 8 }, { concurrency: 64 }), 8);
 * assert.equal(laneWidth({ concurrency: 100 }, { concurrency: 64 }), 64);
 * ```
 */
export function laneWidth(
  model: Pick<ModelConfig, "concurrency">,
  config: Pick<SweepConfig, "concurrency">,
): number {
  return Math.max(1, Math.min(model.concurrency, config.concurrency));
}
