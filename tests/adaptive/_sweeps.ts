/**
 * Adaptive sweeps of the sim's multiplication, seeded, for the coverage
 * test and the bench: each repetition is one real sweep (the arithmetic
 * suite, the in-process sim, the runner's adaptive path) of the three
 * profiles over 1–12 digits with `count` 40 per size and width 1, read
 * back from the run's manifest.
 *
 * @module
 */
import { runSweep } from "../../lib/mod.ts";
import { loadSuites } from "../../lib/suites/registry.ts";
import { type AdaptiveGroupState, readManifest } from "../../lib/store/mod.ts";
import { SweepConfigSchema } from "../../lib/config/schema.ts";
import { simCurve, SIZES, trueCrossing } from "./_curves.ts";

/** The profiles whose curves the sweeps run against. */
export const PROFILES = ["sim-strong", "sim-average", "sim-weak"] as const;

/** Questions per size: the cap of each design, and the full grid's k. */
export const COUNT = 40;

/** One design's end against its profile's true crossing. */
export interface SweptDesign extends AdaptiveGroupState {
  /** The true crossing of the profile's curve. */
  truth: number;
  /**
   * Whether the interval holds it (the interval's ends are read on a
   * 0.01 grid, so within half a step).
   */
  covered: boolean;
}

/**
 * Runs `repetitions` seeded adaptive sweeps (seeds 1, 2, ...) and returns
 * every design's end.
 */
export async function sweptDesigns(
  repetitions: number,
): Promise<SweptDesign[]> {
  const suites = await loadSuites();
  const dir = await Deno.makeTempDir({ prefix: "adaptive_sweeps_" });
  const out: SweptDesign[] = [];
  try {
    for (let seed = 1; seed <= repetitions; seed++) {
      const config = SweepConfigSchema.parse({
        name: "coverage",
        seed,
        models: PROFILES.map((name) => ({ name, provider: "sim" })),
        suites: [{
          name: "arithmetic",
          params: { families: ["mul"], digits: SIZES, count: COUNT },
          adaptive: { dim: "digits", target: 0.5, width: 1 },
        }],
        outputDir: dir,
        cache: false,
      });
      const result = await runSweep(config, { suites, progress: "none" });
      for (const s of (await readManifest(result.runDir)).adaptive ?? []) {
        const truth = trueCrossing(simCurve(s.model));
        out.push({
          ...s,
          truth,
          covered: s.low - 0.005 <= truth && truth <= s.high + 0.005,
        });
      }
      await Deno.remove(result.runDir, { recursive: true });
    }
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
  return out;
}
