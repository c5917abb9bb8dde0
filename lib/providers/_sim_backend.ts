/**
 * The simulated model's two entry points, as one injectable object.
 * Private to `lib/providers`.
 *
 * @module
 */
import type { SimReply, SimRequest } from "./sim/types.ts";
import { type RegisteredSkill, simChoices, simModelList } from "./sim/mod.ts";

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
 * ```
 */
export function createSimBackend(
  skills: readonly RegisteredSkill[],
): SimBackend {
  return {
    simChat: (request) => simChoices(request, skills),
    simModelList,
  };
}

/** The sim without any skill: it reads no question and says so. */
export const defaultSimBackend: SimBackend = createSimBackend([]);
