/**
 * Completion tokens a reply is expected to use when no earlier run of the
 * model measured them: the suite's own figure, else a generic rule read
 * from the template.
 *
 * @module
 */
import type { Suite, Template } from "../suites/types.ts";

/** Where an output-token estimate came from. */
export type OutputSource = "measured" | "suite" | "heuristic";

/** Expected completion tokens of one request, and how that was made. */
export interface OutputEstimate {
  /** Completion tokens per request. */
  perRequest: number;
  /** `measured` (an earlier run), `suite` (the suite's figure) or `heuristic`. */
  source: OutputSource;
  /** How the figure was made, in a few words. */
  note: string;
}

/** Tokens of a bare answer (a number, a letter, a short box). */
export const ANSWER_ONLY_TOKENS = 16;
/** Share of `max_tokens` a reply that shows its working is expected to use. */
export const WORKING_SHARE = 1 / 3;
/** Share of `max_tokens` any other reply is expected to use. */
export const OTHER_SHARE = 1 / 4;

// Read from the template's id and description, never from a suite's name.
const WORKING =
  /\b(cot|step|steps|chain[- ]of[- ]thought|explain|explains|reasoning|think|plan)\b|思考|步骤/i;
const ANSWER_ONLY = /\bonly\b|answer-only|只输出|只回答/i;

/**
 * Estimates the completion tokens of one reply to a template before any
 * run: the suite's `outputTokens` when it gives one; else a template that
 * asks for working (chain of thought, steps, an explanation) is taken to
 * use {@linkcode WORKING_SHARE} of `max_tokens`, one that asks for the
 * answer only {@linkcode ANSWER_ONLY_TOKENS}, and any other
 * {@linkcode OTHER_SHARE} of `max_tokens`. Never more than `max_tokens`.
 *
 * @param suite The suite (only its optional `outputTokens` is used).
 * @param request `templateId`, the template's id in the suite; `template`
 *   (its id and description are read); and `maxTokens`, the request's
 *   `max_tokens`.
 * @returns The estimate with its source and how it was made.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { heuristicOutput } from "./output_estimate.ts";
 * const template = { id: "cot", description: "Step by step, then 'Final answer: <n>'.", render: () => [] };
 * const estimate = heuristicOutput({}, { templateId: "cot", template, maxTokens: 900 });
 * assert.equal(estimate.perRequest, 300);
 * assert.equal(estimate.source, "heuristic");
 * ```
 */
export function heuristicOutput(
  suite: Pick<Suite, "outputTokens">,
  { templateId, template, maxTokens }: {
    templateId: string;
    template: Pick<Template, "id" | "description">;
    maxTokens: number;
  },
): OutputEstimate {
  const own = suite.outputTokens?.(templateId, maxTokens);
  if (own !== undefined && Number.isFinite(own) && own >= 0) {
    return {
      perRequest: Math.min(maxTokens, own),
      source: "suite",
      note: "the suite's typical reply length",
    };
  }
  const text = `${templateId} ${template.id} ${template.description}`;
  if (WORKING.test(text)) {
    return {
      perRequest: Math.ceil(maxTokens * WORKING_SHARE),
      source: "heuristic",
      note: "shows working: max_tokens/3",
    };
  }
  if (ANSWER_ONLY.test(text)) {
    return {
      perRequest: Math.min(maxTokens, ANSWER_ONLY_TOKENS),
      source: "heuristic",
      note: `answer only: ${ANSWER_ONLY_TOKENS} tokens`,
    };
  }
  return {
    perRequest: Math.ceil(maxTokens * OTHER_SHARE),
    source: "heuristic",
    note: "free reply: max_tokens/4",
  };
}
