/**
 * Test helpers for suites: score a row through a run of the suite, and the
 * sim bound to every registered suite's skills.
 */
import type { Suite, SuiteRun } from "../lib/suites/types.ts";
import type {
  Completion,
  Extraction,
  Question,
  Verdict,
} from "../lib/types.ts";
import { simChat as simChatWith } from "../lib/providers/sim/mod.ts";
import { createSimBackend } from "../lib/providers/mod.ts";
import type { SimReply, SimRequest } from "../lib/providers/sim/mod.ts";
import { SIM_SKILLS } from "../lib/suites/mod.ts";

/** A score context for suites that need none. */
export const NO_CONTEXT = {
  complete: () => Promise.reject(new Error("no judge model in this test")),
  signal: new AbortController().signal,
};

/**
 * Scores one reply with a run of the suite opened for `params` (default
 * the suite's defaults), closed after.
 */
export async function scoreWith(
  // deno-lint-ignore no-explicit-any
  suite: Suite<any>,
  question: Question,
  completion: Completion,
  extraction: Extraction,
  params: unknown = {},
): Promise<Verdict> {
  const run = await suite.open({ seed: 0, params, baseDir: "." });
  try {
    return await run.score({ question, completion, extraction }, NO_CONTEXT);
  } finally {
    await run.close();
  }
}

/** The sim with every registered suite's skills. */
export function simChat(request: SimRequest): SimReply {
  return simChatWith(request, SIM_SKILLS);
}

/** A sim backend with every registered suite's skills. */
export const SIM_BACKEND = createSimBackend(SIM_SKILLS);

/** Provider context with every registered suite's sim skills. */
export const SIM_CONTEXT = { simSkills: SIM_SKILLS };

/**
 * The suite with each run's hooks replaced by what `wrap` returns for it
 * (a test that watches or breaks scoring).
 */
export function wrapRuns<P>(
  suite: Suite<P>,
  wrap: (run: SuiteRun<P>) => Partial<SuiteRun<P>>,
): Suite<P> {
  return {
    ...suite,
    open: async (options) => {
      const run = await suite.open(options);
      return { ...run, ...wrap(run) };
    },
  };
}
