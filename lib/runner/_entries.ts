/**
 * The suites of a sweep with their questions and chosen templates, loaded
 * and checked before anything is written.
 *
 * @module
 */
import type { SweepConfig } from "../config/schema.ts";
import type { Suite, SuiteList } from "../suites/types.ts";
import type { SuiteEntry } from "./_work.ts";

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
  override name = "SweepInputError";
}

/** What {@linkcode loadEntries} returns. */
export interface LoadedEntries {
  entries: SuiteEntry[];
  /** Questions per suite name (summed over entries of one suite). */
  questionCounts: Record<string, number>;
}

/**
 * Loads every suite entry of a config: its questions (at most `limit`),
 * its templates; refuses duplicate question ids (row keys would collide)
 * and unknown templates.
 */
export async function loadEntries(
  config: SweepConfig,
  suites: SuiteList,
  baseDir: string,
  limit: number | undefined,
): Promise<LoadedEntries> {
  const entries: SuiteEntry[] = [];
  const questionCounts: Record<string, number> = {};
  const seenIds = new Set<string>();
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
      });
    } catch (error) {
      const why = error instanceof Error ? error.message : String(error);
      throw new SweepInputError(
        `Cannot load the questions of suite "${suite.name}" (suites[${i}]): ${why}`,
      );
    }
    if (questions.length === 0) {
      throw new SweepInputError(
        `Cannot run suite "${suite.name}" (suites[${i}]): its params select no questions; widen them (see the suite's params in README.md)`,
      );
    }
    if (limit !== undefined) questions = questions.slice(0, limit);
    for (const q of questions) {
      if (seenIds.has(q.id)) {
        throw new SweepInputError(
          `Cannot run the sweep: question id "${q.id}" occurs twice (suite ${suiteConfig.name}); row keys would collide`,
        );
      }
      seenIds.add(q.id);
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
    entries.push({ config: suiteConfig, suite, questions, templates });
  }
  return { entries, questionCounts };
}
