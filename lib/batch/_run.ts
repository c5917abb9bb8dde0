/**
 * The run folder of a batch run: made from a config, or opened from its
 * manifest, with the plan, the secrets to redact and the API clients.
 * Private to `lib/batch`.
 *
 * @module
 */
import { resolve } from "node:path";
import OpenAI from "openai";
import type { ModelConfig, SweepConfig } from "../config/schema.ts";
import { PLACEHOLDER_API_KEY } from "../providers/mod.ts";
import {
  checkShard,
  identityMismatch,
  REQUEST_SEED_RULE,
  secretsOf,
  type Shard,
} from "../runner/mod.ts";
import {
  buildManifest,
  createRunDir,
  identityOf,
  type Manifest,
  readManifest,
  redactSecrets,
  writeManifest,
} from "../store/mod.ts";
import type { SuiteList } from "../suites/types.ts";
import { BatchInputError, type BatchPlan, planBatch } from "./_plan.ts";
import { osError, osErrorCode } from "../os_error.ts";

/** Options every batch command takes. */
export interface BatchOptions {
  /** The suites a config may name (`lib/suites/mod.ts`'s `SUITES`). */
  suites: SuiteList;
  /** Environment lookup for API keys. @default Deno.env.get */
  env?: (name: string) => string | undefined;
}

/** Options of the commands that read a config (not a run). */
export interface BatchConfigOptions extends BatchOptions {
  /** Folder relative dataset paths resolve against. @default the working directory */
  baseDir?: string;
  /** At most this many questions per suite. */
  limit?: number;
  /**
   * Only this shard's keys (`--shard i/n`, as `deno task sweep` splits a
   * sweep); recorded in the manifest of a run made, so `deno task merge`
   * can join it with the other shards. @default the whole sweep
   */
  shard?: Shard;
}

/** An open batch run. */
export interface BatchRun {
  runDir: string;
  manifest: Manifest;
  plan: BatchPlan;
  suites: SuiteList;
  env: (name: string) => string | undefined;
  secrets: string[];
  redact(text: string): string;
}

function envOf(options: BatchOptions): (name: string) => string | undefined {
  return options.env ?? ((name: string) => Deno.env.get(name));
}

function withSecrets(
  base: Omit<BatchRun, "secrets" | "redact">,
): BatchRun {
  const secrets = secretsOf(base.plan.config, base.env);
  return {
    ...base,
    secrets,
    redact: (text) => redactSecrets(text, secrets),
  };
}

/**
 * Plans a config (or one shard of it) and makes its run folder and
 * manifest (only once the questions loaded: bad input leaves nothing
 * behind).
 */
export async function createBatchRun(
  config: SweepConfig,
  options: BatchConfigOptions,
  check: (plan: BatchPlan) => void | Promise<void> = () => {},
): Promise<BatchRun> {
  const baseDir = resolve(options.baseDir ?? Deno.cwd());
  const plan = await planBatch(
    config,
    options.suites,
    baseDir,
    options.limit,
    options.shard,
  );
  await check(plan);
  const started = new Date();
  const runDir = await createRunDir(config.outputDir, config.name, {
    date: started,
  });
  const manifest = await buildManifest({
    run: runDir.split(/[\\/]/).filter(Boolean).pop() ?? config.name,
    config,
    questions: plan.questionCounts,
    total: plan.items.size,
    requestSeed: REQUEST_SEED_RULE,
    startedAt: started,
  });
  manifest.identity = plan.identity;
  manifest.baseDir = baseDir;
  if (options.limit !== undefined) manifest.limit = options.limit;
  if (plan.shard !== undefined) manifest.shard = plan.shard;
  manifest.batches = [];
  const run = withSecrets({
    runDir,
    manifest,
    plan,
    suites: options.suites,
    env: envOf(options),
  });
  await saveManifest(run);
  return run;
}

/**
 * Opens a run folder made by a batch command (or any run: `import` may add
 * rows to a sweep's run). The plan is the run's: for a shard run
 * (`manifest.shard`), only that shard's keys.
 *
 * @throws {BatchInputError} when the folder holds no readable manifest,
 *   or its shard is not `{index, count}` with 1 ≤ index ≤ count.
 */
export async function openBatchRun(
  runDir: string,
  options: BatchOptions,
): Promise<BatchRun> {
  let manifest: Manifest;
  try {
    manifest = await readManifest(runDir);
  } catch (error) {
    throw new BatchInputError(
      `${
        (error as Error).message
      }; give a run folder made by deno task batch submit (or deno task sweep)`,
    );
  }
  let shard: Shard | undefined;
  try {
    if (manifest.shard !== undefined) shard = checkShard(manifest.shard);
  } catch (error) {
    throw new BatchInputError(
      `Cannot open the run ${runDir}: its manifest's "shard" is wrong (${
        (error as Error).message
      }); restore the manifest.json the sweep wrote`,
    );
  }
  const plan = await planBatch(
    manifest.config,
    options.suites,
    manifest.baseDir ?? Deno.cwd(),
    manifest.limit,
    shard,
  );
  // Rows are added only to the run they belong to: the plan made now must
  // be the one the run recorded.
  const refused = identityMismatch({
    action: `add rows to ${runDir}`,
    recorded: identityOf(manifest) ?? undefined,
    now: plan.identity,
    instead:
      "submit the config as a new run: deno task batch submit <config.json>",
  });
  if (refused !== null) throw new BatchInputError(refused);
  manifest.identity ??= plan.identity;
  return withSecrets({
    runDir,
    manifest,
    plan,
    suites: options.suites,
    env: envOf(options),
  });
}

/** Writes the run's manifest (atomically, secrets redacted). */
export function saveManifest(run: BatchRun): Promise<void> {
  return writeManifest(run.runDir, run.manifest, { redact: run.secrets });
}

/**
 * The `openai` client of a model's endpoint, with the key from its
 * `apiKeyEnv` (the key stays in memory; files never hold it).
 *
 * @throws {BatchInputError} for a `sim` model or a missing key.
 */
export function batchClient(
  model: ModelConfig,
  config: SweepConfig,
  env: (name: string) => string | undefined,
): OpenAI {
  if (model.provider !== "openai" || model.baseURL === undefined) {
    throw new BatchInputError(
      `Cannot send batches for model "${model.name}": provider "${model.provider}" has no Batch API endpoint; give it provider "openai" and the baseURL of an endpoint that offers /v1/batches (deno task serve-sim serves one), or write the file with deno task batch export`,
    );
  }
  let apiKey = PLACEHOLDER_API_KEY;
  if (model.apiKeyEnv !== undefined) {
    const value = env(model.apiKeyEnv);
    if (value === undefined || value === "") {
      throw new BatchInputError(
        `Cannot send batches for model "${model.name}": the environment variable ${model.apiKeyEnv} (apiKeyEnv) is not set; export it first`,
      );
    }
    apiKey = value;
  }
  return new OpenAI({
    apiKey,
    baseURL: model.baseURL,
    maxRetries: config.retries,
    timeout: config.timeoutMs,
    logLevel: "off",
  });
}

/** One client per model name, made on first use. */
export function clientsOf(run: BatchRun): (modelName: string) => OpenAI {
  const clients = new Map<string, OpenAI>();
  return (name) => {
    let client = clients.get(name);
    if (client === undefined) {
      const model = run.plan.config.models.find((m) => m.name === name);
      if (model === undefined) {
        throw new BatchInputError(
          `Cannot find model "${name}" of a recorded batch in the run's config; the manifest of ${run.runDir} was edited`,
        );
      }
      client = batchClient(model, run.plan.config, run.env);
      clients.set(name, client);
    }
    return client;
  };
}

/** What to do when an endpoint does not answer. */
const START_SERVER =
  "start the server there (the sim: deno task serve-sim), or check the model's baseURL in the config (it usually ends in /v1)";

/**
 * A call to a model's endpoint that failed, in words: a connection
 * failure (refused, reset, timed out, unknown host) names the model's
 * `baseURL` and what to do (an `OsFailureError`, exit 1); any other error
 * is returned as it is.
 *
 * @param error What the `openai` client threw.
 * @param model The model whose endpoint was called.
 * @param action What could not be done ("collect the batches of run x").
 * @param after What to say after the advice (what was written, what next).
 * @returns The error to throw.
 */
export function endpointError(
  error: unknown,
  model: ModelConfig | undefined,
  action: string,
  after: string,
): Error {
  if (osErrorCode(error) === null) {
    return error instanceof Error ? error : new Error(String(error));
  }
  return osError(error, {
    action,
    ...(model?.baseURL === undefined ? {} : { url: model.baseURL }),
    todo: `${START_SERVER}; ${after}`,
  });
}

/**
 * Asks each distinct endpoint of the config for its model list (no
 * retries), so a server that is not there is refused before a run folder
 * is made. Only connection failures count: an endpoint that answers, even
 * with an error, is there.
 *
 * @throws {OsFailureError} naming the first endpoint that does not answer.
 */
export async function probeEndpoints(
  config: SweepConfig,
  client: (model: ModelConfig) => OpenAI,
): Promise<void> {
  const seen = new Set<string>();
  for (const model of config.models) {
    if (model.baseURL === undefined || seen.has(model.baseURL)) continue;
    seen.add(model.baseURL);
    try {
      await client(model).models.list({ maxRetries: 0, timeout: 10_000 });
    } catch (error) {
      if (osErrorCode(error) !== null) {
        throw endpointError(
          error,
          model,
          `submit batches for model "${model.name}"`,
          "nothing was written",
        );
      }
    }
  }
}
