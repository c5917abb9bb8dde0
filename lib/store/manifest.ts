/**
 * The run manifest: everything needed to know what a run was and to resume
 * it. It holds environment variable NAMES, never their values.
 *
 * @module
 */
import { join, resolve } from "node:path";
import type { SweepConfig } from "../config/schema.ts";
import { environmentVersions, gitRevision } from "./_versions.ts";
import { redactSecrets } from "./redact.ts";
import type { RunIdentity } from "./identity.ts";
import { fsReason, RunDirError } from "./run_dir.ts";

/** One session of work on a run (the first run, then each resume). */
export interface ManifestSession {
  /** ISO time the session started. */
  startedAt: string;
  /** ISO time it ended, or null while it runs (or when it crashed). */
  endedAt: string | null;
  /** Rows written in this session. */
  written: number;
  /** Rows skipped because they were already stored. */
  skipped: number;
  /** Whether it was stopped (Ctrl-C, a signal) before its work was done. */
  interrupted: boolean;
  /**
   * What judging ran on in this session, per suite entry (`code`, or
   * `code#2` for a second entry of one suite): e.g. the code sandbox's
   * Python backend and its versions.
   */
  judging?: Record<string, Record<string, string>>;
}

/** One batch of a Batch API run (`deno task batch submit`), as recorded. */
export interface BatchRecord {
  /** The model's name in the config. */
  model: string;
  /** The request file in the run folder, relative to it. */
  file: string;
  /** Request lines in the file. */
  requests: number;
  /** Id the endpoint gave the uploaded request file. */
  inputFileId: string;
  /** Id the endpoint gave the batch. */
  batchId: string;
  /** ISO time the batch was submitted. */
  submittedAt: string;
  /** The last status seen (`validating` ... `completed`, `failed`, `expired`, `cancelled`). */
  status: string;
  /** Id of the endpoint's file of answers, once it has one. */
  outputFileId: string | null;
  /** Id of the endpoint's file of failed requests, once it has one. */
  errorFileId: string | null;
  /** When its output and error lines were last turned into rows. */
  collectedAt: string | null;
}

/** The content of `manifest.json`. */
export interface Manifest {
  /** Format and version of this file; readers refuse another. */
  format: "unaided-eval-run/1";
  /** Run id: the run folder's name. */
  run: string;
  /** The config as validated (defaults filled in). */
  config: SweepConfig;
  /** Models as resolved: what is sent where, and which variable holds the key. */
  models: {
    name: string;
    provider: string;
    model: string;
    baseURL: string | null;
    apiKeyEnv: string | null;
  }[];
  /**
   * The sweep's seed (`config.seed`) and how each request's seed is
   * derived from it (a formula, as text).
   */
  seeds: { sweep: number; requestSeed: string };
  /** Questions per suite and the rows the sweep plans. */
  questions: Record<string, number>;
  /**
   * What the run is: the row-deciding config, the content hash and
   * encoding of every input file it read, each suite's generator version
   * and questions (see `identity.ts`). Absent in runs made before
   * identities were recorded.
   */
  identity?: RunIdentity;
  /** Rows the sweep plans (models × questions × templates × samples). */
  total: number;
  /** Versions of Deno, V8, TypeScript and the pinned libraries. */
  versions: {
    deno: string;
    v8: string;
    typescript: string;
    libraries: Record<string, string>;
  };
  /** The toolkit's git commit, or null outside a git checkout. */
  gitRevision: string | null;
  /** ISO time the run first started. */
  startedAt: string;
  /** ISO time the last session ended, or null while one runs. */
  endedAt: string | null;
  /** Whether the last session was stopped before its work was done. */
  interrupted: boolean;
  /** Rows stored, rows whose status is `error`, rows served from the cache. */
  counts: { rows: number; errors: number; cached: number };
  /** The first session, then one per resume. */
  sessions: ManifestSession[];
  /** The batches of a Batch API run, in submission order. */
  batches?: BatchRecord[];
  /** Folder relative dataset paths resolved against. */
  baseDir?: string;
  /** At most this many questions per suite (`--limit`), kept for resume. */
  limit?: number;
  /**
   * The shard this run holds (`--shard index/count`, 1-based); absent for
   * a whole sweep. Resume keeps it.
   */
  shard?: { index: number; count: number };
  /**
   * Each adaptive design's state (an entry with `adaptive`), per (model,
   * template, group), as the last session left it.
   */
  adaptive?: AdaptiveGroupState[];
  /** For a run made by `deno task merge`: the shard folders it came from. */
  mergedFrom?: {
    dir: string;
    run: string;
    shard: { index: number; count: number };
  }[];
}

/**
 * What an adaptive design ended as, per (model, template, group) of an
 * entry with `adaptive`. `stopped` is `"width"` when the crossing's
 * interval reached the width, `"questions"` when the group's questions
 * ran out first (or none of those left could narrow the interval), and
 * null when the sweep stopped before either (a resume goes on).
 */
export interface AdaptiveGroupState {
  /** The entry, as `suites[i]`. */
  entry: string;
  /** The suite's name. */
  suite: string;
  /** The model's name. */
  model: string;
  /** The template id. */
  template: string;
  /** The group (e.g. an arithmetic family). */
  group: string;
  /** The dim the design moves along. */
  dim: string;
  /** The accuracy whose crossing is sought. */
  target: number;
  /** The interval width it stops at. */
  width: number;
  /**
   * The crossing's posterior mean (a crossing below the smallest size
   * counts as one size below it, above the largest as one above).
   */
  mean: number;
  /** The 95% interval's lower end. */
  low: number;
  /** The 95% interval's upper end. */
  high: number;
  /** Outcomes the design took (scored rows). */
  trials: number;
  /** Rows of the group (stored before and written now). */
  rows: number;
  /** Rows the group could have had (its questions). */
  questions: number;
  /** Rows per size, as `{ "5": 12 }`. */
  asked: Record<string, number>;
  /** The design's sizes (those never asked too), ascending. */
  sizes: number[];
  /**
   * The outcomes the design took per size, `[correct, wrong]` (error rows
   * count as wrong, as in accuracy): with `sizes`, `target` and `width`
   * they rebuild its posterior.
   */
  counts: Record<string, [number, number]>;
  /** Why it stopped, or null when it has not. */
  stopped: "width" | "questions" | null;
  /**
   * `"above"` when the whole interval lies above the largest size (the
   * model has not broken at any size asked), `"below"` when it lies
   * below the smallest (broken at every size); null otherwise.
   */
  beyond: "above" | "below" | null;
}

/** Inputs of {@linkcode buildManifest}. */
export interface BuildManifestOptions {
  /** Run id: the run folder's name. */
  run: string;
  /** The validated sweep config. */
  config: SweepConfig;
  /** Questions per suite. */
  questions: Record<string, number>;
  /** Rows the sweep plans. */
  total: number;
  /** How each request's seed is derived from the sweep's (recorded as is). */
  requestSeed: string;
  /** When the run started. */
  startedAt: Date;
  /**
   * Versions and git revision already being read (see
   * {@linkcode readEnvironment}), so a caller can overlap the `git`
   * subprocess with other start-up work. @default read here
   */
  environment?: Promise<ManifestEnvironment>;
}

/** What {@linkcode readEnvironment} reads for a manifest. */
export interface ManifestEnvironment {
  /** Versions of Deno, V8, TypeScript and the pinned libraries. */
  versions: Manifest["versions"];
  /** The toolkit's git commit, or null outside a git checkout. */
  gitRevision: string | null;
}

/**
 * Reads the tool and library versions and the git revision (a `git`
 * subprocess, about 10 ms) for {@linkcode buildManifest}.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { readEnvironment } from "./manifest.ts";
 * const env = await readEnvironment();
 * assert.equal(env.versions.deno, Deno.version.deno);
 * ```
 */
export async function readEnvironment(): Promise<ManifestEnvironment> {
  const [versions, revision] = await Promise.all([
    environmentVersions(),
    gitRevision(),
  ]);
  return { versions, gitRevision: revision };
}

/**
 * Builds the start-of-run manifest (versions and git revision included).
 *
 * @param options What the run is.
 * @returns A manifest with no end time yet.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { buildManifest } from "./manifest.ts";
 * import { SweepConfigSchema } from "../config/schema.ts";
 * const config = SweepConfigSchema.parse({
 *   models: [{ name: "m", provider: "openai", baseURL: "http://127.0.0.1:1/v1", apiKeyEnv: "MY_KEY" }],
 *   suites: [{ name: "arithmetic" }],
 * });
 * const m = await buildManifest({ run: "r", config, questions: { arithmetic: 3 }, total: 3, requestSeed: "x", startedAt: new Date(0) });
 * assert.equal(m.models[0]?.apiKeyEnv, "MY_KEY");
 * assert.equal(m.endedAt, null);
 * ```
 */
export async function buildManifest(
  options: BuildManifestOptions,
): Promise<Manifest> {
  const { run, config, questions, total, requestSeed, startedAt } = options;
  const { versions, gitRevision: revision } = await (options.environment ??
    readEnvironment());
  const iso = startedAt.toISOString();
  return {
    format: "unaided-eval-run/1",
    run,
    config,
    models: config.models.map((m) => ({
      name: m.name,
      provider: m.provider,
      model: m.model ?? m.name,
      baseURL: m.baseURL ?? null,
      apiKeyEnv: m.apiKeyEnv ?? null,
    })),
    seeds: { sweep: config.seed, requestSeed },
    questions,
    total,
    versions,
    gitRevision: revision,
    startedAt: iso,
    endedAt: null,
    interrupted: false,
    counts: { rows: 0, errors: 0, cached: 0 },
    sessions: [],
  };
}

/**
 * Writes `manifest.json` atomically (temp file, then rename).
 *
 * @param runDir The run folder.
 * @param manifest The manifest.
 * @param options `redact`, strings that must never be written (API key
 *   values); each is replaced by `[redacted]`. @default none
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { readManifest, writeManifest } from "./manifest.ts";
 * const dir = await Deno.makeTempDir();
 * const config = { models: [], suites: [] };
 * await writeManifest(dir, { run: "sk-secret", config } as never, { redact: ["sk-secret"] });
 * assert.equal((await readManifest(dir)).run, "[redacted]");
 * await Deno.remove(dir, { recursive: true });
 * ```
 */
export async function writeManifest(
  runDir: string,
  manifest: Manifest,
  { redact = [] }: { redact?: readonly string[] } = {},
): Promise<void> {
  const text = redactSecrets(JSON.stringify(manifest, null, 2) + "\n", redact);
  const path = join(runDir, "manifest.json");
  const tmp = `${path}.tmp`;
  await Deno.writeTextFile(tmp, text);
  await Deno.rename(tmp, path);
}

/**
 * Reads a run's `manifest.json` to resume the run.
 *
 * @param runDir The run folder.
 * @returns The manifest.
 * @throws {RunDirError} "Cannot read the manifest of <dir>: <why>; <what to
 *   do>" when the folder is missing or a file, has no manifest (a sweep
 *   killed as it started: with rows, the message says to give the config
 *   with `--run-dir`; without, that it is not a run folder), or the manifest is not JSON or not a
 *   run manifest.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { readManifest } from "./manifest.ts";
 * await assert.rejects(readManifest("/nonexistent-run"), /Cannot read the manifest/);
 * const dir = await Deno.makeTempDir();
 * await assert.rejects(readManifest(dir), /not a run folder/);
 * await Deno.writeTextFile(`${dir}/results.jsonl`, "");
 * await assert.rejects(readManifest(dir), /no manifest .*--run-dir/);
 * await Deno.remove(dir, { recursive: true });
 * ```
 */
export async function readManifest(runDir: string): Promise<Manifest> {
  const path = join(runDir, "manifest.json");
  const action = `Cannot read the manifest of ${runDir}`;
  const restart =
    `give the config the run was started with: deno task sweep <config.json> --run-dir ${runDir} restarts it in place when it holds no rows, else resumes its rows`;
  let info;
  try {
    info = await Deno.stat(runDir);
  } catch (error) {
    throw new RunDirError(
      `${action}: ${
        error instanceof Deno.errors.NotFound
          ? `no such folder (${resolve(runDir)})`
          : fsReason(error)
      }; give a run folder written by deno task sweep (outputs/<name>-<time>)`,
      runDir,
      "missing",
    );
  }
  if (!info.isDirectory) {
    throw new RunDirError(
      `${action}: it is a file, not a run folder; give the folder that holds manifest.json and results.jsonl`,
      runDir,
      "not-a-folder",
    );
  }
  let text;
  try {
    text = await Deno.readTextFile(path);
  } catch (error) {
    if (error instanceof Deno.errors.NotFound) {
      // Only a folder with rows is a run that lost its manifest; advice to
      // make any other folder a run would write into the user's files.
      const hasRows = await Deno.stat(join(runDir, "results.jsonl")).then(
        () => true,
        () => false,
      );
      throw new RunDirError(
        hasRows
          ? `${action}: it has results.jsonl but no manifest (manifest.json), as when a sweep is killed as it starts; ${restart}`
          : `${action}: it is not a run folder (no manifest.json, no results.jsonl); give a run folder written by deno task sweep (outputs/<name>-<time>)`,
        runDir,
        "no-manifest",
      );
    }
    throw new RunDirError(
      `${action}: ${path}: ${fsReason(error)}; make it readable`,
      runDir,
      "bad-manifest",
    );
  }
  let manifest: unknown;
  try {
    manifest = JSON.parse(text);
  } catch (error) {
    throw new RunDirError(
      `${action}: ${path} is not valid JSON (${
        (error as Error).message
      }); restore it, or move it away and ${restart}`,
      runDir,
      "bad-manifest",
    );
  }
  const config = (manifest as { config?: Record<string, unknown> } | null)
    ?.config;
  if (
    typeof config !== "object" || config === null ||
    !Array.isArray(config.models) || !Array.isArray(config.suites)
  ) {
    throw new RunDirError(
      `${action}: ${path} is not a run manifest (no "config" with models and suites); restore it, or move it away and ${restart}`,
      runDir,
      "bad-manifest",
    );
  }
  return manifest as Manifest;
}
