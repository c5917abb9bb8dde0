/**
 * The simulated model's two entry points, as one injectable object.
 * Private to `lib/providers`.
 *
 * @module
 */
import type { SimReply, SimRequest } from "./sim/types.ts";
import {
  type RegisteredSkill,
  simChoices,
  simModelList,
  simSkillFor,
} from "./sim/mod.ts";

/** One `/v1/models` entry. */
export interface SimModelEntry {
  /** The model (profile) name, e.g. `"sim-strong"`. */
  id: string;
  /** Always `"model"`, as in the OpenAI API. */
  object: "model";
  /** Creation time in Unix seconds (a fixed value for the sim). */
  created: number;
  /** The owner the API reports. */
  owned_by: string;
}

/** What the providers and the server need from the sim. */
export interface SimBackend {
  /**
   * Answers one request (with `n` choices when it asks for several);
   * throws a `RangeError` for an unknown model, a `TypeError` for a bad `n`.
   */
  simChat(request: SimRequest): SimReply;
  /**
   * The skill that reads the request's question, or null when none does
   * (the reply is then a non-answer); throws as `simChat` does. Optional:
   * a backend without it never says it lacks a skill.
   */
  simSkillFor?(request: SimRequest): string | null;
  /** The profiles, as `/v1/models` lists them. */
  simModelList(): SimModelEntry[];
}

/**
 * The real simulated model with these skills (each suite brings its own;
 * `lib/suites/mod.ts` lists them all as `SIM_SKILLS`).
 *
 * @param skills The skills, tried in order.
 * @returns A backend for {@linkcode SimProvider}s and the sim server.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { createSimBackend } from "./mod.ts";
 * const backend = createSimBackend([]);
 * assert.ok(backend.simModelList().some((m) => m.id === "sim-strong"));
 * const request = { model: "sim-strong", messages: [{ role: "user" as const, content: "Hi" }] };
 * assert.equal(backend.simSkillFor?.(request), null); // no skill: a non-answer
 * ```
 */
export function createSimBackend(
  skills: readonly RegisteredSkill[],
): SimBackend {
  return {
    simChat: (request) => simChoices(request, skills),
    simSkillFor: (request) => simSkillFor(request, skills),
    simModelList,
  };
}

/** The sim without any skill: it reads no question and says so. */
export const defaultSimBackend: SimBackend = createSimBackend([]);
