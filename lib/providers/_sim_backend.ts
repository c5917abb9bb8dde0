/**
 * The simulated model's two entry points, as one injectable object.
 * Private to `lib/providers`.
 *
 * @module
 */
import type { SimReply, SimRequest } from "./sim/types.ts";
import { simChat, simModelList } from "./sim/mod.ts";

/** One `/v1/models` entry. */
export interface SimModelEntry {
  id: string;
  object: "model";
  created: number;
  owned_by: string;
}

/** What the providers and the server need from the sim. */
export interface SimBackend {
  /** Answers one request; throws a `RangeError` for an unknown model. */
  simChat(request: SimRequest): SimReply;
  /** The profiles, as `/v1/models` lists them. */
  simModelList(): SimModelEntry[];
}

/** The real simulated model. */
export const defaultSimBackend: SimBackend = { simChat, simModelList };
