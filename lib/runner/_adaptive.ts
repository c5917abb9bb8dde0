/**
 * The adaptive path of a model's lane: per (entry, template, group) a
 * curve-free crossing design (`lib/adaptive/crossing.ts`) picks each next question's
 * size from the outcomes so far, and the group stops once the crossing's
 * 95% interval is no wider than the entry's `width`, or its questions run
 * out (or none of those left could narrow the interval). One question at a time per group (each answer decides the next);
 * the groups of a lane run side by side on its workers. Resuming replays
 * the design from the stored rows: the same outcomes give the same
 * choices, so the stored rows are met again in order and the design goes
 * on where it stopped. Private to `lib/runner`.
 *
 * @module
 */
import { CrossingDesign } from "../adaptive/crossing.ts";
import type { AdaptivePool } from "../adaptive/pools.ts";
import { isScored } from "../judge/status.ts";
import type { Template } from "../suites/types.ts";
import type { Question, ResultRow } from "../types.ts";
import type { AdaptiveGroupState } from "../store/mod.ts";
import { rowKey } from "./row.ts";
import type { SuiteEntry, WorkItem } from "./work.ts";

/**
 * A design stops when the best size left is expected to remove less than
 * this share of the crossing's variance: near the end of a useful run a
 * question removes about 1%, a size far from the crossing about 1e-6.
 */
const NO_GAIN = 1e-4;

/** One design's work for a model: an (entry, template, group). */
export interface AdaptiveJob {
  /** The entry's index in the config's suites. */
  index: number;
  entry: SuiteEntry;
  templateId: string;
  template: Template;
  pool: AdaptivePool<Question>;
}

/**
 * A row's outcome for a design: whether it is correct, for a scored row
 * (an error row counts as wrong, as in accuracy); null for a row without
 * a key.
 */
export function outcomeOf(row: ResultRow): boolean | null {
  return isScored(row) ? row.status === "correct" : null;
}

/** Every adaptive (entry, template, group) of a sweep, in config order. */
export function adaptiveJobs(entries: readonly SuiteEntry[]): AdaptiveJob[] {
  return entries.flatMap((entry, index) =>
    entry.adaptive === undefined ? [] : entry.templates.flatMap((
      [templateId, template],
    ) =>
      entry.adaptive!.pools.map((pool) => ({
        index,
        entry,
        templateId,
        template,
        pool,
      }))
    )
  );
}

/** What {@linkcode runAdaptiveJob} works with. */
export interface AdaptiveLane {
  model: string;
  /** Outcomes of the rows stored before (resume), by key. */
  stored: ReadonlyMap<string, boolean | null>;
  /** Asks a work item and returns its row (null: not written, the sweep stopping). */
  ask(item: WorkItem): Promise<ResultRow | null>;
  /** Called per stored row met again. */
  onSkip(): void;
  /** Whether the lane (or the sweep) has stopped. */
  halted(): boolean;
}

/**
 * Runs one design to its end (or the lane's stop).
 *
 * @returns The design's state for the manifest.
 */
export async function runAdaptiveJob(
  job: AdaptiveJob,
  lane: AdaptiveLane,
): Promise<AdaptiveGroupState> {
  const { entry, pool, templateId, template } = job;
  const { dim, target, width } = entry.adaptive!;
  const design = new CrossingDesign({ sizes: pool.sizes, target, width });
  const used = new Map<number, number>(pool.sizes.map((s) => [s, 0]));
  const counts = new Map<number, [number, number]>();
  let rows = 0;
  let stopped: AdaptiveGroupState["stopped"] = null;
  while (!lane.halted()) {
    if (design.estimate().done) {
      stopped = "width";
      break;
    }
    const open = pool.sizes.filter((s) =>
      used.get(s)! < pool.questions.get(s)!.length
    );
    // No questions left, or none left that could narrow the interval
    // (the sizes around the crossing are used up).
    const next = open.length === 0 ? null : design.choose(open);
    if (next === null || next.gain < NO_GAIN) {
      stopped = "questions";
      break;
    }
    const size = next.size;
    const question = pool.questions.get(size)![used.get(size)!]!;
    const key = rowKey({
      model: lane.model,
      question: question.id,
      template: templateId,
      sample: 0,
    });
    let outcome: boolean | null;
    if (lane.stored.has(key)) {
      lane.onSkip();
      outcome = lane.stored.get(key)!;
    } else {
      const row = await lane.ask({
        entry,
        question,
        templateId,
        template,
        sample: 0,
      });
      if (row === null) break; // stopping: asked again on resume
      outcome = outcomeOf(row);
    }
    used.set(size, used.get(size)! + 1);
    rows++;
    if (outcome !== null) {
      design.update(size, outcome);
      const c = counts.get(size) ?? [0, 0];
      c[outcome ? 0 : 1]++;
      counts.set(size, c);
    }
  }
  const e = design.estimate();
  return {
    entry: `suites[${job.index}]`,
    suite: entry.suite.name,
    model: lane.model,
    template: templateId,
    group: pool.group,
    dim,
    target,
    width,
    mean: e.mean,
    low: e.low,
    high: e.high,
    trials: e.trials,
    rows,
    questions: pool.sizes.reduce(
      (n, s) => n + pool.questions.get(s)!.length,
      0,
    ),
    asked: Object.fromEntries(
      pool.sizes.filter((s) => used.get(s)! > 0).map((s) => [
        String(s),
        used.get(s)!,
      ]),
    ),
    sizes: pool.sizes,
    counts: Object.fromEntries(
      [...counts].sort((a, b) => a[0] - b[0]).map(([s, c]) => [String(s), c]),
    ),
    stopped,
    beyond: e.low >= pool.sizes.at(-1)!
      ? "above"
      : e.high <= pool.sizes[0]!
      ? "below"
      : null,
  };
}
