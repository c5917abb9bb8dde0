/**
 * `deno task sweep <config.json> [--resume <run-dir>] [--no-cache]
 * [--run-dir <dir>] [--progress bar|lines|none] [--limit N]
 * [--shard i/n|slurm|k8s] [--plan [--plan-from <run>] [--assume-accuracy P] [--difference D] [--discordant S]] [--by <dim,...>]`
 *
 * Parses flags and calls `runSweep`; Ctrl-C once stops cleanly (exit 130),
 * twice (more than half a second apart) quits at once; SIGTERM (a cluster
 * engine's preemption, time limit or requeue) stops the same way (exit
 * 143). `--shard slurm|k8s` takes the shard and the job from the engine's
 * environment and writes in the job's shard folder, resuming it when a
 * requeued or retried task finds it there. Config errors and bad flags
 * print a message and exit 2.
 *
 * @module
 */
import { join } from "node:path";
// The layers directly, not lib/mod.ts (which loads the report and Polars),
// so a sweep starts light; the closing summary is counted without Polars.
import {
  checkEndpoints,
  checkEnv,
  ConfigError,
  loadConfig,
} from "../config/mod.ts";
import {
  checkResumePlan,
  runSweep,
  type Shard,
  shardChoice,
  shardDirName,
  SweepInputError,
  type SweepOptions,
  type SweepResult,
} from "../runner/mod.ts";
import { loadSuites, SUITE_NAMES } from "../suites/registry.ts";
import { simProfileProblems } from "../providers/load.ts";
import type { SuiteList } from "../suites/types.ts";
import type { PrecisionOptions } from "../plan/precision.ts";
import {
  checkRunDir,
  readManifest,
  RESULTS_FILE,
  RunDirError,
} from "../store/mod.ts";
import { importLazily } from "../lazy.ts";
import { decodeText } from "../inputs/decode.ts";
import { summarizeResultsText } from "../report/tally_file.ts";
import { CliExit, parseCli, runCli } from "../args.ts";
import { osErrorMessage } from "../os_error.ts";

const USAGE =
  "Usage: deno task sweep <config.json> [--resume <run-dir>] [--no-cache] [--run-dir <dir>] [--progress bar|lines|none|auto] [--limit N] [--shard i/n (1-based) | slurm | k8s] [--plan [--plan-from <run>] [--assume-accuracy P] [--difference D] [--discordant S]] [--by <dim,...>]";

/** Stop signals this close to the first are the same stop (see `onStop`). */
const SIGINT_WINDOW_MS = 500;

/** The signals that stop a sweep cleanly, and the exit code of each. */
const STOP_SIGNALS = { SIGINT: 130, SIGTERM: 143 } as const;

/** A usage problem: printed with the usage, exit 2 (see `runCli`). */
function fail(message: string): never {
  throw new CliExit(2, message);
}

async function main(args: string[]): Promise<number> {
  const { values, positionals } = parseCli(args, {
    usage: USAGE,
    options: {
      resume: { type: "string" },
      "no-cache": { type: "boolean", default: false },
      "run-dir": { type: "string" },
      progress: { type: "string", default: "auto" },
      limit: { type: "string" },
      shard: { type: "string" },
      plan: { type: "boolean", default: false },
      "plan-from": { type: "string", multiple: true },
      "assume-accuracy": { type: "string" },
      difference: { type: "string" },
      discordant: { type: "string" },
      by: { type: "string" },
    },
  });
  // Dims to break the closing table down by as well (`--by category,level`).
  const by = (values.by ?? "").split(",").map((d) => d.trim()).filter((d) =>
    d !== ""
  );
  const progress = values.progress;
  if (!["auto", "bar", "lines", "none"].includes(progress)) {
    fail(
      `Cannot use --progress ${progress}: expected bar, lines, none or auto\n${USAGE}`,
    );
  }
  let limit: number | undefined;
  if (values.limit !== undefined) {
    limit = Number(values.limit);
    if (!Number.isInteger(limit) || limit <= 0) {
      fail(
        `Cannot use --limit ${values.limit}: expected a positive integer\n${USAGE}`,
      );
    }
  }
  let shard: Shard | undefined;
  let job: string | undefined;
  if (values.shard !== undefined) {
    try {
      ({ shard, job } = shardChoice(values.shard));
    } catch (error) {
      fail(`${(error as Error).message}\n${USAGE}`);
    }
  }
  const folderFlag = values.resume !== undefined
    ? "--resume"
    : values["run-dir"] !== undefined
    ? "--run-dir"
    : null;
  if (job !== undefined && shard !== undefined && folderFlag !== null) {
    fail(
      `Cannot use ${folderFlag} with --shard ${values.shard}: the shard's folder is <outputDir>/<name>-${job}/${
        shardDirName(shard)
      }, and a requeued or retried task resumes it by itself; leave out ${folderFlag}\n${USAGE}`,
    );
  }
  // The precision section's assumptions (`--plan` only): shares, written
  // as 0.05 or 5%.
  const precision: PrecisionOptions = {};
  for (
    const [flag, field] of [
      ["assume-accuracy", "accuracy"],
      ["difference", "difference"],
      ["discordant", "discordant"],
    ] as const
  ) {
    const text = values[flag];
    if (text === undefined) continue;
    if (!values.plan && values["plan-from"] === undefined) {
      fail(
        `Cannot use --${flag} without --plan: it sets an assumption of the plan's precision and power section\n${USAGE}`,
      );
    }
    const share = /%\s*$/.test(text)
      ? Number(text.replace(/%\s*$/, "")) / 100
      : Number(text);
    if (!(share > 0 && share < 1)) {
      fail(
        `Cannot use --${flag} ${text}: expected a share between 0 and 1 (exclusive), such as 0.05 or 5%\n${USAGE}`,
      );
    }
    precision[field] = share;
  }
  if (values.plan || values["plan-from"] !== undefined) {
    return await printPlan(positionals, {
      resume: values.resume,
      limit,
      shard,
      from: values["plan-from"],
      precision,
    });
  }
  if (values.resume === undefined && positionals.length !== 1) {
    fail(
      `Cannot start a sweep: give one config file (or --resume <run-dir>)\n${USAGE}`,
    );
  }
  if (values.resume !== undefined && values["run-dir"] !== undefined) {
    fail(
      `Cannot use --run-dir with --resume: the run folder is the one resumed\n${USAGE}`,
    );
  }

  const controller = new AbortController();
  // A terminal sends Ctrl-C's SIGINT to the whole process group, and
  // `deno task` forwards its own copy: one press can arrive twice within
  // milliseconds. Slurm sends SIGTERM to every process of a task (`deno
  // task` and the sweep), which `deno task` forwards too. Signals within
  // SIGINT_WINDOW_MS of the first count as that one stop; a later one
  // quits at once.
  let firstPress: number | null = null;
  let stoppedBy: keyof typeof STOP_SIGNALS = "SIGINT";
  const onStop = (signal: keyof typeof STOP_SIGNALS) => () => {
    const now = performance.now();
    if (firstPress !== null) {
      if (now - firstPress < SIGINT_WINDOW_MS) return;
      Deno.exit(STOP_SIGNALS[signal]);
    }
    firstPress = now;
    stoppedBy = signal;
    console.error(
      signal === "SIGINT"
        ? "\nStopping: saving finished rows (Ctrl-C again to quit at once)..."
        : "\nStopping on SIGTERM: saving finished rows...",
    );
    controller.abort(new Error("interrupted"));
  };
  // (Windows has no SIGTERM to listen to.)
  const signals = Deno.build.os === "windows"
    ? ["SIGINT"] as const
    : ["SIGINT", "SIGTERM"] as const;
  const removals = signals.map((signal) => {
    const listener = onStop(signal);
    Deno.addSignalListener(signal, listener);
    return () => Deno.removeSignalListener(signal, listener);
  });
  const removeStopListeners = () => removals.forEach((remove) => remove());

  const options: Partial<SweepOptions> = {
    progress: progress as "auto" | "bar" | "lines" | "none",
    signal: controller.signal,
  };
  if (values["no-cache"]) options.cache = false;
  if (limit !== undefined) options.limit = limit;
  if (shard !== undefined) options.shard = shard;
  if (job !== undefined) options.job = job;
  let config;
  let suites: SuiteList = [];
  try {
    if (values.resume !== undefined) {
      await checkRunDir(values.resume, { flag: "--resume", rows: false });
      options.resume = values.resume;
      // The plan comes from the manifest; a config given beside it must
      // plan the same rows (runSweep refuses one that does not).
      config = (await readManifest(values.resume)).config;
      suites = await loadSuites(config.suites.map((s) => s.name));
      if (positionals.length === 1) {
        const path = positionals[0]!;
        const given = (await loadConfig(path, await suitesOf(path))).config;
        // refused now, before any endpoint is probed
        checkResumePlan(values.resume, await readManifest(values.resume), {
          config: given,
          limit,
        });
      }
    } else {
      const path = positionals[0]!;
      suites = await suitesOf(path);
      const loaded = await loadConfig(path, suites);
      config = loaded.config;
      options.baseDir = loaded.baseDir;
      if (values["run-dir"] !== undefined) options.runDir = values["run-dir"];
    }
    // A misspelt sim profile would run to the end as error rows.
    const unknown = [
      ...await simProfileProblems(config.models),
      ...(config.extractionJudge === undefined ? [] : await simProfileProblems(
        [config.extractionJudge],
        () => "extractionJudge",
      )),
    ];
    if (unknown.length > 0) {
      throw new ConfigError(
        values.resume === undefined
          ? positionals[0]!
          : `${values.resume}/manifest.json`,
        unknown,
        "Fix the model names; no request was sent.",
      );
    }
    checkEnv(config, (name: string) => Deno.env.get(name));
    // One probe per endpoint before the sweep: a server that is down or a
    // rejected key is one message here, not thousands of error rows.
    const { warnings } = await checkEndpoints(config);
    for (const warning of warnings) console.error(`Warning: ${warning}`);
  } catch (error) {
    removeStopListeners();
    if (
      error instanceof ConfigError && error.source === "endpoints" &&
      error.problems.every((p) => /: cannot reach /.test(p))
    ) {
      // An endpoint that does not answer is not the config's fault: exit 1.
      console.error(error.message);
      return 1;
    }
    if (error instanceof ConfigError) fail(error.message);
    fail(error instanceof Error ? error.message : String(error));
  }

  try {
    const result = await runSweep(config, { ...options, suites });
    // Last, after the summary, where a terminal leaves them in view.
    const warn = () => {
      for (const w of result.warnings) console.error(`Warning: ${w}`);
    };
    const stored = result.done + result.skipped;
    if (result.interrupted) {
      warn();
      console.error(
        `Interrupted: ${stored} of ${result.total} rows saved in ${result.runDir}. ${
          job === undefined
            ? "Resume with"
            : "A requeued or retried task resumes it; by hand"
        }: deno task sweep --resume ${result.runDir}`,
      );
      return STOP_SIGNALS[stoppedBy];
    }
    console.log(`Run folder: ${result.runDir}`);
    console.log(
      `${stored} of ${result.total} rows stored (${result.done} new, ${result.skipped} resumed, ${result.cached} from cache, ${result.errors} errors) in ${
        result.elapsedSeconds.toFixed(1)
      } s`,
    );
    // The same table and accuracy rule as the report and the demo: suite ×
    // model (× template when there are several), each suite's declared
    // headline metrics; counted from the rows without Polars (a suite
    // whose metrics need a frame loads it then), so a sweep ends light.
    console.log(
      await summarizeResultsText(join(result.runDir, RESULTS_FILE), {
        suites,
        by,
      }),
    );
    warn();
    return modelsFailed(result) ? 1 : 0;
  } catch (error) {
    // An OS error in words (a results.jsonl that is a folder: exit 2; a
    // full disk: exit 1), never "(os error N)".
    const os = osErrorMessage(error);
    console.error(
      os?.message ?? (error instanceof Error ? error.message : String(error)),
    );
    // Bad input (a dataset, a run folder) is the user's to fix: exit 2, as
    // for a bad config; nothing was created.
    return os?.exitCode ?? (error instanceof SweepInputError ? 2 : 1);
  } finally {
    removeStopListeners();
  }
}

/**
 * Says, after the closing table, which models were stopped early or have
 * nothing but error rows, each with the error; true when any was.
 */
function modelsFailed(result: SweepResult): boolean {
  for (const s of result.stopped) {
    console.error(
      `Stopped model "${s.model}": its first ${s.rows} requests all failed with the same error, so the rest were not sent: ${s.message}. Fix the model (its id, params, endpoint) and resume: deno task sweep --resume ${result.runDir}`,
    );
  }
  const stopped = new Set(result.stopped.map((s) => s.model));
  for (const f of result.failing) {
    if (stopped.has(f.model)) continue;
    console.error(
      `Every row of model "${f.model}" is an error row (${f.rows}); the first error: ${
        f.firstError ?? "unknown"
      }. Its numbers measure the failure, not the model.`,
    );
  }
  return result.stopped.length > 0 || result.failing.length > 0;
}

/**
 * `--plan`: prints what the sweep would send, cost and take, per model ×
 * suite × template; sends nothing and creates nothing (no endpoint probe,
 * no run folder, no cache). The planner and its tokenizer load only here.
 */
async function printPlan(
  positionals: string[],
  options: {
    resume: string | undefined;
    limit: number | undefined;
    shard: Shard | undefined;
    from: string[] | undefined;
    precision: PrecisionOptions;
  },
): Promise<number> {
  if (options.resume !== undefined) {
    fail(
      `Cannot plan a resume: --plan counts a whole sweep; give its config file instead\n${USAGE}`,
    );
  }
  if (positionals.length !== 1) {
    fail(`Cannot plan: give one config file\n${USAGE}`);
  }
  // Lazily: the plan's graph (the tokenizer's) is for --plan only.
  const { planSweep, planText } = await importLazily<
    typeof import("../plan/mod.ts")
  >("../plan/mod.ts", import.meta.url);
  try {
    for (const run of options.from ?? []) {
      await checkRunDir(run, { flag: "--plan-from", rows: false });
    }
    const suites = await suitesOf(positionals[0]!);
    const { config, baseDir } = await loadConfig(positionals[0]!, suites);
    const plan = await planSweep(config, {
      suites,
      baseDir,
      ...(options.limit === undefined ? {} : { limit: options.limit }),
      ...(options.shard === undefined ? {} : { shard: options.shard }),
      ...(options.from === undefined ? {} : { from: options.from }),
      precision: options.precision,
    });
    console.log(planText(plan));
    return 0;
  } catch (error) {
    console.error(error instanceof Error ? error.message : String(error));
    return error instanceof ConfigError || error instanceof SweepInputError ||
        error instanceof RunDirError
      ? 2
      : 1;
  }
}

/**
 * The suites a config file names, loaded alone (a sweep imports only the
 * suites it runs). A file that cannot be read, is not JSON or names a
 * suite that does not exist gets every suite: `loadConfig` then reports
 * the problem as usual, with the full list of known suites.
 */
async function suitesOf(path: string): Promise<SuiteList> {
  let names: string[] | undefined;
  try {
    const raw = JSON.parse(
      decodeText(await Deno.readFile(path), { path }).text,
    ) as { suites?: { name?: unknown }[] };
    const listed = raw.suites?.map((s) => s.name);
    if (
      Array.isArray(listed) &&
      listed.every((n) => typeof n === "string" && SUITE_NAMES.includes(n))
    ) names = listed as string[];
  } catch {
    // Reported by loadConfig, with all suites known.
  }
  return await loadSuites(names);
}

if (import.meta.main) Deno.exit(await runCli(() => main(Deno.args)));
