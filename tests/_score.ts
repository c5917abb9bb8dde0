/**
 * Test helpers for suites: score a row synchronously (the three original
 * suites score without awaiting) and the sim bound to every registered
 * suite's skills.
 */
import type { Suite } from "../lib/suites/types.ts";
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
  params: {},
  complete: () => Promise.reject(new Error("no judge model in this test")),
  signal: new AbortController().signal,
};

/** Scores with a suite whose scorer does not await; throws if it does. */
export function scoreSync(
  // deno-lint-ignore no-explicit-any
  suite: Suite<any>,
  question: Question,
  completion: Completion,
  extraction: Extraction,
): Verdict {
  const out = suite.score(question, completion, extraction, NO_CONTEXT);
  if (out instanceof Promise) {
    throw new TypeError(`suite ${suite.name} scores asynchronously`);
  }
  return out;
}

/** The sim with every registered suite's skills. */
export function simChat(request: SimRequest): SimReply {
  return simChatWith(request, SIM_SKILLS);
}

/** A sim backend with every registered suite's skills. */
export const SIM_BACKEND = createSimBackend(SIM_SKILLS);

/** Provider context with every registered suite's sim skills. */
export const SIM_CONTEXT = { simSkills: SIM_SKILLS };
