/**
 * Builds the Provider a sweep config names, with every provider class
 * loaded (see `load.ts` for a factory that loads only the kinds a sweep
 * uses).
 *
 * @module
 */
import type { ModelConfig, SweepConfig } from "../config/schema.ts";
import type { Provider } from "./types.ts";
import { OpenAIProvider } from "./openai.ts";
import { createSimBackend } from "./_sim_backend.ts";
import { SimProvider } from "./sim.ts";
import { type CreateProviderOptions, providerFactory } from "./_factory.ts";

export type {
  CreateProviderOptions,
  EnvReader,
  ProviderContext,
} from "./_factory.ts";

const ALL = providerFactory({
  sim: { SimProvider, createSimBackend },
  openai: { OpenAIProvider },
});

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
 * @param options `env` reads environment variables (@default {Deno.env.get});
 *   `simSkills` are the sim's skills (@default none).
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
 *       { env: () => undefined },
 *     ),
 *   /NO_SUCH_KEY/,
 * );
 * ```
 */
export function createProvider(
  model: ModelConfig,
  sweep: Pick<SweepConfig, "retries" | "timeoutMs">,
  options: CreateProviderOptions = {},
): Provider {
  return ALL(model, sweep, options);
}
