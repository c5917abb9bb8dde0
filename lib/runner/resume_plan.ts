/**
 * The rule of resume: a resumed run keeps the plan its manifest describes.
 *
 * @module
 */
import type { SweepConfig } from "../config/schema.ts";
import { configDifferences, rowConfig } from "../config/row_config.ts";
import { SweepInputError } from "./entries.ts";

/**
 * The rule of resume: the plan is the run's own (its config, `--limit` and
 * shard, as in its manifest), so the manifest always describes the rows.
 * A config whose rows would differ (models, suites, params, seed,
 * templates, samples: see `rowConfig`) or another `--limit` is refused
 * with the command that starts a new run; where the requests go and how
 * fast (endpoints, keys, concurrency, limits) may differ and the run's own
 * are used. A different `--shard` is refused too (by the sweep).
 *
 * @param runDir The run folder being resumed.
 * @param manifest Its manifest (the config and `--limit` it records).
 * @param options The `config` and `limit` (`--limit`) given with
 *   `--resume`, if any.
 * @throws {SweepInputError} naming what differs and the commands to use.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { checkResumePlan } from "./resume_plan.ts";
 * const manifest = { config: { seed: 1, models: [{ name: "m" }], suites: [] }, limit: 5 } as never;
 * checkResumePlan("outputs/r", manifest, { limit: 5 });
 * assert.throws(() => checkResumePlan("outputs/r", manifest, { limit: 3 }), /planned with --limit 5/);
 * const other = { seed: 2, models: [{ name: "m" }], suites: [] } as never;
 * assert.throws(() => checkResumePlan("outputs/r", manifest, { config: other }), /differs in seed/);
 * ```
 */
export function checkResumePlan(
  runDir: string,
  manifest: { config: SweepConfig; limit?: number | undefined },
  options: { config?: SweepConfig; limit?: number | undefined },
): void {
  const { config = manifest.config, limit } = options;
  const fresh = "start a new run instead: deno task sweep <config.json>";
  const differs = configDifferences(
    rowConfig(manifest.config),
    rowConfig(config),
  );
  if (differs.length > 0) {
    throw new SweepInputError(
      `Cannot resume ${runDir} with this config: it plans other rows than the run's own (it differs in ${
        differs.slice(0, 5).join(", ")
      }${
        differs.length > 5 ? ", ..." : ""
      }), and a resumed run keeps the plan its manifest describes; resume with the run's own config (deno task sweep --resume ${runDir}), or ${fresh}`,
    );
  }
  if (limit !== undefined && limit !== manifest.limit) {
    throw new SweepInputError(
      `Cannot resume ${runDir} with --limit ${limit}: the run was planned ${
        manifest.limit === undefined
          ? "without --limit"
          : `with --limit ${manifest.limit}`
      }, and a resumed run keeps the plan its manifest describes; resume without --limit (deno task sweep --resume ${runDir}), or ${fresh} --limit ${limit}`,
    );
  }
}
