/**
 * `deno task forensics <run-dir> --judge MODEL [--validator MODEL]`:
 * LinAlg-Bench forensics stages 2 and 3 on a finished run. Every wrong
 * linear-algebra row is shown to the judge model (and its label to the
 * validator); the final label becomes the row's `error_class`, and the
 * stage, the stage-1 label and any unscored reason go in its `metrics`.
 * `results.jsonl` is rewritten atomically (a new file renamed over the
 * old), rows in the same order; nothing else changes.
 *
 * MODEL is a sim profile name (`sim-strong`) or a model object in JSON,
 * as in a sweep config (`{"name":"gpt-4o","provider":"openai",
 * "baseURL":"https://api.openai.com/v1","apiKeyEnv":"OPENAI_API_KEY"}`).
 *
 * @module
 */
import { parseArgs } from "node:util";
import { join } from "node:path";
import { type ModelConfig, ModelSchema } from "../../config/schema.ts";
import { createProvider } from "../../providers/mod.ts";
import { checkRunDir, readResults, rewriteResults } from "../../store/mod.ts";
import type { ResultRow } from "../../types.ts";
import { refineLabels } from "./forensics_judge.ts";
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
  return parsed.data;
}

/**
 * Runs the command.
 *
 * @param args The run folder and flags.
 * @param print Where lines go.
 * @returns 0 done, 2 usage or input error.
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
export async function main(
  args: readonly string[],
  print: (line: string) => void = console.log,
): Promise<number> {
  let values, positionals;
  try {
    ({ values, positionals } = parseArgs({
      args: [...args],
      allowPositionals: true,
      options: {
        judge: { type: "string" },
        validator: { type: "string" },
      },
    }));
  } catch (error) {
    print(`Cannot parse the arguments: ${(error as Error).message}\n${USAGE}`);
    return 2;
  }
  const runDir = positionals[0];
  if (runDir === undefined || values.judge === undefined) {
    print(
      `Cannot run forensics: ${
        runDir === undefined ? "no run folder given" : "--judge is missing"
      }; give a run folder and --judge (a sim profile name or a model JSON)\n${USAGE}`,
    );
    return 2;
  }
  let judge: ModelConfig, validator: ModelConfig | undefined;
  try {
    judge = modelOf("judge", values.judge);
    validator = values.validator === undefined
      ? undefined
      : modelOf("validator", values.validator);
  } catch (error) {
    print((error as Error).message);
    return 2;
  }
  try {
    await checkRunDir(runDir, { action: "run forensics on" });
  } catch (error) {
    print((error as Error).message);
    return 2;
  }
  const path = join(runDir, "results.jsonl");
  const rows: ResultRow[] = [];
  try {
    for await (const row of readResults(path)) rows.push(row);
  } catch (error) {
    print(
      `Cannot read ${path}: ${
        (error as Error).message
      }; give a run folder written by deno task sweep`,
    );
    return 2;
  }
  const sweep = { retries: 4, timeoutMs: 60_000 };
  const context = { simSkills: linalgSuite.simSkills ?? [] };
  const judgeProvider = createProvider(judge, sweep, undefined, context);
  const validatorProvider = validator === undefined
    ? undefined
    : createProvider(validator, sweep, undefined, context);
  const refined = await refineLabels(rows, {
    judge: judgeProvider,
    ...(validatorProvider ? { validator: validatorProvider } : {}),
  });
  await judgeProvider.close?.();
  await validatorProvider?.close?.();
  const byKey = new Map(refined.map((r) => [r.key, r]));
  const out = rows.map((row) => {
    const r = byKey.get(row.key);
    if (r === undefined) return row;
    return {
      ...row,
      error_class: r.label,
      metrics: {
        ...row.metrics,
        forensic_stage: r.stage,
        stage1_label: r.stage1,
        forensic_unscored: r.unscored ?? null,
      },
    };
  });
  await rewriteResults(path, out.map((row) => JSON.stringify(row)));
  const changed = refined.filter((r) => r.label !== r.stage1).length;
  const unscored = refined.filter((r) => r.unscored !== undefined).length;
  print(
    `${refined.length} wrong linear-algebra rows graded: ${changed} relabelled, ${unscored} unscored (kept their stage-1 label); ${path} rewritten`,
  );
  return 0;
}

if (import.meta.main) Deno.exit(await main(Deno.args));
