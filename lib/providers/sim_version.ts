/**
 * The version of the simulated model's engine (profiles, mistakes,
 * rendering): raise it whenever the same prompt would get another reply.
 * The response cache keys sim replies by it and by the versions of the
 * suites whose skills answer (`simVersion`), so a changed sim never serves
 * replies it made before the change. Its own module, so the runner can
 * read it without loading the sim.
 *
 * @module
 */

/** The sim engine's version. */
export const SIM_ENGINE_VERSION = "1";

/**
 * What a sim reply depends on besides its prompt: the engine's version and
 * each skill-bearing suite's version.
 *
 * @param suites The sweep's suites (those with sim skills count).
 * @returns A text for the cache key, e.g. `sim 1; arithmetic 1, ceval 1`.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { simVersion } from "./sim_version.ts";
 * const suites = [{ name: "a", version: "2", simSkills: [{}] }, { name: "b" }];
 * assert.equal(simVersion(suites), "sim 1; a 2");
 * ```
 */
export function simVersion(
  suites: readonly {
    name: string;
    version?: string | undefined;
    simSkills?: readonly unknown[] | undefined;
  }[],
): string {
  const skilled = suites.filter((s) => (s.simSkills?.length ?? 0) > 0)
    .map((s) => `${s.name} ${s.version ?? "0"}`);
  return `sim ${SIM_ENGINE_VERSION}; ${skilled.join(", ")}`;
}
