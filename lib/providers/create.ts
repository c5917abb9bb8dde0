/**
 * Builds the Provider a sweep config names.
 *
 * @module
 */
import type { ModelConfig, SweepConfig } from "../config/schema.ts";
import type { Provider } from "./types.ts";
import { OpenAIProvider } from "./openai.ts";
import { createSimBackend } from "./_sim_backend.ts";
import type { RegisteredSkill } from "./sim/mod.ts";
import { SimProvider } from "./sim.ts";
import { requestBodyOptions } from "./_request_body.ts";

/** Reads an environment variable by name. */
export type EnvReader = (name: string) => string | undefined;

/** What a provider may need beyond its model's config. */
export interface ProviderContext {
  /** Skills of the in-process sim (every registered suite's). @default none */
  simSkills?: readonly RegisteredSkill[];
}

/**
 * Creates the provider of one model entry: `sim` → {@linkcode SimProvider}
 * (profile = `model.model ?? model.name`), `openai` →
 * {@linkcode OpenAIProvider} with the sweep's retries and timeout. The API
 * key is read from the variable NAMED by `apiKeyEnv`; without `apiKeyEnv` a
 * placeholder key is sent (keyless local servers). Per-model `temperature`
 * and `max_tokens` override the prompt's; `params` are added to the body.
 * A `params.max_tokens_param` of `"max_completion_tokens"` renames the
 * token-limit field (and is not sent itself).
 *
 * @param model The model entry.
 * @param sweep The sweep (retries, timeoutMs).
 * @param env Reads environment variables. @default {Deno.env.get}
 * @returns The provider.
 * @throws {Error} If an `openai` model has no `baseURL`, or its `apiKeyEnv` variable is unset.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { createProvider } from "./create.ts";
 * const sweep = { retries: 2, timeoutMs: 1000 } as Parameters<typeof createProvider>[1];
 * const model = { name: "demo", provider: "sim", model: "sim-strong", params: {} } as
 *   Parameters<typeof createProvider>[0];
 * assert.equal(createProvider(model, sweep).name, "demo");
 * assert.throws(
 *   () =>
 *     createProvider(
 *       { ...model, provider: "openai", baseURL: "http://127.0.0.1:1/v1", apiKeyEnv: "NO_SUCH_KEY" },
 *       sweep,
 *       () => undefined,
 *     ),
 *   /NO_SUCH_KEY/,
 * );
 * ```
 */
export function createProvider(
  model: ModelConfig,
  sweep: Pick<SweepConfig, "retries" | "timeoutMs">,
  env: EnvReader = (name) => Deno.env.get(name),
  context: ProviderContext = {},
): Provider {
  const common = { name: model.name, ...requestBodyOptions(model) };
  if (model.provider === "sim") {
    return new SimProvider({
      ...common,
      backend: createSimBackend(context.simSkills ?? []),
    });
  }
  if (model.baseURL === undefined) {
    throw new Error(
      `Cannot create provider for model "${model.name}": provider "openai" needs a baseURL`,
    );
  }
  let apiKey: string | undefined;
  if (model.apiKeyEnv !== undefined) {
    apiKey = env(model.apiKeyEnv);
    if (apiKey === undefined || apiKey === "") {
      throw new Error(
        `Cannot create provider for model "${model.name}": environment variable ${model.apiKeyEnv} (apiKeyEnv) is not set`,
      );
    }
  }
  return new OpenAIProvider({
    ...common,
    baseURL: model.baseURL,
    apiKey,
    maxRetries: sweep.retries,
    timeoutMs: sweep.timeoutMs,
  });
}
