/**
 * Which tokenizer encoding counts a model's tokens, and whether that count
 * is exact for the model or an approximation.
 *
 * @module
 */
import type { ModelConfig } from "../config/schema.ts";

/** The encodings a plan can count with (both ship inside `gpt-tokenizer`). */
export type EncodingName = "o200k_base" | "cl100k_base";

/** What {@linkcode encodingFor} chose for a model. */
export interface EncodingChoice {
  /** The encoding tokens are counted with. */
  encoding: EncodingName;
  /** Whether the model itself uses this encoding (OpenAI models). */
  exact: boolean;
  /** One line for the plan: which encoding and why, or what is approximate. */
  note: string;
}

/** OpenAI model id prefixes and their encodings (tiktoken's model table). */
const OPENAI: readonly [RegExp, EncodingName][] = [
  [
    /^(gpt-4o|chatgpt-4o|gpt-4\.1|gpt-4\.5|gpt-5|gpt-oss|o1|o3|o4)/,
    "o200k_base",
  ],
  [/^(gpt-4|gpt-3\.5|text-embedding-(3|ada))/, "cl100k_base"],
];

/** Other families named in the note, by a pattern of their model ids. */
const FAMILIES: readonly [RegExp, string][] = [
  [/qwen|qwq/, "Qwen"],
  [/deepseek/, "DeepSeek"],
  [/llama/, "Llama"],
  [/mistral|mixtral|codestral|ministral/, "Mistral"],
  [/gemma|gemini/, "Gemini/Gemma"],
  [/claude/, "Claude"],
  [/phi-?\d/, "Phi"],
  [/glm/, "GLM"],
  [/\byi\b|yi-/, "Yi"],
  [/kimi|moonshot/, "Kimi"],
];

/**
 * Picks the encoding to count a model's tokens with: `o200k_base` for
 * GPT-4o, 4.1, 4.5, 5, gpt-oss and the o-series; `cl100k_base` for GPT-4
 * and GPT-3.5; `cl100k_base` as a stated approximation for every other
 * family (Qwen, DeepSeek, Llama, Mistral... and the sim use their own
 * tokenizers). The id is the model sent to the endpoint (`model`, else
 * `name`), lower-cased, with any `vendor/` prefix dropped.
 *
 * @param model The model entry of a config.
 * @returns The encoding, whether it is the model's own, and a note.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { encodingFor } from "./encoding.ts";
 * const pick = (model: string) => encodingFor({ name: "m", model, provider: "openai" } as never);
 * assert.equal(pick("gpt-4o-mini").encoding, "o200k_base");
 * assert.equal(pick("openai/gpt-4-turbo").encoding, "cl100k_base");
 * assert.equal(pick("qwen2.5-72b-instruct").exact, false);
 * assert.match(pick("qwen2.5-72b-instruct").note, /approximate: Qwen uses its own tokenizer/);
 * ```
 */
export function encodingFor(
  model: Pick<ModelConfig, "name" | "provider" | "model">,
): EncodingChoice {
  const id = (model.model ?? model.name).toLowerCase();
  if (model.provider === "sim") {
    return {
      encoding: "cl100k_base",
      exact: false,
      note:
        "cl100k_base (approximate: the sim uses its own tokenizer, about 4 characters a token)",
    };
  }
  const bare = id.slice(id.lastIndexOf("/") + 1);
  for (const [pattern, encoding] of OPENAI) {
    if (pattern.test(bare)) {
      return { encoding, exact: true, note: `${encoding} (${bare}'s own)` };
    }
  }
  const family = FAMILIES.find(([pattern]) => pattern.test(id))?.[1];
  return {
    encoding: "cl100k_base",
    exact: false,
    note: `cl100k_base (approximate: ${
      family ?? `"${bare}"`
    } uses its own tokenizer)`,
  };
}
