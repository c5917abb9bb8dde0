/**
 * Completion tokens and latency measured by earlier runs of the same
 * models, read from their run folders.
 *
 * @module
 */
import { join } from "node:path";
import type { ModelConfig } from "../config/schema.ts";
import { SweepInputError } from "../runner/mod.ts";
import {
  type Manifest,
  MANIFEST_FILE,
  readManifest,
  readResults,
  RESULTS_FILE,
} from "../store/mod.ts";

/** What an earlier run measured for one model × suite × template. */
export interface Measurement {
  /** Mean `completion_tokens` of the successful rows. */
  completionTokens: number;
  /** Median `latency_ms` of the successful rows that were not cached; null when none. */
  latencyMs: number | null;
  /** Successful rows measured. */
  rows: number;
  /** Of those, the rows with a key to judge against (not `unscored`). */
  scored: number;
  /** Of the scored rows, the correct ones. */
  correct: number;
  /** The run folder measured. */
  run: string;
}

/** Measurements by `model|suite|template`, and per model (`model||`). */
export type Measurements = Map<string, Measurement>;

/**
 * How often two models of an earlier run answered the same question
 * differently (one correct, one not), pooled over every pair of models
 * that both have a scored row for it: the discordant share the paired
 * test's power depends on.
 */
export interface Discordance {
  /** Model pairs × questions where exactly one of the two was correct. */
  differ: number;
  /** Model pairs × questions both answered (scored rows). */
  both: number;
  /** The run folder measured. */
  run: string;
}

/** What earlier runs measured: per model × suite × template, and per suite the discordance. */
export interface MeasuredRuns {
  /** By {@linkcode measurementKey}. */
  byKey: Measurements;
  /** By suite name; only suites where two or more models shared questions. */
  discordance: Map<string, Discordance>;
}

/** Options of {@linkcode measureRuns}. */
export interface MeasureRunsOptions {
  /**
   * Run folders to measure, in order of preference.
   * @default {the run folders in `outputDir`, newest first}
   */
  runs?: readonly string[];
  /** Folder searched for run folders when `runs` is not given. */
  outputDir?: string;
  /**
   * Stop reading after this many rows in all (older runs are then left out).
   * @default {500_000}
   */
  maxRows?: number;
}

/**
 * The key of a measurement: `model|suite|template`, with `suite` and
 * `template` empty for the model's figure over all its rows.
 *
 * @param model The model name.
 * @param options `suite`, the suite name, and `template`, the template id
 *   (both "" for the model's own figure).
 * @returns The key.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { measurementKey } from "./measured.ts";
 * assert.equal(measurementKey("m", { suite: "arithmetic", template: "cot" }), "m|arithmetic|cot");
 * assert.equal(measurementKey("m"), "m||");
 * ```
 */
export function measurementKey(
  model: string,
  { suite = "", template = "" }: { suite?: string; template?: string } = {},
): string {
  return `${model}|${suite}|${template}`;
}

interface Acc {
  tokens: number;
  rows: number;
  scored: number;
  correct: number;
  latencies: number[];
}

function median(values: number[]): number | null {
  if (values.length === 0) return null;
  const sorted = [...values].sort((a, b) => a - b);
  const mid = sorted.length >> 1;
  return sorted.length % 2 === 1
    ? sorted[mid]!
    : (sorted[mid - 1]! + sorted[mid]!) / 2;
}

async function runFolders(outputDir: string): Promise<string[]> {
  const found: { dir: string; startedAt: string }[] = [];
  try {
    for await (const entry of Deno.readDir(outputDir)) {
      if (!entry.isDirectory || entry.name.startsWith(".")) continue;
      const dir = join(outputDir, entry.name);
      try {
        const manifest = await readManifest(dir);
        found.push({ dir, startedAt: manifest.startedAt ?? "" });
      } catch {
        // Not a run folder (reports, caches): nothing to measure.
      }
    }
  } catch (error) {
    if (error instanceof Deno.errors.NotFound) return [];
    throw error;
  }
  return found.sort((a, b) => b.startedAt.localeCompare(a.startedAt))
    .map((f) => f.dir);
}

/**
 * Reads earlier runs for the mean completion tokens and the median latency
 * of each model × suite × template (and per model), counting only rows of
 * a model with the same name, provider and model id, and without an error.
 * The first run (newest) that has rows for a key gives its figure; runs
 * are not mixed.
 *
 * The discordance of a suite comes from the newest run in which two of the
 * planned models answered its questions.
 *
 * @param models The models being planned.
 * @param options Which runs to read.
 * @returns The measurements by {@linkcode measurementKey}, and the
 *   discordance per suite.
 * @throws {SweepInputError} when a run named in `runs` has no readable manifest.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { measureRuns } from "./measured.ts";
 * const empty = await Deno.makeTempDir();
 * const found = await measureRuns([{ name: "m", provider: "sim" } as never], { outputDir: empty });
 * assert.equal(found.byKey.size, 0);
 * assert.equal(found.discordance.size, 0);
 * await Deno.remove(empty);
 * ```
 */
export async function measureRuns(
  models: readonly Pick<ModelConfig, "name" | "provider" | "model">[],
  options: MeasureRunsOptions = {},
): Promise<MeasuredRuns> {
  const { maxRows = 500_000 } = options;
  const explicit = options.runs !== undefined;
  const runs = options.runs ??
    await runFolders(options.outputDir ?? "outputs");
  const wanted = new Map(
    models.map((m) => [m.name, `${m.provider}:${m.model ?? m.name}`]),
  );
  const found: Measurements = new Map();
  const discordance = new Map<string, Discordance>();
  let read = 0;
  for (const run of runs) {
    if (read >= maxRows) break;
    let manifest: Manifest;
    try {
      manifest = await readManifest(run);
    } catch (error) {
      if (explicit) {
        throw new SweepInputError(
          `Cannot plan from ${run}: ${
            (error as Error).message
          }; give a run folder (with ${MANIFEST_FILE})`,
        );
      }
      continue;
    }
    const same = new Set(
      (manifest.models ?? []).filter((m) =>
        wanted.get(m.name) === `${m.provider}:${m.model}`
      ).map((m) => m.name),
    );
    if (same.size === 0) continue;
    const accs = new Map<string, Acc>();
    // suite → question|template|sample → correct per model (scored rows).
    const outcomes = new Map<string, Map<string, boolean[]>>();
    const modelIndex = new Map([...same].map((m, i) => [m, i]));
    const add = (
      key: string,
      tokens: number,
      latency: number | null,
      row: { status: string; correct: boolean },
    ) => {
      let acc = accs.get(key);
      if (acc === undefined) {
        accs.set(
          key,
          acc = { tokens: 0, rows: 0, scored: 0, correct: 0, latencies: [] },
        );
      }
      acc.tokens += tokens;
      acc.rows++;
      if (row.status !== "unscored") {
        acc.scored++;
        if (row.correct) acc.correct++;
      }
      if (latency !== null) acc.latencies.push(latency);
    };
    for await (
      const row of readResults(join(run, RESULTS_FILE), { onBadLine: () => {} })
    ) {
      if (++read > maxRows) break;
      if (!same.has(row.model) || row.error_kind !== null) continue;
      const latency = row.cached ? null : row.latency_ms;
      add(
        measurementKey(row.model, { suite: row.suite, template: row.template }),
        row.completion_tokens,
        latency,
        row,
      );
      add(measurementKey(row.model), row.completion_tokens, latency, row);
      if (row.status !== "unscored" && same.size > 1) {
        let bySuite = outcomes.get(row.suite);
        if (bySuite === undefined) outcomes.set(row.suite, bySuite = new Map());
        const item = `${row.question_id}|${row.template}|${row.sample}`;
        let byModel = bySuite.get(item);
        if (byModel === undefined) bySuite.set(item, byModel = []);
        byModel[modelIndex.get(row.model)!] = row.correct;
      }
    }
    for (const [key, acc] of accs) {
      if (found.has(key) || acc.rows === 0) continue;
      found.set(key, {
        completionTokens: acc.tokens / acc.rows,
        latencyMs: median(acc.latencies),
        rows: acc.rows,
        scored: acc.scored,
        correct: acc.correct,
        run,
      });
    }
    for (const [suite, items] of outcomes) {
      if (discordance.has(suite)) continue;
      let differ = 0, both = 0;
      for (const byModel of items.values()) {
        const right = byModel.filter((c) => c === true).length;
        const wrong = byModel.filter((c) => c === false).length;
        differ += right * wrong;
        both += (right + wrong) * (right + wrong - 1) / 2;
      }
      if (both > 0) discordance.set(suite, { differ, both, run });
    }
  }
  return { byKey: found, discordance };
}
