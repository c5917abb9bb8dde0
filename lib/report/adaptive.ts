/**
 * The report's view of adaptive designs: each design's breaking point
 * with its 95% interval, as its run's manifest recorded it (rebuilt from
 * its counts, so the sizes it never asked count too), the rows it asked,
 * why it stopped, and what the full grid would have asked for the same
 * width.
 *
 * @module
 */
import pl from "nodejs-polars";
import { CrossingDesign } from "../adaptive/crossing.ts";
import { gridRequests } from "../adaptive/grid.ts";
import type { AdaptiveGroupState } from "../store/mod.ts";
import type { LoadedRuns } from "./load.ts";
import type { ReportSection } from "./suite_view.ts";
import { tableHtml } from "./table.ts";

/** One design's line in the report. */
export interface AdaptiveDesignLine {
  /** The run folder, when the report has more than one run. */
  run: string;
  /** The model's name. */
  model: string;
  /** The suite's name. */
  suite: string;
  /** The template id. */
  template: string;
  /** The design's group (e.g. an arithmetic family). */
  group: string;
  /** The crossing with its interval, or where it lies beyond the sizes. */
  breaks_at: string;
  /** Rows the design asked. */
  rows: number;
  /** Questions it could have asked (its sizes × `count`). */
  questions: number;
  /** Why it stopped. */
  stopped: string;
  /** Requests the full grid needs for the width reached (simulated), or null. */
  grid: number | null;
}

/** Rungs of questions per size tried for the grid: 5, 10, ..., 200. */
const LADDER = Array.from({ length: 40 }, (_, i) => 5 * (i + 1));

/**
 * Each adaptive design of the runs, from their manifests.
 *
 * @param loaded What `loadRuns` returned.
 * @returns One line per design, in the manifests' order.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import pl from "nodejs-polars";
 * import { adaptiveDesigns } from "./adaptive.ts";
 * const state = {
 *   entry: "suites[0]", suite: "arithmetic", model: "m", template: "direct", group: "mul",
 *   dim: "digits", target: 0.5, width: 1, mean: 4.5, low: 4.1, high: 4.9, trials: 200,
 *   rows: 200, questions: 480, asked: { "4": 100, "5": 100 }, sizes: [3, 4, 5, 6],
 *   counts: { "4": [70, 30], "5": [30, 70] }, stopped: "width", beyond: null,
 * };
 * const runs = [{ dir: "r", manifest: { adaptive: [state] }, rows: 200, torn: false }];
 * const [line] = adaptiveDesigns({ frame: pl.DataFrame({}), dims: [], runs, warnings: [] });
 * assert.match(line!.breaks_at, /^4\.\d \[\d\.\d, \d\.\d\]$/);
 * assert.equal(line!.stopped, "at the width");
 * assert.equal(line!.breaks_at, "4.5 [4.3, 4.7]");
 * assert.equal(line!.grid! % 4, 0); // k questions at each of the 4 sizes
 * ```
 */
export function adaptiveDesigns(loaded: LoadedRuns): AdaptiveDesignLine[] {
  const out: AdaptiveDesignLine[] = [];
  for (const run of loaded.runs) {
    const states = run.manifest?.adaptive;
    if (!Array.isArray(states)) continue;
    for (const s of states as AdaptiveGroupState[]) {
      if (!Array.isArray(s.sizes) || typeof s.counts !== "object") continue;
      // Rebuilt from its counts: the same posterior the design stopped on.
      const design = new CrossingDesign({
        sizes: s.sizes,
        target: s.target,
        width: s.width,
      });
      for (const [size, [correct, wrong]] of Object.entries(s.counts)) {
        design.updateMany(Number(size), { correct, wrong });
      }
      const e = design.estimate();
      const last = s.sizes.at(-1)!, first = s.sizes[0]!;
      const breaks = e.low >= last
        ? `above all sizes (${last})`
        : e.high <= first
        ? `below all sizes (${first})`
        : `${e.mean.toFixed(1)} [${e.low.toFixed(1)}, ${e.high.toFixed(1)}]`;
      out.push({
        run: run.dir,
        model: s.model,
        suite: s.suite,
        template: s.template,
        group: s.group,
        breaks_at: breaks,
        rows: s.rows,
        questions: s.questions,
        stopped: s.stopped === "width"
          ? "at the width"
          : s.stopped === "questions"
          ? "questions used up"
          : "not yet (resume)",
        grid: gridRequests({
          curve: (x) => design.predicted(x),
          sizes: s.sizes,
          target: s.target,
          // The width it reached (wider than asked when its questions ran
          // out first).
          width: Math.max(s.width, e.high - e.low),
          ladder: LADDER,
        }),
      });
    }
  }
  return out;
}

/**
 * What the leaderboard says of suites whose rows adaptive designs chose:
 * each model was asked where it breaks, so its accuracy sits near the
 * target by design and does not rank the models. Null when no run is
 * adaptive.
 *
 * @param loaded What `loadRuns` returned.
 * @returns An HTML note, or null.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import pl from "nodejs-polars";
 * import { adaptiveLeaderboardNote } from "./adaptive.ts";
 * const run = (manifest: Record<string, unknown>) => ({ dir: "r", manifest, rows: 0, torn: false });
 * const loaded = (m: Record<string, unknown>) => ({ frame: pl.DataFrame({}), dims: [], runs: [run(m)], warnings: [] });
 * assert.equal(adaptiveLeaderboardNote(loaded({})), null);
 * assert.match(adaptiveLeaderboardNote(loaded({ adaptive: [{ suite: "arithmetic" }] }))!, /rows of arithmetic were chosen per model/);
 * ```
 */
export function adaptiveLeaderboardNote(loaded: LoadedRuns): string | null {
  const suites = new Set<string>();
  for (const run of loaded.runs) {
    const states = run.manifest?.adaptive;
    if (!Array.isArray(states)) continue;
    for (const s of states as AdaptiveGroupState[]) suites.add(s.suite);
  }
  if (suites.size === 0) return null;
  return `<p class="note">Adaptive: the rows of ${
    [...suites].sort().join(", ")
  } were chosen per model where it breaks, so accuracy there sits near each design's target by construction and does not rank the models; compare their breaking points under Adaptive designs.</p>`;
}

/**
 * The "Adaptive designs" section, or null when no run is adaptive.
 *
 * @param loaded What `loadRuns` returned.
 * @returns The section: a paragraph on the method and one table line per design.
 */
export function adaptiveSection(loaded: LoadedRuns): ReportSection | null {
  const lines = adaptiveDesigns(loaded);
  if (lines.length === 0) return null;
  const runs = new Set(lines.map((l) => l.run)).size > 1;
  const asked = lines.reduce((n, l) => n + l.rows, 0);
  const grid = lines.every((l) => l.grid !== null)
    ? lines.reduce((n, l) => n + l.grid!, 0)
    : null;
  const frame = pl.DataFrame(
    lines.map((l) => ({
      ...(runs ? { run: l.run } : {}),
      model: l.model,
      suite: l.suite,
      template: l.template,
      group: l.group,
      breaks_at: l.breaks_at,
      rows: l.rows,
      of: l.questions,
      stopped: l.stopped,
      grid_requests: l.grid,
    })),
  );
  return {
    title: "Adaptive designs",
    parts: [
      `<p>Each design asked one question at a time at the size expected to tell most about where accuracy crosses its target, and stopped once the crossing's 95% interval was no wider than its width or no question left could narrow it (docs/adaptive.md). The interval is the design's own posterior, which counts the sizes it never asked; the suite's breaking-point table fits the rows alone. grid_requests is what the full grid (the same number of questions at every size) would need for the width the design reached, simulated from the design's fitted curve (an estimate, not data). ${
        grid === null
          ? ""
          : `In all: ${asked.toLocaleString("en")} rows asked, against about ${
            grid.toLocaleString("en")
          } for the grid.`
      }</p>`,
      tableHtml(frame),
    ],
  };
}
