/**
 * Shards named by a cluster engine: `--shard slurm` reads a Slurm job
 * array task's variables, `--shard k8s` a Kubernetes Indexed Job pod's
 * ({@linkcode shardFromEnv}); `--shard i/n` stays {@linkcode parseShard}'s.
 *
 * @module
 */
import { JOB_ID } from "./job_dir.ts";
import { MAX_SHARDS, parseShard, type Shard } from "./shard.ts";

/** A cluster engine whose environment can name a task's shard. */
export type ShardEngine = "slurm" | "k8s";

/**
 * The variable that holds a Kubernetes Indexed Job's task count. The Job
 * does not put its `completions` in the pod's environment: the manifest
 * sets this to the same number (`deploy/k8s/sweep-job.yaml` does).
 */
export const K8S_COUNT_ENV = "JOB_COMPLETIONS";

/**
 * The variable that holds a Kubernetes Job's name, the job id of its
 * folder: the manifest sets it from the pod label
 * `batch.kubernetes.io/job-name` (`deploy/k8s/sweep-job.yaml` does).
 */
export const K8S_JOB_ENV = "JOB_NAME";

/** The Slurm array variables `--shard slurm` reads. */
const SLURM_VARS = [
  "SLURM_ARRAY_JOB_ID",
  "SLURM_ARRAY_TASK_ID",
  "SLURM_ARRAY_TASK_MIN",
  "SLURM_ARRAY_TASK_MAX",
  "SLURM_ARRAY_TASK_COUNT",
] as const;

/** A shard and, for one placed by a cluster engine, the job it belongs to. */
export interface ShardChoice {
  /** The shard, 1-based. */
  shard: Shard;
  /**
   * The job's id, for `--shard slurm` (the array job id) and `--shard k8s`
   * (the Job's name); absent for `--shard i/n`. All shards of one job
   * write under one job folder (see {@linkcode jobShardDir}).
   */
  job?: string;
}

/** Reads an environment variable by name. */
export type EnvLookup = (name: string) => string | undefined;

/** "Cannot use --shard <engine>: <problems>; <what to do>", as a RangeError. */
function envError(engine: ShardEngine, problems: string[], todo: string) {
  return new RangeError(
    `Cannot use --shard ${engine}: ${problems.join("; ")}; ${todo}`,
  );
}

/**
 * Reads whole numbers ≥ 0 from the environment: the values, and a problem
 * per variable that is unset or not such a number.
 */
function readCounts<N extends string>(
  names: readonly N[],
  env: EnvLookup,
): { values: Partial<Record<N, number>>; missing: N[]; bad: string[] } {
  const values: Partial<Record<N, number>> = {};
  const missing: N[] = [];
  const bad: string[] = [];
  for (const name of names) {
    const text = env(name);
    if (text === undefined || text.trim() === "") {
      missing.push(name);
    } else if (!/^\s*\d+\s*$/.test(text) || !Number.isSafeInteger(+text)) {
      bad.push(`${name}=${JSON.stringify(text)} is not a whole number`);
    } else {
      values[name] = Number(text);
    }
  }
  return { values, missing, bad };
}

/** "A is not set", "A and B are not set". */
function notSet(names: readonly string[]): string {
  return names.length === 1
    ? `${names[0]} is not set`
    : `${names.slice(0, -1).join(", ")} and ${names.at(-1)} are not set`;
}

/** The shard of a Slurm array task (see {@linkcode shardFromEnv}). */
function slurmShard(env: EnvLookup): ShardChoice {
  const todo =
    "each task of a Slurm job array has them: submit with sbatch --array=0-<n-1> deploy/slurm/sweep.sbatch <config> (or give --shard i/n)";
  const { values, missing, bad } = readCounts(SLURM_VARS, env);
  const problems = [...bad];
  if (missing.length > 0) {
    const inJob = env("SLURM_JOB_ID") !== undefined;
    problems.unshift(
      `${notSet(missing)}${
        inJob && missing.length === SLURM_VARS.length
          ? ` (this Slurm job, SLURM_JOB_ID=${
            env("SLURM_JOB_ID")
          }, is not an array task)`
          : ""
      }`,
    );
  }
  const step = readCounts(["SLURM_ARRAY_TASK_STEP"], env);
  problems.push(...step.bad);
  if (problems.length > 0) throw envError("slurm", problems, todo);
  const id = values.SLURM_ARRAY_TASK_ID!;
  const min = values.SLURM_ARRAY_TASK_MIN!;
  const max = values.SLURM_ARRAY_TASK_MAX!;
  const count = values.SLURM_ARRAY_TASK_COUNT!;
  const stepValue = step.values.SLURM_ARRAY_TASK_STEP;
  const ranged =
    `SLURM_ARRAY_TASK_MIN=${min}, SLURM_ARRAY_TASK_MAX=${max}, SLURM_ARRAY_TASK_COUNT=${count}`;
  const consecutive = `shards need consecutive task ids: submit --array=0-${
    count - 1
  } (a %K throttle is fine, e.g. --array=0-${count - 1}%4)`;
  if (stepValue !== undefined && stepValue !== 1) {
    throw envError("slurm", [
      `SLURM_ARRAY_TASK_STEP=${stepValue} (an array with a step, such as --array=0-8:2)`,
    ], consecutive);
  }
  if (max < min || max - min + 1 !== count) {
    throw envError("slurm", [
      `${ranged} are not one run of consecutive task ids (an array such as --array=1,3,7)`,
    ], consecutive);
  }
  if (id < min || id > max) {
    throw envError("slurm", [
      `SLURM_ARRAY_TASK_ID=${id} is outside SLURM_ARRAY_TASK_MIN=${min}..SLURM_ARRAY_TASK_MAX=${max}`,
    ], "the variables are Slurm's: do not set them by hand");
  }
  if (count > MAX_SHARDS) {
    throw envError("slurm", [
      `SLURM_ARRAY_TASK_COUNT=${count} is more than ${MAX_SHARDS} shards`,
    ], `submit at most ${MAX_SHARDS} tasks`);
  }
  const job = env("SLURM_ARRAY_JOB_ID")!.trim();
  return { shard: { index: id - min + 1, count }, job };
}

/** The shard of a Kubernetes Indexed Job's pod (see {@linkcode shardFromEnv}). */
function k8sShard(env: EnvLookup): ShardChoice {
  const names = ["JOB_COMPLETION_INDEX", K8S_COUNT_ENV] as const;
  const { values, missing, bad } = readCounts(names, env);
  const job = env(K8S_JOB_ENV)?.trim() ?? "";
  const problems = [...bad];
  const unset: string[] = [...missing];
  if (job === "") unset.push(K8S_JOB_ENV);
  if (unset.length > 0) problems.unshift(notSet(unset));
  else if (!JOB_ID.test(job)) {
    problems.push(
      `${K8S_JOB_ENV}=${
        JSON.stringify(job)
      } cannot name a folder (letters, digits, '.', '_' and '-' only)`,
    );
  }
  const todo =
    `Kubernetes sets JOB_COMPLETION_INDEX in each pod of a Job with completionMode: Indexed; the Job's manifest must set ${K8S_COUNT_ENV} to its spec.completions and ${K8S_JOB_ENV} from the label batch.kubernetes.io/job-name, as deploy/k8s/sweep-job.yaml does (or give --shard i/n)`;
  if (problems.length > 0) throw envError("k8s", problems, todo);
  const index = values.JOB_COMPLETION_INDEX!;
  const count = values[K8S_COUNT_ENV]!;
  if (count < 1 || count > MAX_SHARDS) {
    throw envError("k8s", [
      `${K8S_COUNT_ENV}=${count} is not a shard count from 1 to ${MAX_SHARDS}`,
    ], todo);
  }
  if (index >= count) {
    throw envError("k8s", [
      `JOB_COMPLETION_INDEX=${index} is not below ${K8S_COUNT_ENV}=${count} (indexes run from 0 to completions - 1)`,
    ], `set ${K8S_COUNT_ENV} to the Job's spec.completions`);
  }
  return { shard: { index: index + 1, count }, job };
}

/**
 * The shard a cluster engine gave this task, from its environment:
 *
 * - `slurm`: a job array task. The index is `SLURM_ARRAY_TASK_ID -
 *   SLURM_ARRAY_TASK_MIN + 1` and the count `SLURM_ARRAY_TASK_COUNT`, so
 *   `--array=0-3` and `--array=1-4` both give shards 1..4; a `%K`
 *   throttle changes nothing. An array with a step (`SLURM_ARRAY_TASK_STEP`
 *   ≠ 1) or of scattered ids (`--array=1,3,7`) is refused. The job is
 *   `SLURM_ARRAY_JOB_ID` (the same in every task, and after a requeue).
 * - `k8s`: a pod of an Indexed Job. The index is `JOB_COMPLETION_INDEX + 1`,
 *   the count {@linkcode K8S_COUNT_ENV} and the job {@linkcode K8S_JOB_ENV},
 *   both set by the Job's manifest.
 *
 * @param engine Which engine's variables to read.
 * @param env Looks a variable up. @default Deno.env.get
 * @returns The 1-based shard and the job id.
 * @throws {RangeError} "Cannot use --shard <engine>: ..." naming every
 *   variable that is unset, not a whole number, or inconsistent with the
 *   others, and what to do.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { shardFromEnv } from "./shard_env.ts";
 * const slurm = { SLURM_ARRAY_JOB_ID: "41", SLURM_ARRAY_TASK_ID: "2", SLURM_ARRAY_TASK_MIN: "0",
 *   SLURM_ARRAY_TASK_MAX: "3", SLURM_ARRAY_TASK_COUNT: "4", SLURM_ARRAY_TASK_STEP: "1" };
 * assert.deepEqual(
 *   shardFromEnv("slurm", (n) => slurm[n as keyof typeof slurm]),
 *   { shard: { index: 3, count: 4 }, job: "41" },
 * );
 * const pod: Record<string, string> = { JOB_COMPLETION_INDEX: "0", JOB_COMPLETIONS: "2", JOB_NAME: "sweep" };
 * assert.deepEqual(shardFromEnv("k8s", (n) => pod[n]), { shard: { index: 1, count: 2 }, job: "sweep" });
 * assert.throws(() => shardFromEnv("k8s", () => undefined), /JOB_COMPLETION_INDEX, JOB_COMPLETIONS and JOB_NAME are not set/);
 * ```
 */
export function shardFromEnv(
  engine: ShardEngine,
  env: EnvLookup = (name) => Deno.env.get(name),
): ShardChoice {
  return engine === "slurm" ? slurmShard(env) : k8sShard(env);
}

/**
 * Reads `--shard`: `i/n` (see {@linkcode parseShard}), or `slurm` / `k8s`
 * for the shard a cluster engine gave the task (see
 * {@linkcode shardFromEnv}).
 *
 * @param text The flag's value.
 * @param env Looks a variable up. @default Deno.env.get
 * @returns The shard, with the job id for `slurm` and `k8s`.
 * @throws {RangeError} "Cannot use --shard ..." for a bad value or
 *   environment.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { shardChoice } from "./shard_env.ts";
 * assert.deepEqual(shardChoice("2/4"), { shard: { index: 2, count: 4 } });
 * assert.throws(() => shardChoice("slurm", () => undefined), /SLURM_ARRAY_JOB_ID/);
 * ```
 */
export function shardChoice(
  text: string,
  env: EnvLookup = (name) => Deno.env.get(name),
): ShardChoice {
  const word = text.trim();
  if (word === "slurm" || word === "k8s") return shardFromEnv(word, env);
  return { shard: parseShard(text) };
}
