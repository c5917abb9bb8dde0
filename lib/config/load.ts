/**
 * Loading and validating sweep configs, with errors a person can act on.
 *
 * @module
 */
import { dirname, resolve } from "node:path";
import type { z } from "zod";
import type { ParseError } from "jsonc-parser";
import { importLazily } from "../lazy.ts";
import { decodeText, EncodingInputError } from "../inputs/decode.ts";
import { fsReason } from "../os_error.ts";
import { type SweepConfig, SweepConfigSchema } from "./schema.ts";

/**
 * What config checking needs of a suite: its name, its params check and
 * its template ids. Suites (`lib/suites/`) satisfy it; the registry is
 * passed in by the caller, so this layer names no suite.
 */
export interface SuiteSpec {
  /** The suite's name, as configs spell it. */
  name: string;
  /** Checks a config entry's params, every issue with its path. */
  validateParams(params: unknown):
    | { ok: true }
    | { ok: false; issues: { path: (string | number)[]; message: string }[] };
  /** The suite's template ids (a config may name only these). */
  templates: Readonly<Record<string, unknown>>;
  /** The dims an entry's `adaptive` may name. @default none */
  adaptive?: Readonly<Record<string, unknown>>;
}

/**
 * A config that cannot be used. `message` is ready to print as it is (one
 * paragraph per problem, each naming the file and the field); CLIs print it
 * without a stack trace and exit with code 2.
 */
export class ConfigError extends Error {
  /** One line per problem: `<path>: <what is wrong>`. */
  readonly problems: string[];
  /** The file (or source label) the config came from. */
  readonly source: string;
  /** Builds the error from its problems; the message lists them under `headline` and ends with `hint`. */
  constructor(
    source: string,
    problems: string[],
    hint: string,
    headline = `Cannot use the sweep config ${source}`,
  ) {
    super(
      `${headline}: ${problems.length} problem${
        problems.length === 1 ? "" : "s"
      }\n` + problems.map((p) => `  - ${p}`).join("\n") + `\n${hint}`,
    );
    this.name = "ConfigError";
    this.problems = problems;
    this.source = source;
  }
}

const HINT =
  "Fix these fields and run again; data/configs/demo.json is a complete, valid example, and docs/config.md lists every field.";

/**
 * Formats a zod/suite issue path the way users write it:
 * `["models", 2, "baseURL"]` → `models[2].baseURL`.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { formatPath } from "./load.ts";
 * assert.equal(formatPath(["models", 2, "baseURL"]), "models[2].baseURL");
 * assert.equal(formatPath([]), "(top level)");
 * ```
 */
export function formatPath(path: readonly PropertyKey[]): string {
  let out = "";
  for (const part of path) {
    if (typeof part === "number") out += `[${part}]`;
    else out += out === "" ? String(part) : `.${String(part)}`;
  }
  return out === "" ? "(top level)" : out;
}

function zodProblems(error: z.ZodError, prefix: PropertyKey[] = []): string[] {
  return error.issues.map((issue) => {
    const path = [...prefix, ...issue.path];
    if (issue.code === "unrecognized_keys") {
      return `${formatPath(path)}: unknown field${
        issue.keys.length === 1 ? "" : "s"
      } ${issue.keys.map((k) => `"${k}"`).join(", ")} (check the spelling)`;
    }
    return `${formatPath(path)}: ${issue.message}`;
  });
}

/**
 * Validates a parsed config object: the schema (with its unique lists:
 * model names, suite entries, templates; see `uniqueList`), then
 * cross-field rules (a base URL for `openai` models, known suites,
 * templates and suite params).
 *
 * @param json The parsed JSON value.
 * @param source The file name or label used in error messages.
 * @param options `suites`, the suites the config may name.
 * @returns The config with defaults filled in.
 * @throws {ConfigError} listing every problem with its path.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { ConfigError, parseConfig } from "./mod.ts";
 * const TOY = { name: "toy", validateParams: () => ({ ok: true as const }), templates: { direct: {} } };
 * const config = parseConfig({
 *   models: [{ name: "sim-strong", provider: "sim" }],
 *   suites: [{ name: "toy" }],
 * }, "inline", { suites: [TOY] });
 * assert.equal(config.samples, 1);
 * assert.throws(
 *   () => parseConfig({ models: [{ name: "x", provider: "openai", baseURL: "nope" }], suites: [] }, "bad.json", { suites: [] }),
 *   (e: unknown) => e instanceof ConfigError && e.message.includes("models[0].baseURL"),
 * );
 * ```
 */
export function parseConfig(
  json: unknown,
  source: string,
  { suites }: { suites: readonly SuiteSpec[] },
): SweepConfig {
  const parsed = SweepConfigSchema.safeParse(json);
  if (!parsed.success) {
    throw new ConfigError(source, zodProblems(parsed.error), HINT);
  }
  const config = parsed.data;
  const problems: string[] = [];
  // Model names are unique by the schema (uniqueList in schema.ts).
  config.models.forEach((model, i) => {
    if (model.provider === "openai" && model.baseURL === undefined) {
      problems.push(
        `models[${i}].baseURL: required for provider "openai" (e.g. https://api.openai.com/v1, http://localhost:11434/v1 for Ollama, http://localhost:8000/v1 for vLLM)`,
      );
    }
    if (model.provider === "sim" && model.baseURL !== undefined) {
      problems.push(
        `models[${i}].baseURL: provider "sim" runs in process and takes no URL; to use the sim over HTTP, run \`deno task serve-sim\` and use provider "openai" with its URL`,
      );
    }
  });
  config.suites.forEach((suiteConfig, i) => {
    const suite = suites.find((s) => s.name === suiteConfig.name);
    if (suite === undefined) {
      problems.push(
        `suites[${i}].name: unknown suite "${suiteConfig.name}"; known suites: ${
          suites.map((s) => s.name).sort().join(", ")
        }`,
      );
      return;
    }
    const check = suite.validateParams(suiteConfig.params);
    if (!check.ok) {
      for (const issue of check.issues) {
        problems.push(
          `${
            formatPath(["suites", i, "params", ...issue.path])
          }: ${issue.message}`,
        );
      }
    }
    if (suiteConfig.adaptive !== undefined) {
      const dims = Object.keys(suite.adaptive ?? {});
      if (!dims.includes(suiteConfig.adaptive.dim)) {
        problems.push(
          `suites[${i}].adaptive.dim: suite "${suite.name}" cannot adapt along "${suiteConfig.adaptive.dim}"; ${
            dims.length === 0
              ? 'it has no ordered size to adapt along: remove "adaptive"'
              : `it can along: ${dims.join(", ")}`
          }`,
        );
      }
      if (config.samples > 1) {
        problems.push(
          `suites[${i}].adaptive: an adaptive design asks each question once, and the sweep asks ${config.samples} samples; set "samples": 1, or run the entry without "adaptive"`,
        );
      }
    }
    suiteConfig.templates?.forEach((template, j) => {
      if (!(template in suite.templates)) {
        problems.push(
          `suites[${i}].templates[${j}]: unknown template "${template}" for suite "${suite.name}"; known templates: ${
            Object.keys(suite.templates).join(", ")
          }`,
        );
      }
    });
  });
  if (problems.length > 0) throw new ConfigError(source, problems, HINT);
  return config;
}

/** Plain words for jsonc-parser's error codes. */
const JSON_ERRORS: Record<string, string> = {
  InvalidSymbol: "unexpected character",
  InvalidNumberFormat: "malformed number",
  PropertyNameExpected: "expected a quoted field name",
  ValueExpected: "expected a value (a stray or trailing comma?)",
  ColonExpected: "expected ':' after the field name",
  CommaExpected: "expected ',' between entries",
  CloseBraceExpected: "expected '}' (an object is not closed)",
  CloseBracketExpected: "expected ']' (a list is not closed)",
  EndOfFileExpected: "unexpected text after the end of the JSON value",
  InvalidCommentToken: "comments are not allowed in JSON",
  UnexpectedEndOfComment: "comments are not allowed in JSON",
  UnexpectedEndOfString: "a string is not closed",
  UnexpectedEndOfNumber: "malformed number",
  InvalidUnicode: "invalid \\u escape",
  InvalidEscapeCharacter: "invalid escape in a string",
  InvalidCharacter: "invalid character in a string",
};

/** Line and column (1-based) of a character offset. */
function lineColumn(text: string, offset: number): [number, number] {
  const before = text.slice(0, offset);
  const line = before.split("\n").length;
  const column = offset - before.lastIndexOf("\n");
  return [line, column];
}

/**
 * Parses text `JSON.parse` refused with jsonc-parser, which reports the
 * offset and kind of every syntax error (V8's message often has no
 * position at all). Loaded only here: most configs parse at once, and the
 * parser costs start-up time.
 */
async function parseForDiagnostics(
  text: string,
  path: string,
): Promise<unknown> {
  const { parse, printParseErrorCode } = await importLazily<
    typeof import("jsonc-parser")
  >("jsonc-parser");
  const errors: ParseError[] = [];
  const json: unknown = parse(text, errors, {
    allowTrailingComma: false,
    disallowComments: true,
  });
  if (errors.length === 0) return json;
  // The first error is the real one; later ones are usually its echoes.
  const first = errors[0] as ParseError;
  const [line, column] = lineColumn(text, first.offset);
  const code = printParseErrorCode(first.error);
  throw new ConfigError(
    path,
    [
      `(file): not valid JSON at line ${line}, column ${column}: ${
        JSON_ERRORS[code] ?? code
      }`,
    ],
    "The config must be plain JSON (no comments, no trailing commas).",
  );
}

/**
 * Reads and validates a sweep config file.
 *
 * @param path Path to a JSON config file.
 * @returns The config, and the folder relative dataset paths resolve against.
 * @throws {ConfigError} when the file is missing, is not JSON, or is invalid.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { loadConfig } from "./mod.ts";
 * const { config } = await loadConfig("tests/fixtures/golden/config.json", [
 *   { name: "arithmetic", validateParams: () => ({ ok: true }), templates: { direct: {}, cot: {}, calculator: {}, llmmath: {} } },
 *   { name: "linalg", validateParams: () => ({ ok: true }), templates: { paper: {} } },
 *   { name: "ceval", validateParams: () => ({ ok: true }), templates: { answer_only: {}, few_shot_cot: {} } },
 * ]);
 * assert.ok(config.models.length > 0);
 * ```
 */
export async function loadConfig(
  path: string,
  suites: readonly SuiteSpec[],
): Promise<{ config: SweepConfig; baseDir: string }> {
  let text: string;
  try {
    // Strict UTF-8 (JSON's own encoding; a BOM accepted): a config saved in
    // another encoding is named, never read as mojibake.
    text = decodeText(await Deno.readFile(path), { path }).text;
  } catch (error) {
    if (error instanceof EncodingInputError) {
      throw new ConfigError(
        path,
        [`(file): ${
          error.message.replace(/^Cannot read the file [^:]*: /, "")
        }`],
        "A config is a JSON file in UTF-8.",
      );
    }
    const reason = error instanceof Deno.errors.NotFound
      ? "the file does not exist"
      : error instanceof Deno.errors.PermissionDenied
      ? "permission denied"
      : error instanceof Deno.errors.IsADirectory
      ? "it is a folder; give the config file inside it"
      : fsReason(error);
    throw new ConfigError(
      path,
      [`(file): ${reason}`],
      "Check the path; data/configs/demo.json is an example config.",
    );
  }
  // A byte-order mark is not part of the JSON: drop it once, so the parser's
  // offsets and the line/column computed from them refer to the same text
  // (mixing the two put every column after line 1 one to the left).
  text = text.replace(/^\uFEFF/, "");
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    json = await parseForDiagnostics(text, path);
  }
  return {
    config: parseConfig(json, path, { suites }),
    baseDir: dirname(resolve(path)),
  };
}

/**
 * Checks, before any request is sent, that every API key variable the
 * config names is set.
 *
 * @param config A validated config.
 * @param env Reads an environment variable (default `Deno.env.get`).
 * @throws {ConfigError} naming every missing variable and its model.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { checkEnv, ConfigError, parseConfig } from "./mod.ts";
 * const TOY = { name: "toy", validateParams: () => ({ ok: true as const }), templates: { direct: {} } };
 * const config = parseConfig({
 *   models: [{ name: "gpt", provider: "openai", baseURL: "http://127.0.0.1:9/v1", apiKeyEnv: "MY_KEY" }],
 *   suites: [{ name: "toy" }],
 * }, "inline", { suites: [TOY] });
 * assert.throws(() => checkEnv(config, () => undefined), ConfigError);
 * checkEnv(config, (name) => name === "MY_KEY" ? "sk-test" : undefined);
 * ```
 */
export function checkEnv(
  config: SweepConfig,
  env: (name: string) => string | undefined = (name) => Deno.env.get(name),
): void {
  const problems: string[] = [];
  config.models.forEach((model, i) => {
    if (model.apiKeyEnv === undefined) return;
    const value = env(model.apiKeyEnv);
    if (value === undefined || value === "") {
      problems.push(
        `models[${i}].apiKeyEnv: the environment variable ${model.apiKeyEnv} (API key for model "${model.name}") is not set`,
      );
    }
  });
  if (problems.length > 0) {
    throw new ConfigError(
      "environment",
      problems,
      "Export the variable before running (e.g. `export OPENAI_API_KEY=...`), or remove apiKeyEnv for keyless local servers such as Ollama, vLLM or llama.cpp. No request was sent.",
      "Cannot start the sweep: an API key variable is not set",
    );
  }
}
