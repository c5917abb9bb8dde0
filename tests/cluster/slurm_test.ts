/**
 * The shipped Slurm launchers on a real single-node Slurm (Debian's
 * slurm-wlm and munge, installed by tests/setup.sh): deploy/slurm/
 * sweep.sbatch as an array of 3 tasks, each starting its own model server
 * (the sim, through the script's optional server block), one task
 * requeued midway, and deploy/slurm/merge.sbatch as a job that depends on
 * the array; the merged rows equal an unsharded run's.
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import { loadConfig, runSweep, startSimServer } from "../../lib/mod.ts";
import { readManifest } from "../../lib/store/mod.ts";
import { countRows, ROOT } from "../e2e/_cli.ts";
import {
  assertMergedEqualsWhole,
  assertNoDuplicates,
  namesIn,
  resultsOf,
  writeSweepConfig,
} from "./_setup.ts";
import { type Cluster, freePort, startCluster } from "./_slurm.ts";

const SWEEP_SBATCH = join(ROOT, "deploy/slurm/sweep.sbatch");
const MERGE_SBATCH = join(ROOT, "deploy/slurm/merge.sbatch");

/** Waits until `test()` holds, checking every 50 ms, for at most `ms`. */
async function until(
  test: () => Promise<boolean>,
  ms: number,
  what: string,
): Promise<void> {
  const end = Date.now() + ms;
  while (!(await test())) {
    if (Date.now() > end) throw new Error(`Timed out after ${ms} ms: ${what}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

/** Slurm's job states after which a job does nothing more. */
const ENDED =
  /^(COMPLETED|FAILED|CANCELLED|TIMEOUT|OUT_OF_MEMORY|NODE_FAIL|PREEMPTED|BOOT_FAIL|DEADLINE)$/;

/**
 * Waits, with scontrol, until a job has ended (at most `ms`); returns its
 * state and exit code. (`sbatch --wait` sleeps up to 32 s between its
 * checks, longer than this whole test should take.)
 */
async function ended(
  cluster: Cluster,
  job: string,
  ms: number,
): Promise<{ state: string; exit: string }> {
  let state = "";
  let exit = "";
  await until(
    async () => {
      const text = await cluster.run("scontrol", ["show", "job", job]);
      state = /JobState=(\S+)/.exec(text)?.[1] ?? "";
      exit = /ExitCode=(\S+)/.exec(text)?.[1] ?? "";
      return ENDED.test(state);
    },
    ms,
    `job ${job} to end`,
  );
  return { state, exit };
}

Deno.test("deploy/slurm on a real Slurm: a 3-task array, one task requeued midway resumes its own shard, and the dependent merge equals the unsharded run", async () => {
  const dir = await Deno.makeTempDir({ prefix: "slurm_test_" });
  let cluster: Cluster | null = null;
  try {
    // Two sim models over HTTP, one request at a time each, 150 ms per
    // answer: a shard of about 21 rows takes about 1.6 s, long enough to
    // requeue its task midway.
    const port = freePort();
    const outputs = join(dir, "outputs");
    const configPath = join(dir, "sweep.json");
    const baseURL = `http://127.0.0.1:${port}/v1`;
    await writeSweepConfig(configPath, {
      name: "slurmtest",
      seed: 5,
      outputDir: outputs,
      baseURL: baseURL,
      count: 4,
    });

    // The unsharded run, against the same URL, before the cluster starts.
    const server = await startSimServer({ port });
    let whole;
    try {
      const { config } = await loadConfig(configPath);
      whole = await runSweep(config, {
        progress: "none",
        runDir: join(dir, "whole"),
      });
    } finally {
      await server.close();
    }
    assert.equal(whole.total, 64);

    cluster = await startCluster(join(dir, "slurm"), ROOT);
    const logs = join(cluster.dir, "logs");
    const taskEnv = {
      NO_COLOR: "1",
      DENO: Deno.execPath(),
      // The script's optional server block: each task starts the sim
      // server on its node, waits for /v1/models, sweeps, stops it. The
      // array runs one task at a time (%1), as one port serves one task.
      CALC_BENCH_SERVER:
        `${Deno.execPath()} task --quiet serve-sim --port ${port} --latency 150`,
      CALC_BENCH_SERVER_URL: baseURL,
    };
    const submitted = performance.now();
    const job = (await cluster.run("sbatch", [
      "--parsable",
      "--array=0-2%1",
      `--output=${logs}/sweep-%A_%a.log`,
      SWEEP_SBATCH,
      configPath,
    ], taskEnv)).trim();
    assert.match(job, /^\d+$/);
    // The merge is submitted at once, as a user would.
    const merge = (await cluster.run("sbatch", [
      "--parsable",
      `--dependency=afterok:${job}`,
      `--output=${logs}/merge-%j.log`,
      MERGE_SBATCH,
      configPath,
    ], taskEnv)).trim();

    const jobFolder = join(outputs, `slurmtest-${job}`);
    const shard2 = join(jobFolder, "shard-2-of-3");
    await until(
      async () => await countRows(resultsOf(shard2)) >= 3,
      60_000,
      `task ${job}_1 writing its first rows in ${shard2}`,
    );
    await cluster.run("scontrol", ["requeue", `${job}_1`]);
    const requeuedAt = performance.now();

    const status = await ended(cluster, merge, 120_000);
    const wall = (performance.now() - submitted) / 1000;
    const logOf = (task: number) =>
      Deno.readTextFile(join(logs, `sweep-${job}_${task}.log`)).catch(() => "");
    assert.deepEqual(
      status,
      { state: "COMPLETED", exit: "0:0" },
      `merge job: ${await Deno.readTextFile(join(logs, `merge-${merge}.log`))
        .catch(() => "")}\n${await logOf(0)}\n${await logOf(1)}\n${await logOf(
          2,
        )}`,
    );
    console.log(
      `Slurm: submit to merged ${wall.toFixed(1)} s (requeue ${
        ((requeuedAt - submitted) / 1000).toFixed(1)
      } s after submit)`,
    );

    // One job folder: the three shards and the merge, nothing else.
    assert.deepEqual(await namesIn(jobFolder), [
      "merged",
      "shard-1-of-3",
      "shard-2-of-3",
      "shard-3-of-3",
    ]);
    // The requeued task stopped on SIGTERM with its rows saved, and its
    // second run resumed its own folder: the rows of the first session
    // were skipped, none was written twice.
    const requeued = await readManifest(shard2);
    assert.equal(requeued.sessions.length, 2);
    const [first, second] = requeued.sessions;
    assert.equal(first!.interrupted, true);
    assert.ok(first!.written >= 3, `first session wrote ${first!.written}`);
    assert.ok(first!.written < requeued.total);
    assert.equal(second!.skipped, first!.written);
    assert.equal(second!.written + second!.skipped, requeued.total);
    assert.equal(requeued.interrupted, false);
    assert.equal(await assertNoDuplicates(shard2), requeued.total);
    const log1 = await logOf(1);
    assert.match(log1, /restart 0\)/);
    assert.match(log1, /Stopping on SIGTERM/);
    assert.match(log1, /restart 1\)/);
    // The other tasks ran once.
    let rows = 0;
    for (const name of ["shard-1-of-3", "shard-2-of-3", "shard-3-of-3"]) {
      const shard = join(jobFolder, name);
      const manifest = await readManifest(shard);
      if (name !== "shard-2-of-3") assert.equal(manifest.sessions.length, 1);
      rows += await assertNoDuplicates(shard);
    }
    assert.equal(rows, whole.total);

    // The dependent job merged them: the unsharded run's keys and
    // verdicts, none twice.
    const merged = join(jobFolder, "merged");
    assert.equal(
      await assertMergedEqualsWhole(merged, whole.runDir),
      whole.total,
    );
    assert.equal((await readManifest(merged)).mergedFrom?.length, 3);
  } finally {
    await cluster?.stop();
    await Deno.remove(dir, { recursive: true }).catch(() => {});
  }
});
