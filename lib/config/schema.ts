/**
 * The sweep config schema (zod). A config is a JSON file; see
 * `data/configs/demo.json` for a complete example.
 *
 * @module
 */
import { z } from "zod";
import { canonicalJson } from "../canonical.ts";
import { uniqueList } from "./unique.ts";

/**
 * The longest run `name`: it starts every run folder's name
 * (`<name>-<YYYYMMDD-HHMMSS>`), which a file system bounds (255 bytes).
 */
export const RUN_NAME_MAX = 64;

/** Environment variable names: letters, digits and underscores. */
const envName = z.string().regex(
  /^[A-Za-z_][A-Za-z0-9_]*$/,
  "expected the NAME of an environment variable (e.g. OPENAI_API_KEY), not the key itself",
);

/**
 * One model to evaluate.
 * (zod's types are not part of the documented API; use the config
 * types below.)
 *
 * @internal
 */
export const ModelSchema = z.strictObject({
  /** Label used in results; unique within a sweep. */
  name: z.string().min(1).regex(
    /^[^|]+$/,
    "must not contain '|' (it separates fields of a result key)",
  ),
  /** `sim` runs the simulated model in process; `openai` is any OpenAI-compatible endpoint. */
  provider: z.enum(["sim", "openai"]),
  /** Model id sent to the endpoint; defaults to `name`. For `sim`, the profile. */
  model: z.string().min(1).optional(),
  /** Endpoint base URL, e.g. `http://localhost:11434/v1`. Required for `openai`. */
  baseURL: z.url({
    protocol: /^https?$/,
    message:
      "expected a URL such as http://localhost:11434/v1 (with http:// or https://)",
  }).optional(),
  /** NAME of the environment variable holding the API key. */
  apiKeyEnv: envName.optional(),
  /** Requests in flight for this model. */
  concurrency: z.int().positive().max(4096).default(16),
  /** Requests per minute (0 = unlimited). */
  rpm: z.number().nonnegative().default(0),
  /** Tokens per minute (0 = unlimited), estimated from prompt + max_tokens. */
  tpm: z.number().nonnegative().default(0),
  /** Extra request body fields (top_p, reasoning_effort, ...). */
  params: z.record(z.string(), z.unknown()).default({}),
  /**
   * Ask for the samples of a (question, template) in one request with the
   * API's `n` (the prompt is paid once); see docs/config.md, "Samples through n".
   */
  n: z.boolean().optional(),
  /**
   * Send requests even when the endpoint's model list (`GET /models`)
   * does not show the model id (a gateway that lists only some); without
   * it such a model is refused before the sweep starts.
   */
  allowUnlisted: z.boolean().optional(),
  /** Per-model overrides. */
  temperature: z.number().min(0).max(2).optional(),
  max_tokens: z.int().positive().optional(),
  /** Price per million tokens, for cost reports. */
  price: z.strictObject({
    input: z.number().nonnegative(),
    output: z.number().nonnegative(),
    /** Share off for batch requests (plans); 0.5 (OpenAI's Batch API) when omitted. */
    batchDiscount: z.number().min(0).max(1).optional(),
  })
    .optional(),
});

/**
 * One suite to run with its generator params or dataset path.
 * (zod's types are not part of the documented API; use the config
 * types below.)
 *
 * @internal
 */
export const SuiteConfigSchema = z.strictObject({
  name: z.string().min(1),
  /** Generator params or dataset settings; validated by the suite itself. */
  params: z.record(z.string(), z.unknown()).default({}),
  /** Template ids, each once; the suite's defaults when omitted. */
  templates: uniqueList(z.array(z.string().min(1)).min(1)).optional(),
  /**
   * Ask the entry's questions adaptively along an ordered size (`dim`,
   * one the suite offers, e.g. arithmetic's `digits`): per (model,
   * template, group) each next question's size is the one expected to
   * tell most about where accuracy crosses `target`, and the group stops
   * once the crossing's 95% interval is no wider than `width` (size
   * units) or its questions (`count` per size) run out. See
   * `docs/adaptive.md`.
   */
  adaptive: z.strictObject({
    dim: z.string().min(1),
    target: z.number().gt(0).lt(1).default(0.5),
    width: z.number().positive().default(1),
  }).optional(),
});

/**
 * A whole sweep.
 * (zod's types are not part of the documented API; use the config
 * types below.)
 *
 * @internal
 */
export const SweepConfigSchema = z.strictObject({
  /** Run name; the run folder is `<outputDir>/<name>-<timestamp>` unless `runId` is given. */
  name: z.string().min(1).max(
    RUN_NAME_MAX,
    `at most ${RUN_NAME_MAX} characters (it starts the run folder's name)`,
  ).regex(
    /^[A-Za-z0-9._-]+$/,
    "use letters, digits, '.', '_' or '-'",
  )
    .default("sweep"),
  /** The models; names label result rows, so each name is used once. */
  models: uniqueList(z.array(ModelSchema).min(1, "list at least one model"), {
    key: (model) => model.name,
    at: ["name"],
    message: ({ entry, first }) =>
      `"${entry.name}" is already used by models[${first}]; model names label result rows and must be unique: give each model its own name`,
  }),
  /**
   * The suites; two entries of one suite with the same params would ask
   * the same questions (under every template of either), so that is
   * refused here. Entries whose questions overlap otherwise are refused
   * when the questions are loaded (`loadEntries`).
   */
  suites: uniqueList(
    z.array(SuiteConfigSchema).min(1, "list at least one suite"),
    {
      key: (suite) => canonicalJson([suite.name, suite.params]),
      message: ({ entry, first }) =>
        `repeats suites[${first}] (suite "${entry.name}" with the same params, so the same questions and row keys); list each entry once, and give the one entry every template it should run in "templates"`,
    },
  ),
  /** Samples per (model, question, template). */
  samples: z.int().positive().max(1000).default(1),
  temperature: z.number().min(0).max(2).default(0),
  max_tokens: z.int().positive().default(1024),
  /** Sweep seed: generators use it, and request seeds derive from it. */
  seed: z.int().nonnegative().default(0),
  /** Per-request timeout in milliseconds. */
  timeoutMs: z.int().positive().default(60_000),
  /** Retries after the first attempt (429, 5xx, timeouts, dropped connections). */
  retries: z.int().nonnegative().max(20).default(4),
  /** Requests in flight across all models. */
  concurrency: z.int().positive().max(8192).default(64),
  /** Folder that holds run folders; relative to the working directory. */
  outputDir: z.string().min(1).default("outputs"),
  /** Response cache: re-running an identical request sends nothing. */
  cache: z.boolean().default(true),
  /**
   * A model asked for the final answer of a reply the extraction rules
   * could not read (no answer found, or an ambiguous one), with a fixed
   * prompt; the row keeps both outcomes (`docs/extraction.md`). A sim
   * profile plays it in tests. Off when absent.
   */
  extractionJudge: ModelSchema.optional(),
});

// `SweepConfig` and `ModelConfig` are `z.infer<typeof X>` spelled as the
// return type of `X.parse` (the same type): `deno doc --lint` follows
// `z.infer` into zod's private `output` type and reports it, but not this.
/** A validated sweep config, defaults filled in. */
export type SweepConfig = ReturnType<typeof SweepConfigSchema.parse>;
/** A validated model entry. */
export type ModelConfig = ReturnType<typeof ModelSchema.parse>;
/**
 * A validated suite entry: the element type of `SweepConfig["suites"]`
 * (the same type as `SuiteConfigSchema.parse` returns, spelled so that
 * the docs do not refer to the internal schema).
 */
export type SuiteConfig = SweepConfig["suites"][number];
