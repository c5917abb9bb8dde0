/**
 * `deno task forensics <run-dir> --judge MODEL [--validator MODEL]`:
 * LinAlg-Bench forensics stages 2 and 3 on a finished run. Every wrong
 * linear-algebra row is shown to the judge model (and its label to the
 * validator); the final label becomes the row's `error_class`, and the
 * stage, the stage-1 label and any unscored reason go in its `metrics`.
 * `results.jsonl` is rewritten atomically (the store's `rewriteResults`: a
 * new file renamed over the old, its CSV copy and index rebuilt), rows in
 * the same order; nothing else changes.
 *
 * All or nothing: when any judge or validator call fails (after a call
 * that finds the endpoint down, the rest are not asked), nothing is
 * written — `results.jsonl` and its side copies stay byte-identical, the
 * labels of the rows that were graded are not kept — and the message names
 * the endpoint's URL and the rows that could not be labelled (the first
 * few and the count). Exit 0 when every wrong row was graded (unscored
 * grades included), 1 when a call failed or the file could not be
 * written, 2 for bad input (nothing is written).
 *
 * MODEL is a sim profile name (`sim-strong`) or a model object in JSON,
 * as in a sweep config (`{"name":"gpt-4o","provider":"openai",
 * "baseURL":"https://api.openai.com/v1","apiKeyEnv":"OPENAI_API_KEY"}`).
 *
 * @module
 */
import { join } from "node:path";
import { parseCli, runCli, usageError } from "../../args.ts";
import { type ModelConfig, ModelSchema } from "../../config/schema.ts";
import { createProvider } from "../../providers/mod.ts";
import { getSimProfile, SimModelError } from "../../providers/sim/mod.ts";
import type { Provider } from "../../providers/types.ts";
import {
  checkRunDir,
  fsReason,
  readResults,
  rewriteResults,
} from "../../store/mod.ts";
import type { ResultRow } from "../../types.ts";
import {
  applyRefinements,
  type RefinedLabel,
  refineLabels,
} from "./forensics_judge.ts";
import { linalgSuite } from "./suite.ts";

const USAGE =
  "Usage: deno task forensics <run-dir> --judge <sim profile | model JSON> [--validator <sim profile | model JSON>]";

/** A model flag: a sim profile name or a model object in JSON. */
function modelOf(flag: string, value: string): ModelConfig {
  let raw: unknown = value.trim().startsWith("{")
    ? undefined
    : { name: value, provider: "sim" };
  if (raw === undefined) {
    try {
      raw = JSON.parse(value);
    } catch (error) {
      throw new TypeError(
        `Cannot use --${flag}: not JSON (${
          (error as Error).message
        }); give a sim profile name or a model object`,
      );
    }
  }
  const parsed = ModelSchema.safeParse(raw);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    throw new TypeError(
      `Cannot use --${flag}: ${
        issue?.path.join(".") || "(model)"
      }: ${issue?.message}`,
    );
  }
  const model = parsed.data;
  if (model.provider === "sim") {
    try {
      getSimProfile(model.model ?? model.name);
    } catch (error) {
      if (!(error instanceof SimModelError)) throw error;
      throw new TypeError(
        `Cannot use --${flag} ${value}: there is no sim profile "${error.model}" (known: ${
          error.known.join(", ")
        }); give one of those, or a model object in JSON`,
      );
    }
  }
  return model;
}

/** Where a model is asked, for messages. */
function whereOf(model: ModelConfig): string {
  return model.provider === "openai" && model.baseURL !== undefined
    ? `"${model.name}" at ${model.baseURL}`
    : `"${model.name}" (${model.provider})`;
}

/** The provider of a model flag; a model that cannot be made is bad input. */
function providerOf(flag: string, model: ModelConfig): Provider {
  try {
    return createProvider(model, { retries: 4, timeoutMs: 60_000 }, {
      simSkills: linalgSuite.simSkills ?? [],
    });
  } catch (error) {
    throw new TypeError(
      `${
        (error as Error).message
      }; fix the --${flag} model (an openai model needs a baseURL, and the variable its apiKeyEnv names must be set)`,
    );
  }
}

/** Keys named in a message; the rest are counted. */
const NAMED_KEYS = 3;

/** The one-paragraph message for calls that failed: nothing was written. */
function failureMessage(
  path: string,
  runDir: string,
  refined: readonly RefinedLabel[],
  models: { judge: ModelConfig; validator: ModelConfig | undefined },
): string {
  const failed = refined.filter((r) => r.failed !== undefined);
  const first = failed.find((r) => r.failed?.notAsked !== true) ?? failed[0]!;
  const failure = first.failed!;
  const model = failure.stage === 3 && models.validator !== undefined
    ? models.validator
    : models.judge;
  const role = failure.stage === 3 ? "validator" : "judge";
  const notAsked = failed.filter((r) => r.failed?.notAsked === true).length;
  const graded = refined.length - failed.length;
  const why = failure.message.replace(
    /^stage\d: (?:(?:judge|validator) call failed: )?(?:Cannot complete chat request: )?/,
    "",
  );
  const keys = failed.slice(0, NAMED_KEYS).map((r) => r.key).join(", ") +
    (failed.length > NAMED_KEYS
      ? ` and ${failed.length - NAMED_KEYS} more`
      : "");
  return `Cannot relabel the wrong rows of ${path}: the ${role} ${
    whereOf(model)
  } failed (${failure.kind}: ${why}) on row ${first.key}, so it could not label ${failed.length} of the ${refined.length} wrong row(s): ${keys}${
    notAsked > 0 ? ` (${notAsked} not asked once it was down)` : ""
  }; nothing was written: ${path} and its side copies are as they were${
    graded > 0
      ? `, and the labels of the ${graded} row(s) it did grade are not kept (a relabel is all or nothing)`
      : ""
  }; check that ${
    model.baseURL ?? "the model"
  } is up and reachable from here (and its API key), then run deno task forensics ${runDir} again`;
}

/**
 * Runs the command. `--help` prints the usage (to `print`) and exits 0;
 * an unexpected failure prints its message without a stack and exits 1.
 *
 * @param args The run folder and flags.
 * @param print Where lines go.
 * @param printError Where error messages go. @default print
 * @returns 0 done, 1 a judge or validator call failed (nothing written)
 *   or the file could not be written, 2 usage or input error (nothing
 *   written).
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { main } from "./forensics_cli.ts";
 * const lines: string[] = [];
 * assert.equal(await main([], (l) => lines.push(l)), 2);
 * assert.match(lines.join("\n"), /Usage/);
 * ```
 */
export function main(
  args: readonly string[],
  print: (line: string) => void = console.log,
  printError: (line: string) => void = print,
): Promise<number> {
  return runCli(() => relabel(args, print, printError), { print, printError });
}

/** The command itself; a usage problem is a thrown `CliExit`. */
async function relabel(
  args: readonly string[],
  print: (line: string) => void,
  printError: (line: string) => void,
): Promise<number> {
  const { values, positionals } = parseCli(args, {
    usage: USAGE,
    options: {
      judge: { type: "string" },
      validator: { type: "string" },
    },
  });
  const runDir = positionals[0];
  if (runDir === undefined || values.judge === undefined) {
    throw usageError(
      `Cannot run forensics: ${
        runDir === undefined ? "no run folder given" : "--judge is missing"
      }; give a run folder and --judge (a sim profile name or a model JSON)`,
      USAGE,
    );
  }
  if (positionals.length > 1) {
    throw usageError(
      `Cannot run forensics: ${positionals.length} run folders given (${
        positionals.join(", ")
      }); give one run folder at a time`,
      USAGE,
    );
  }
  let judge: ModelConfig, validator: ModelConfig | undefined;
  let judgeProvider: Provider, validatorProvider: Provider | undefined;
  try {
    judge = modelOf("judge", values.judge);
    validator = values.validator === undefined
      ? undefined
      : modelOf("validator", values.validator);
    await checkRunDir(runDir, { action: "run forensics on" });
    judgeProvider = providerOf("judge", judge);
    validatorProvider = validator === undefined
      ? undefined
      : providerOf("validator", validator);
  } catch (error) {
    printError((error as Error).message);
    return 2;
  }
  const path = join(runDir, "results.jsonl");
  const rows: ResultRow[] = [];
  let torn: number | undefined;
  try {
    const read = readResults(path, { onTornLine: (line) => torn = line });
    for await (const row of read) rows.push(row);
  } catch (error) {
    const message = (error as Error).message;
    printError(
      message.startsWith("Cannot ")
        ? message
        : `Cannot read ${path}: ${message}; give a run folder written by deno task sweep`,
    );
    return 2;
  }
  if (torn !== undefined) {
    printError(
      `Cannot run forensics on ${runDir}: line ${torn} of ${path} is a torn write (a sweep stopped mid-row, or one still writing), and rewriting the file would drop it; let the sweep finish, or resume it with deno task sweep --resume ${runDir} (which sets the line aside), then run forensics again`,
    );
    return 2;
  }
  let refined: RefinedLabel[];
  try {
    refined = await refineLabels(rows, {
      judge: judgeProvider,
      ...(validatorProvider ? { validator: validatorProvider } : {}),
    });
  } finally {
    await judgeProvider.close?.().catch(() => {});
    await validatorProvider?.close?.().catch(() => {});
  }
  if (refined.some((r) => r.failed !== undefined)) {
    // All or nothing: a failed call leaves the run as it was.
    printError(failureMessage(path, runDir, refined, { judge, validator }));
    return 1;
  }
  const out = applyRefinements(rows, refined);
  const lines = out.map((row) => JSON.stringify(row));
  const changed = rows.some((row, i) => JSON.stringify(row) !== lines[i]);
  if (changed) {
    try {
      await rewriteResults(path, lines);
    } catch (error) {
      printError(
        `Cannot rewrite ${path}: ${
          fsReason(error)
        }; the file was replaced only if the new one was complete (it is written beside it, then renamed), so its rows are as they were or fully relabelled; free disk space or fix the folder's permissions and run deno task forensics ${runDir} again`,
      );
      return 1;
    }
  }
  const relabelled = refined.filter((r) => r.label !== r.stage1).length;
  const unscored = refined.filter((r) => r.unscored !== undefined).length;
  print(
    `${refined.length} wrong linear-algebra rows graded: ${relabelled} relabelled, ${unscored} unscored (kept their earlier label); ${path} ${
      changed ? "rewritten" : "unchanged"
    }`,
  );
  return 0;
}

if (import.meta.main) {
  Deno.exit(await main(Deno.args, console.log, console.error));
}
