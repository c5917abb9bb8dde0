/**
 * The suites of a sweep with their questions and chosen templates, loaded
 * and checked before anything is written.
 *
 * @module
 */
import type { SuiteConfig, SweepConfig } from "../config/schema.ts";
import type { Suite, SuiteList, SuiteRun } from "../suites/types.ts";
import type { AdaptiveEntry, SuiteEntry } from "./work.ts";
import { adaptivePools } from "../adaptive/pools.ts";
import type { Question } from "../types.ts";
import type { IdentityInput } from "../store/mod.ts";
import { InputLog } from "../inputs/log.ts";
import { collisionMessage } from "./_collision.ts";

/**
 * Looks a suite up in the list a sweep was given.
 *
 * @throws {RangeError} naming the known suites.
 */
export function findSuite(suites: SuiteList, name: string): Suite {
  const suite = suites.find((s) => s.name === name);
  if (suite === undefined) {
    throw new RangeError(
      `Cannot find suite "${name}": known suites are ${
        suites.map((s) => s.name).sort().join(", ")
      }`,
    );
  }
  return suite;
}

/**
 * Bad input found before a sweep starts (a dataset a suite cannot read, a
 * template it does not have, colliding question ids): nothing was created,
 * and the message says what to fix. The CLI exits 2 on it.
 */
export class SweepInputError extends Error {
  /** Always `"SweepInputError"`; stack traces and logs show it before the message. */
  override name = "SweepInputError";
}

/** What {@linkcode loadEntries} returns. */
export interface LoadedEntries {
  /** One entry per suite in the config, in config order, each with its open run. */
  entries: SuiteEntry[];
  /** Questions per suite name (summed over entries of one suite). */
  questionCounts: Record<string, number>;
  /** The input files the questions were read from, by content. */
  inputs: IdentityInput[];
  /** Closes every entry's run (what the suites opened). Safe to call twice. */
  close(): Promise<void>;
}

/** What {@linkcode loadEntries} needs besides the config. */
export interface LoadEntriesOptions {
  /** The suites the config may name. */
  suites: SuiteList;
  /** The folder relative dataset paths resolve against. */
  baseDir: string;
  /** At most this many questions per entry. @default all */
  limit?: number | undefined;
}

/**
 * Loads every suite entry of a config: opens the suite's run for the
 * entry's params, takes its questions (at most `limit`) and templates;
 * refuses duplicate question ids (row keys would collide; the message
 * names both entries and the params they share) and unknown templates.
 * On a refusal, every run opened so far is closed.
 *
 * @param config The validated sweep config.
 * @param options The suites, the base folder and the limit.
 * @returns The entries (close them when done) and the question count per suite.
 * @throws {SweepInputError} for an unknown suite or template, params a
 *   suite refuses, questions it cannot load, params that select none, a
 *   repeated question id, or judging the machine cannot do
 *   (`SuiteRun.judging` refused).
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { loadEntries, SweepInputError } from "./entries.ts";
 * import { SweepConfigSchema } from "../config/schema.ts";
 * import { SUITES } from "../suites/mod.ts";
 * const config = SweepConfigSchema.parse({
 *   models: [{ name: "m", provider: "sim" }],
 *   suites: [{ name: "arithmetic", params: { digits: [2], count: 5 } }],
 * });
 * const loaded = await loadEntries(config, { suites: SUITES, baseDir: ".", limit: 3 });
 * assert.equal(loaded.entries[0]?.questions.length, 3);
 * assert.deepEqual(loaded.questionCounts, { arithmetic: 3 });
 * await loaded.close();
 * const bad = SweepConfigSchema.parse({ ...config, suites: [{ name: "arithmetic", templates: ["nope"] }] });
 * await assert.rejects(loadEntries(bad, { suites: SUITES, baseDir: "." }), SweepInputError);
 * ```
 */
export async function loadEntries(
  config: SweepConfig,
  options: LoadEntriesOptions,
): Promise<LoadedEntries> {
  const entries: SuiteEntry[] = [];
  const close = async () => {
    await Promise.all(entries.map((e) => e.run.close().catch(() => {})));
  };
  const counts: Record<string, number> = {};
  // Every dataset file the suites read, strictly decoded, by content.
  const log = new InputLog({ baseDir: options.baseDir });
  /** Each question id with the index of the entry that asked it first. */
  const seenIds = new Map<string, number>();
  try {
    for (const [i, suiteConfig] of config.suites.entries()) {
      const entry = await loadEntry(config, i, { ...options, log });
      entries.push(entry);
      for (const q of entry.questions) {
        const first = seenIds.get(q.id);
        if (first !== undefined) {
          throw new SweepInputError(
            collisionMessage(q.id, config.suites, first, i),
          );
        }
        seenIds.set(q.id, i);
      }
      counts[suiteConfig.name] = (counts[suiteConfig.name] ?? 0) +
        entry.questions.length;
    }
  } catch (error) {
    await close();
    throw error;
  }
  return { entries, questionCounts: counts, inputs: log.records(), close };
}

/** One entry of the config, its run open (closed here if it fails). */
async function loadEntry(
  config: SweepConfig,
  i: number,
  options: LoadEntriesOptions & { log: InputLog },
): Promise<SuiteEntry> {
  const suiteConfig = config.suites[i]!;
  let suite: Suite;
  try {
    suite = findSuite(options.suites, suiteConfig.name);
  } catch (error) {
    throw new SweepInputError(message(error));
  }
  const where = `suite "${suite.name}" (suites[${i}])`;
  let run: SuiteRun;
  try {
    run = await suite.open({
      seed: config.seed,
      params: suiteConfig.params,
      baseDir: options.baseDir,
      inputs: options.log,
    });
  } catch (error) {
    throw new SweepInputError(`Cannot open ${where}: ${message(error)}`);
  }
  try {
    let questions;
    try {
      questions = await run.questions();
    } catch (error) {
      throw new SweepInputError(
        `Cannot load the questions of ${where}: ${message(error)}`,
      );
    }
    if (questions.length === 0) {
      throw new SweepInputError(
        `Cannot run ${where}: its params select no questions; widen them (each bundled suite lists its params in docs/${suite.name}.md)`,
      );
    }
    if (options.limit !== undefined) {
      questions = questions.slice(0, options.limit);
    }
    const adaptive = suiteConfig.adaptive === undefined
      ? undefined
      : adaptiveEntry(suite, questions, {
        where,
        settings: suiteConfig.adaptive,
        samples: config.samples,
      });
    // An adaptive entry's questions are those its designs may ask.
    if (adaptive !== undefined) {
      questions = adaptive.pools.flatMap((pool) =>
        pool.sizes.flatMap((size) => pool.questions.get(size)!)
      );
    }
    const ids = suiteConfig.templates ?? suite.defaultTemplates;
    const templates = ids.map((id): SuiteEntry["templates"][0] => {
      const template = suite.templates[id];
      if (template === undefined) {
        throw new SweepInputError(
          `Cannot run the sweep: suite "${suite.name}" has no template "${id}"`,
        );
      }
      return [id, template];
    });
    const entry: SuiteEntry = {
      config: suiteConfig,
      suite,
      run,
      questions,
      templates,
    };
    if (adaptive !== undefined) entry.adaptive = adaptive;
    let judging;
    try {
      judging = await run.judging();
    } catch (error) {
      throw new SweepInputError(
        `Cannot judge ${where} on this machine: ${message(error)}`,
      );
    }
    if (judging !== undefined) entry.judging = judging;
    return entry;
  } catch (error) {
    await run.close().catch(() => {});
    throw error;
  }
}

/**
 * An adaptive entry's pools: its questions by group and size along the
 * dim, as the suite places them.
 *
 * @throws {SweepInputError} for a dim the suite cannot adapt along, more
 *   than one sample, or questions of which none has a place.
 */
function adaptiveEntry(
  suite: Suite,
  questions: readonly Question[],
  options: {
    where: string;
    settings: NonNullable<SuiteConfig["adaptive"]>;
    samples: number;
  },
): AdaptiveEntry {
  const { where, settings, samples } = options;
  const { dim, target, width } = settings;
  const place = suite.adaptive?.[dim];
  if (place === undefined) {
    const dims = Object.keys(suite.adaptive ?? {});
    throw new SweepInputError(
      `Cannot run ${where} adaptively along "${dim}": ${
        dims.length === 0
          ? 'the suite has no ordered size to adapt along; remove "adaptive"'
          : `the suite can adapt along ${
            dims.join(", ")
          }; name one in "adaptive.dim"`
      }`,
    );
  }
  if (samples > 1) {
    throw new SweepInputError(
      `Cannot run ${where} adaptively with ${samples} samples: a design asks each question once; set "samples": 1, or run the entry without "adaptive"`,
    );
  }
  const pools = adaptivePools(questions, place);
  if (pools.length === 0) {
    throw new SweepInputError(
      `Cannot run ${where} adaptively along "${dim}": none of its ${questions.length} questions has a size along it (a preset or dataset without that dim?); widen the params, or remove "adaptive"`,
    );
  }
  return { dim, target, width, pools };
}

/** An error's message. */
function message(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
