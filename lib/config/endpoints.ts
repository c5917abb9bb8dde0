/**
 * A reachability check of every OpenAI-compatible endpoint a config names,
 * run once before a sweep so that a server that is down or a key that is
 * rejected is one clear message, not thousands of error rows.
 *
 * @module
 */
import { importLazily } from "../lazy.ts";
import type { SweepConfig } from "./schema.ts";
import { ConfigError } from "./load.ts";

type OpenAIModule = typeof import("openai");

/** Options of {@linkcode checkEndpoints}. */
export interface CheckEndpointsOptions {
  /** Reads an environment variable. @default Deno.env.get */
  env?: (name: string) => string | undefined;
  /** Time allowed per endpoint, in milliseconds. @default 5000 */
  timeoutMs?: number;
}

/** What the check found that does not stop a sweep. */
export interface EndpointReport {
  /** E.g. a model id that the endpoint's model list does not show. */
  warnings: string[];
}

const HINT =
  "Start the server (Ollama: `ollama serve`; vLLM: `vllm serve <model>`; the sim: `deno task serve-sim`), check baseURL (it usually ends in /v1), or remove the model from the config. No request was sent for the sweep.";

/**
 * Asks each distinct `openai` endpoint of the config for its model list
 * (`GET <baseURL>/models`, no retries). Connection failures and rejected
 * keys are problems; an endpoint without a model list is fine; a model id
 * missing from a returned list is a problem too, unless the model sets
 * `allowUnlisted` (a gateway that lists only some models): then a warning.
 *
 * @param config A validated config (env already checked with `checkEnv`).
 * @param options Environment reader and timeout.
 * @returns Warnings to print.
 * @throws {ConfigError} naming each unreachable endpoint or rejected key.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { checkEndpoints, ConfigError, parseConfig } from "./mod.ts";
 * const TOY = { name: "toy", validateParams: () => ({ ok: true as const }), templates: { direct: {} } };
 * const listener = Deno.listen({ hostname: "127.0.0.1", port: 0 });
 * const port = listener.addr.port;
 * listener.close(); // nothing listens there now
 * const config = parseConfig({
 *   models: [{ name: "local", provider: "openai", baseURL: `http://127.0.0.1:${port}/v1` }],
 *   suites: [{ name: "toy" }],
 * }, "inline", { suites: [TOY] });
 * await assert.rejects(() => checkEndpoints(config), ConfigError);
 * ```
 */
export async function checkEndpoints(
  config: SweepConfig,
  options: CheckEndpointsOptions = {},
): Promise<EndpointReport> {
  const { env = (name: string) => Deno.env.get(name), timeoutMs = 5000 } =
    options;
  const problems: string[] = [];
  const unlisted: string[] = [];
  const warnings: string[] = [];
  // One probe per (baseURL, key variable); several models often share one.
  const probes = new Map<string, Promise<Set<string> | null | string>>();
  const checks = config.models.map(async (model, i) => {
    if (model.provider !== "openai" || model.baseURL === undefined) return;
    const named = model.apiKeyEnv;
    if (named !== undefined && !env(named)) {
      // the client would refuse to start without a key
      problems.push(
        `models[${i}].apiKeyEnv: model "${model.name}": the variable ${named} is not set; set it (export ${named}=...) or remove apiKeyEnv for an endpoint that needs no key`,
      );
      return;
    }
    const probeKey = `${model.baseURL}\u0000${model.apiKeyEnv ?? ""}`;
    let probe = probes.get(probeKey);
    if (probe === undefined) {
      probe = probeEndpoint(
        model.baseURL,
        model.apiKeyEnv === undefined
          ? "not-needed"
          : env(model.apiKeyEnv) ?? "",
        model.apiKeyEnv,
        timeoutMs,
      );
      probes.set(probeKey, probe);
    }
    const outcome = await probe;
    const id = model.model ?? model.name;
    if (typeof outcome === "string") {
      problems.push(`models[${i}].baseURL: model "${model.name}": ${outcome}`);
    } else if (outcome !== null && !outcome.has(id)) {
      const served = [...outcome].slice(0, 8).join(", ");
      const listed =
        `"${id}" is not in the model list of ${model.baseURL} (it lists ${
          served || "nothing"
        }${outcome.size > 8 ? ", ..." : ""})`;
      // A model the server does not list would fail every request (404):
      // refused unless the config says the list is partial.
      if (model.allowUnlisted === true) {
        warnings.push(
          `models[${i}]: ${listed}; sending anyway (allowUnlisted)`,
        );
      } else {
        unlisted.push(
          `models[${i}].${
            model.model === undefined ? "name" : "model"
          }: ${listed}; give a model id it lists, or set "allowUnlisted": true when the endpoint lists only some of its models`,
        );
      }
    }
  });
  await Promise.all(checks);
  if (problems.length === 0 && unlisted.length > 0) {
    throw new ConfigError(
      "models",
      unlisted,
      "No request was sent for the sweep.",
      "Cannot start the sweep: a model is not served by its endpoint",
    );
  }
  problems.push(...unlisted);
  if (problems.length > 0) {
    throw new ConfigError(
      "endpoints",
      problems,
      HINT,
      "Cannot start the sweep: an endpoint is not usable",
    );
  }
  return { warnings };
}

/** The served model ids, null when the endpoint has no list, or a problem. */
async function probeEndpoint(
  baseURL: string,
  apiKey: string,
  apiKeyEnv: string | undefined,
  timeoutMs: number,
): Promise<Set<string> | null | string> {
  // Loaded only when a config names an endpoint: a sim sweep never needs
  // the client (about 0.15 s of start-up).
  const { default: OpenAI } = await importLazily<OpenAIModule>("openai");
  const client = new OpenAI({
    baseURL,
    apiKey,
    maxRetries: 0,
    timeout: timeoutMs,
  });
  try {
    const ids = new Set<string>();
    for await (const model of client.models.list()) ids.add(model.id);
    return ids;
  } catch (error) {
    if (error instanceof OpenAI.APIConnectionTimeoutError) {
      return `cannot reach ${baseURL}: no answer within ${timeoutMs} ms`;
    }
    if (error instanceof OpenAI.APIConnectionError) {
      const cause = error.cause instanceof Error
        ? `: ${error.cause.message}`
        : "";
      // Inline: config imports neither providers' redact nor store's
      // redactSecrets. No key (or a placeholder) has nothing to hide, and
      // replaceAll("") would put *** between every character.
      return `cannot reach ${baseURL} (connection failed${
        apiKey.length >= 4 ? cause.replaceAll(apiKey, "***") : cause
      })`;
    }
    if (
      error instanceof OpenAI.AuthenticationError ||
      error instanceof OpenAI.PermissionDeniedError
    ) {
      return `${baseURL} rejected the API key (HTTP ${error.status}); ${
        apiKeyEnv === undefined
          ? "this endpoint needs a key: set apiKeyEnv to the NAME of the variable that holds it"
          : `check the key in the environment variable ${apiKeyEnv}`
      }`;
    }
    // 404 and the like: the endpoint answers but has no model list; fine.
    return null;
  }
}
