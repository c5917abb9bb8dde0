/**
 * The suites of a sweep with their questions and chosen templates, loaded
 * and checked before anything is written.
 *
 * @module
 */
import type { SweepConfig } from "../config/schema.ts";
import type { Suite, SuiteList } from "../suites/types.ts";
import type { SuiteEntry } from "./work.ts";
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
  /** One entry per suite in the config, in config order. */
  entries: SuiteEntry[];
  /** Questions per suite name (summed over entries of one suite). */
  questionCounts: Record<string, number>;
  /** The input files the questions were read from, by content. */
  inputs: IdentityInput[];
}

/**
 * Loads every suite entry of a config: its questions (at most `limit`),
 * its templates; refuses duplicate question ids (row keys would collide;
 * the message names both entries and the params they share) and unknown
 * templates.
 *
 * @param config The validated sweep config.
 * @param suites The suites the config may name.
 * @param baseDir The folder relative dataset paths resolve against.
 * @param limit At most this many questions per entry; all when undefined.
 * @returns The entries and the question count per suite.
 * @throws {SweepInputError} for an unknown suite or template, questions a
 *   suite cannot load, params that select none, a repeated question id, or
 *   judging the machine cannot do (`Suite.judging` refused).
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
 * const { entries, questionCounts } = await loadEntries(config, SUITES, ".", 3);
 * assert.equal(entries[0]?.questions.length, 3);
 * assert.deepEqual(questionCounts, { arithmetic: 3 });
 * const bad = SweepConfigSchema.parse({ ...config, suites: [{ name: "arithmetic", templates: ["nope"] }] });
 * await assert.rejects(loadEntries(bad, SUITES, ".", 3), SweepInputError);
 * ```
 */
export async function loadEntries(
  config: SweepConfig,
  suites: SuiteList,
  baseDir: string,
  limit: number | undefined,
): Promise<LoadedEntries> {
  const entries: SuiteEntry[] = [];
  const questionCounts: Record<string, number> = {};
  // Every dataset file the suites read, strictly decoded, by content.
  const log = new InputLog({ baseDir });
  /** Each question id with the index of the entry that asked it first. */
  const seenIds = new Map<string, number>();
  for (const [i, suiteConfig] of config.suites.entries()) {
    let suite;
    try {
      suite = findSuite(suites, suiteConfig.name);
    } catch (error) {
      throw new SweepInputError((error as Error).message);
    }
    let questions;
    try {
      questions = await suite.questions({
        seed: config.seed,
        params: suiteConfig.params,
        baseDir,
        inputs: log,
      });
    } catch (error) {
      const why = error instanceof Error ? error.message : String(error);
      throw new SweepInputError(
        `Cannot load the questions of suite "${suite.name}" (suites[${i}]): ${why}`,
      );
    }
    if (questions.length === 0) {
      throw new SweepInputError(
        `Cannot run suite "${suite.name}" (suites[${i}]): its params select no questions; widen them (each bundled suite lists its params in docs/${suite.name}.md)`,
      );
    }
    if (limit !== undefined) questions = questions.slice(0, limit);
    for (const q of questions) {
      const first = seenIds.get(q.id);
      if (first !== undefined) {
        throw new SweepInputError(
          collisionMessage(q.id, config.suites, first, i),
        );
      }
      seenIds.set(q.id, i);
    }
    const ids = suiteConfig.templates ?? suite.defaultTemplates;
    const templates = ids.map(
      (id): SuiteEntry["templates"][0] => {
        const template = suite.templates[id];
        if (template === undefined) {
          throw new SweepInputError(
            `Cannot run the sweep: suite "${suite.name}" has no template "${id}"`,
          );
        }
        return [id, template];
      },
    );
    questionCounts[suiteConfig.name] = (questionCounts[suiteConfig.name] ??
      0) + questions.length;
    const entry: SuiteEntry = {
      config: suiteConfig,
      suite,
      questions,
      templates,
    };
    if (suite.judging !== undefined) {
      try {
        entry.judging = await suite.judging(suiteConfig.params);
      } catch (error) {
        const why = error instanceof Error ? error.message : String(error);
        throw new SweepInputError(
          `Cannot judge suite "${suite.name}" (suites[${i}]) on this machine: ${why}`,
        );
      }
    }
    entries.push(entry);
  }
  return { entries, questionCounts, inputs: log.records() };
}
