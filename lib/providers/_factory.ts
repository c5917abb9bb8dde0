/**
 * The one rule that turns a model entry into a Provider, over whichever
 * provider classes are loaded: `create.ts` passes all of them (static
 * imports), `load.ts` only those a sweep's models use. Private to
 * `lib/providers`.
 *
 * @module
 */
import type { ModelConfig, SweepConfig } from "../config/schema.ts";
import type { Provider } from "./types.ts";
import type { RegisteredSkill } from "./sim/mod.ts";
import type { OpenAIProvider } from "./openai.ts";
import type { SimProvider } from "./sim.ts";
import type { createSimBackend } from "./_sim_backend.ts";
import { requestBodyOptions } from "./_request_body.ts";

/** Reads an environment variable by name. */
export type EnvReader = (name: string) => string | undefined;

/** What a provider may need beyond its model's config. */
export interface ProviderContext {
  /** Skills of the in-process sim (every registered suite's). @default none */
  simSkills?: readonly RegisteredSkill[];
}

/** Options of `createProvider`: how to read keys, and the provider's context. */
export interface CreateProviderOptions extends ProviderContext {
  /** Reads environment variables (API keys). @default {Deno.env.get} */
  env?: EnvReader;
}

/** Creates the provider of one model entry (see `createProvider`). */
export type CreateProvider = (
  model: ModelConfig,
  sweep: Pick<SweepConfig, "retries" | "timeoutMs">,
  options?: CreateProviderOptions,
) => Provider;

/** The provider classes a factory can build, by provider kind. */
export interface ProviderKinds {
  /** The in-process sim. */
  sim?: {
    SimProvider: typeof SimProvider;
    createSimBackend: typeof createSimBackend;
  };
  /** OpenAI-compatible endpoints. */
  openai?: { OpenAIProvider: typeof OpenAIProvider };
}

/**
 * A provider factory over the given provider classes.
 *
 * @param kinds The loaded provider classes.
 * @returns The factory; it throws for a model whose kind is not loaded.
 */
export function providerFactory(kinds: ProviderKinds): CreateProvider {
  return (
    model,
    sweep,
    { env = (name: string) => Deno.env.get(name), simSkills = [] } = {},
  ) => {
    const common = { name: model.name, ...requestBodyOptions(model) };
    if (model.provider === "sim") {
      const sim = loaded(kinds.sim, model);
      return new sim.SimProvider({
        ...common,
        backend: sim.createSimBackend(simSkills),
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
    return new (loaded(kinds.openai, model)).OpenAIProvider({
      ...common,
      baseURL: model.baseURL,
      apiKey,
      maxRetries: sweep.retries,
      timeoutMs: sweep.timeoutMs,
    });
  };
}

function loaded<T>(kind: T | undefined, model: ModelConfig): T {
  if (kind === undefined) {
    throw new Error(
      `Cannot create provider for model "${model.name}": the "${model.provider}" provider was not loaded (load it with loadProviderFactory)`,
    );
  }
  return kind;
}
