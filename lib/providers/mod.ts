/**
 * Model backends: the OpenAI-compatible provider (any base URL, through
 * `npm:openai`), the in-process simulated model, and the sim as an HTTP
 * server with fault injection.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { createProvider, startSimServer } from "./mod.ts";
 * const server = await startSimServer();
 * const provider = createProvider(
 *   { name: "p", provider: "openai", model: "sim-strong", baseURL: server.baseURL } as
 *     Parameters<typeof createProvider>[0],
 *   { retries: 0, timeoutMs: 5000 },
 * );
 * const completion = await provider.complete({
 *   templateId: "direct",
 *   messages: [{ role: "user", content: "What is 2 + 2?" }],
 *   params: { temperature: 0, max_tokens: 32 },
 * }, { sample: 0 });
 * assert.equal(completion.attempts, 1);
 * await server.close();
 * ```
 *
 * @module
 */
export type { ChoicesOptions, CompleteOptions, Provider } from "./types.ts";
export {
  type CompletionMeta,
  errorCompletion,
  toCompletion,
  toCompletions,
} from "./completion.ts";
export {
  OpenAIProvider,
  type OpenAIProviderOptions,
  PLACEHOLDER_API_KEY,
} from "./openai.ts";
export { SimProvider, type SimProviderOptions } from "./sim.ts";
export {
  type BatchServerOptions,
  type FaultRates,
  type SimServer,
  type SimServerOptions,
  type SimServerStats,
  startSimServer,
} from "./server.ts";
export {
  createProvider,
  type CreateProviderOptions,
  type EnvReader,
  type ProviderContext,
} from "./create.ts";
export { type CreateProvider, loadProviderFactory } from "./load.ts";
export {
  type BodyModel,
  chatRequestBody,
  type MaxTokensParam,
} from "./_request_body.ts";
export { errorKindOfStatus } from "./_errors.ts";
export type { SimBackend, SimModelEntry } from "./_sim_backend.ts";
export { createSimBackend } from "./_sim_backend.ts";
