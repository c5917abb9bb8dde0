/**
 * The run folder a sweep writes to: a new one (it appears with its
 * manifest), a resumed one (its stored rows read, garbage set aside), a
 * `--run-dir` folder without a manifest, or a cluster job's shard folder
 * (`<outputDir>/<name>-<job>/shard-<i>-of-<n>/`, resumed when a requeued
 * or retried task finds it); and the shard a run keeps.
 * Private to `lib/runner` (`runSweep` opens the folder through these).
 *
 * @module
 */
import { basename, dirname, join, resolve } from "node:path";
import type { SweepConfig } from "../config/schema.ts";
import type { ResultRow } from "../types.ts";
import {
  type BadResultLine,
  createRunDir,
  createRunDirAt,
  enclosingRun,
  fsReason,
  isRunFileName,
  type Manifest,
  type ManifestSession,
  readManifest,
  readResults,
  realOutputPath,
  RunDirError,
  tidyResults,
  writeManifest,
} from "../store/mod.ts";
import { SweepInputError } from "./entries.ts";
import { rowKey } from "./row.ts";
import type { ModelHealth } from "./model_health.ts";
import { checkResumePlan } from "./resume_plan.ts";
import { checkShard, type Shard, shardOf } from "./shard.ts";
import { jobShardDir, shardDirName } from "./job_dir.ts";
import type { SweepOptions } from "./sweep_options.ts";
import type { SuiteEntry } from "./work.ts";
import { outcomeOf } from "./_adaptive.ts";

/** The run folder and manifest a sweep starts from (new, or resumed). */
export interface Start {
  /** The resumed run's folder ("" for a new run: see `at`). */
  runDir: string;
  manifest: Manifest | null;
  config: SweepConfig;
  baseDir: string;
  limit: number | undefined;
  /**
   * Where a new run goes (`--run-dir`, or a job's shard folder); absent:
   * a new `<outputDir>/<name>-<time>` folder.
   */
  at?: string;
  /** The new run's name (its rows' `run`). @default the folder's name */
  run?: string;
}

/** Whether `dir` holds a `manifest.json` (false when it or the folder is missing). */
async function hasManifest(dir: string): Promise<boolean> {
  try {
    await Deno.stat(join(dir, "manifest.json"));
    return true;
  } catch (error) {
    if (error instanceof Deno.errors.NotFound) return false;
    throw new SweepInputError(
      `Cannot use ${dir} as the shard's run folder: ${
        fsReason(error)
      }; check the job folder's permissions`,
    );
  }
}

/**
 * The start of one shard of a cluster job (`options.job`): its folder is
 * `<outputDir>/<name>-<job>/shard-<i>-of-<n>/`. A folder with a manifest
 * is this shard run before (the task was requeued, preempted or retried):
 * it is resumed, its plan checked against the config as `--resume` does.
 * Otherwise the shard starts there.
 */
async function openJobShard(
  config: SweepConfig,
  options: SweepOptions,
  job: string,
  baseDir: string,
): Promise<Start> {
  const { shard } = options;
  if (shard === undefined) {
    throw new SweepInputError(
      `Cannot run a shard of job ${job}: no shard given; give the shard with the job (--shard slurm or --shard k8s)`,
    );
  }
  const clash = options.resume !== undefined
    ? "--resume"
    : options.runDir !== undefined
    ? "--run-dir"
    : null;
  let dir: string;
  try {
    dir = jobShardDir(config, { job, shard: checkShard(shard) });
  } catch (error) {
    throw new SweepInputError((error as Error).message);
  }
  if (clash !== null) {
    throw new SweepInputError(
      `Cannot use ${clash} with a job's shard: its folder is ${dir} (from the config's outputDir and name and the job id), and a requeued or retried task resumes it by itself; leave out ${clash}`,
    );
  }
  if (!(await hasManifest(dir))) {
    // Named uniquely across jobs, where every job has a shard-1-of-n.
    return newStart(config, options, baseDir, {
      at: dir,
      run: `${config.name}-${job}-${shardDirName(shard)}`,
    });
  }
  const manifest = await manifestOf(dir);
  try {
    checkResumePlan(dir, manifest, { config, limit: options.limit });
  } catch (error) {
    throw new SweepInputError(
      `${
        (error as Error).message
      } (${dir} is shard ${shard.index}/${shard.count} of job ${job}; a new job id gets new folders)`,
    );
  }
  return resumed(dir, manifest, options, baseDir);
}

/**
 * The start of a new run, at `where` (else a new `<name>-<time>` folder).
 * The folder itself is made only once the questions are loaded, so bad
 * input leaves nothing behind.
 */
function newStart(
  config: SweepConfig,
  options: SweepOptions,
  baseDir: string,
  where: { at?: string; run?: string },
): Start {
  return {
    runDir: "",
    manifest: null,
    config,
    baseDir,
    limit: options.limit,
    ...where,
  };
}

/** A run's manifest; a folder that is not a run's is input to fix. */
async function manifestOf(dir: string): Promise<Manifest> {
  try {
    return await readManifest(dir);
  } catch (error) {
    if (error instanceof RunDirError) throw new SweepInputError(error.message);
    throw error;
  }
}

/** The start of a resumed run: its manifest's config, `--limit` and base folder. */
function resumed(
  runDir: string,
  manifest: Manifest,
  options: SweepOptions,
  baseDir: string,
): Start {
  return {
    runDir,
    manifest,
    config: manifest.config,
    baseDir: manifest.baseDir !== undefined && options.baseDir === undefined
      ? manifest.baseDir
      : baseDir,
    limit: manifest.limit,
  };
}

/**
 * The run a sweep starts from: with `resume`, the run's manifest (its
 * config, `--limit` and base folder; a plan that differs is refused by
 * `checkResumePlan`); else the config given, the folder made later.
 */
export async function openRun(
  config: SweepConfig,
  options: SweepOptions,
): Promise<Start> {
  const baseDir = resolve(options.baseDir ?? Deno.cwd());
  if (options.job !== undefined) {
    return await openJobShard(config, options, options.job, baseDir);
  }
  if (options.resume !== undefined) {
    const manifest = await manifestOf(options.resume);
    checkResumePlan(options.resume, manifest, { config, limit: options.limit });
    return resumed(options.resume, manifest, options, baseDir);
  }
  return newStart(
    config,
    options,
    baseDir,
    options.runDir === undefined ? {} : { at: options.runDir },
  );
}

/** What {@linkcode openStore} needs to know. */
export interface StoreInputs {
  config: SweepConfig;
  options: SweepOptions;
  start: Start;
  entries: readonly SuiteEntry[];
  shard: Shard | undefined;
  started: Date;
  /** Builds the manifest of a new run (named by `run`). */
  newManifest: () => Promise<Manifest>;
  session: ManifestSession;
  secrets: readonly string[];
  /** Counts the rows stored before, per model. */
  health: ModelHealth;
}

/** The run folder ready for rows: manifest written, earlier rows read. */
export interface OpenedStore {
  runDir: string;
  manifest: Manifest;
  finished: Set<string>;
  /**
   * Each stored row's outcome for an adaptive design (`outcomeOf`), by
   * key; kept only when the sweep has an adaptive entry.
   */
  outcomes: Map<string, boolean | null>;
  priorErrors: number;
  priorCached: number;
  warnings: string[];
}

/** Rows already in a results file, and lines that are not the run's rows. */
interface PriorRows {
  finished: Set<string>;
  outcomes: Map<string, boolean | null>;
  priorErrors: number;
  priorCached: number;
  /** Keys of rows outside the plan (with `outside`), in file order. */
  outside: string[];
  /** Lines to set aside: not rows, rows of another run or plan, repeats. */
  bad: BadResultLine[];
}

/**
 * Why a stored row is not one of this run's (a plural clause for the
 * message that sets it aside), or null when it is.
 */
type RowJudge = (row: ResultRow) => string | null;

/**
 * Reads the rows stored so far (a torn last line is skipped). Writes
 * nothing. A row `foreign` refuses, and a second row of a key already
 * read, go to `bad` with the reason; with `outside`, rows outside the
 * plan are listed in `outside` (the caller refuses them).
 */
async function readPrior(
  resultsPath: string,
  options: {
    foreign?: RowJudge;
    outside?: (row: ResultRow) => boolean;
    health?: ModelHealth;
    /** Keep each row's outcome (for adaptive designs). @default false */
    outcomes?: boolean;
  } = {},
): Promise<PriorRows> {
  const { foreign, outside, health } = options;
  const prior: PriorRows = {
    finished: new Set(),
    outcomes: new Map(),
    priorErrors: 0,
    priorCached: 0,
    outside: [],
    bad: [],
  };
  const reasons = new Map<string, string>();
  const rows = readResults(resultsPath, {
    onBadLine: (line, text) => prior.bad.push({ line, text }),
    onTornLine: (line, text) => prior.bad.push({ line, text }),
    belongs: (row) => {
      const why = foreign?.(row) ??
        (prior.finished.has(row.key)
          ? "rows repeating a key stored on an earlier line"
          : null);
      if (why !== null) reasons.set(row.key, why);
      return why === null;
    },
    onForeignRow: (line, text, row) =>
      prior.bad.push({ line, text, reason: reasons.get(row.key)! }),
  });
  for await (const row of rows) {
    if (outside?.(row)) prior.outside.push(row.key);
    prior.finished.add(row.key);
    if (options.outcomes) prior.outcomes.set(row.key, outcomeOf(row));
    health?.note(row);
    if (row.status === "error") prior.priorErrors++;
    if (row.cached) prior.priorCached++;
  }
  return prior;
}

/**
 * The rows a resumed run keeps: its own run id, the key its fields make,
 * inside its plan (see {@linkcode outsidePlan}).
 */
function foreignRows(
  runName: string,
  outside: (row: ResultRow) => boolean,
): RowJudge {
  return (row) => {
    if (row.run !== runName) return "rows of another run";
    if (
      row.key !==
        rowKey({
          model: row.model,
          question: row.question_id,
          template: row.template,
          sample: row.sample,
        })
    ) return "rows whose key is not the one their fields make";
    if (outside(row)) return "rows outside the run's plan";
    return null;
  };
}

/** Sets aside what is not a row (see `tidyResults`), saying so in `warnings`. */
async function tidyPrior(
  resultsPath: string,
  prior: PriorRows,
  started: Date,
  warnings: string[],
): Promise<void> {
  const said = await tidyResults(resultsPath, {
    bad: prior.bad,
    when: started,
  });
  if (said !== null) warnings.push(said);
}

/** A test of whether a stored row is outside the plan of this sweep. */
function outsidePlan(
  config: SweepConfig,
  entries: readonly SuiteEntry[],
  shard: Shard | undefined,
): (row: ResultRow) => boolean {
  const models = new Set(config.models.map((m) => m.name));
  const templates = new Map<string, Set<string>>();
  for (const entry of entries) {
    const ids = entry.templates.map(([id]) => id);
    for (const q of entry.questions) templates.set(q.id, new Set(ids));
  }
  return (row) =>
    !models.has(row.model) ||
    !(templates.get(row.question_id)?.has(row.template) ?? false) ||
    !Number.isInteger(row.sample) || row.sample < 0 ||
    row.sample >= config.samples ||
    (shard !== undefined && shard.count > 1 &&
      shardOf({
          model: row.model,
          question: row.question_id,
          template: row.template,
        }, shard.count) !==
        shard.index);
}

/** What is at a `--run-dir` path. */
async function runDirState(
  runDir: string,
): Promise<"absent" | "file" | "run" | "no-manifest" | { foreign: string }> {
  try {
    if (!(await Deno.stat(runDir)).isDirectory) return "file";
  } catch (error) {
    if (error instanceof Deno.errors.NotFound) return "absent";
    throw new SweepInputError(
      `Cannot use ${runDir} as the run folder: ${
        fsReason(error)
      }; give a folder path with --run-dir`,
    );
  }
  try {
    await Deno.stat(join(runDir, "manifest.json"));
    return "run";
  } catch (error) {
    if (!(error instanceof Deno.errors.NotFound)) throw error;
  }
  for await (const entry of Deno.readDir(runDir)) {
    if (!isRunFileName(entry.name)) return { foreign: entry.name };
  }
  return "no-manifest";
}

/**
 * Refuses a new run folder inside another run's folder (a `--run-dir`, or
 * the config's `outputDir`, given as a run folder or a path below one):
 * the sweep would write among that run's files.
 */
async function refuseInsideRun(
  at: string | undefined,
  outputDir: string,
): Promise<void> {
  const where = at === undefined ? outputDir : dirname(resolve(at));
  const run = await enclosingRun(await realOutputPath(where));
  if (run === null) return;
  throw new SweepInputError(
    `Cannot start a sweep in ${
      at ?? outputDir
    }: it is inside the run folder ${run}, and a new run would write among that run's files; give ${
      at === undefined
        ? "the config's outputDir a folder that holds runs (such as outputs)"
        : "--run-dir a new folder outside it"
    }`,
  );
}

/**
 * Opens the run folder for rows, after the input was loaded and checked:
 *
 * - resume: reads the stored rows, moves garbage aside, adds the session
 *   to the manifest;
 * - a new run: the folder appears with its manifest already in it (made
 *   under a temporary name, then renamed), so a kill at any moment leaves
 *   no run folder without one;
 * - `--run-dir` naming a folder without a manifest (a kill in an older
 *   version, a folder made by hand): with no rows, the run restarts in
 *   place; with rows, they are resumed under this config, unless some are
 *   outside its plan (refused). A warning says which happened.
 */
export async function openStore(inputs: StoreInputs): Promise<OpenedStore> {
  const { config, start, started, session, secrets } = inputs;
  const warnings: string[] = [];
  const adaptive = inputs.entries.some((e) => e.adaptive !== undefined);
  if (start.manifest !== null) {
    const runDir = start.runDir;
    const resultsPath = join(runDir, "results.jsonl");
    const prior = await readPrior(resultsPath, {
      foreign: foreignRows(
        start.manifest.run,
        outsidePlan(config, inputs.entries, inputs.shard),
      ),
      health: inputs.health,
      outcomes: adaptive,
    });
    await tidyPrior(resultsPath, prior, started, warnings);
    start.manifest.sessions.push(session);
    await writeManifest(runDir, start.manifest, { redact: secrets });
    return { runDir, manifest: start.manifest, ...prior, warnings };
  }
  await refuseInsideRun(start.at, config.outputDir);
  const manifest = await inputs.newManifest();
  manifest.sessions.push(session);
  const fresh = (runDir: string): OpenedStore => ({
    runDir,
    manifest,
    finished: new Set(),
    outcomes: new Map(),
    priorErrors: 0,
    priorCached: 0,
    warnings,
  });
  const write = async (dir: string, run: string) => {
    manifest.run = run;
    await writeManifest(dir, manifest, { redact: secrets });
  };
  try {
    if (start.at === undefined) {
      return fresh(
        await createRunDir(config.outputDir, config.name, {
          date: started,
          init: write,
        }),
      );
    }
    const runDir = start.at;
    const run = start.run ?? basename(resolve(runDir));
    const state = await runDirState(runDir);
    if (state === "absent") {
      return fresh(
        await createRunDirAt(runDir, { init: (dir) => write(dir, run) }),
      );
    }
    if (state === "file") {
      throw new SweepInputError(
        `Cannot use ${runDir} as the run folder: a file of that name exists; give a folder path with --run-dir`,
      );
    }
    if (typeof state === "object") {
      throw new SweepInputError(
        `Cannot start a sweep in ${runDir}: it is a folder of other files (such as ${state.foreign}), not a run, and a sweep would write its rows and manifest among them; give --run-dir a path that does not exist yet (the sweep creates the folder), or leave out --run-dir for a new folder under outputDir`,
      );
    }
    if (state === "run") {
      throw new SweepInputError(
        `Cannot start a sweep in ${runDir}: it already holds a run; resume it with --resume ${runDir}`,
      );
    }
    const resultsPath = join(runDir, "results.jsonl");
    const prior = await readPrior(resultsPath, {
      outside: outsidePlan(config, inputs.entries, inputs.shard),
      health: inputs.health,
      outcomes: adaptive,
    });
    const stored = prior.finished.size;
    if (prior.outside.length > 0) {
      throw new SweepInputError(
        `Cannot resume the rows in ${runDir} with this config: ${prior.outside.length} of the ${stored} stored rows are not in its plan (first: ${
          prior.outside[0]
        }); give the config the run was started with, or another --run-dir`,
      );
    }
    await write(runDir, run);
    await tidyPrior(resultsPath, prior, started, warnings);
    warnings.unshift(
      stored === 0
        ? `${runDir} had no manifest and no rows (a sweep killed as it started, or a folder made by hand): restarting in place`
        : `${runDir} had no manifest but ${stored} stored row(s): resuming them with the config given (wrote a new manifest.json)`,
    );
    return { runDir, manifest, ...prior, warnings };
  } catch (error) {
    if (error instanceof RunDirError) throw new SweepInputError(error.message);
    throw error;
  }
}

/**
 * The shard a sweep runs: a resumed run's own (a different `--shard` is
 * refused), else the one asked for, else none.
 */
export function shardToRun(
  manifest: Manifest | null,
  asked: Shard | undefined,
): Shard | undefined {
  let shard: Shard | undefined;
  try {
    if (manifest?.shard !== undefined) shard = checkShard(manifest.shard);
    else if (manifest === null && asked !== undefined) {
      shard = checkShard(asked);
    }
  } catch (error) {
    throw new SweepInputError((error as Error).message);
  }
  if (
    manifest !== null && asked !== undefined &&
    (shard?.index !== asked.index || shard?.count !== asked.count)
  ) {
    throw new SweepInputError(
      `Cannot resume with --shard ${asked.index}/${asked.count}: the run holds ${
        shard === undefined
          ? "the whole sweep"
          : `shard ${shard.index}/${shard.count}`
      }; resume without --shard (a run keeps its shard)`,
    );
  }
  return shard;
}
