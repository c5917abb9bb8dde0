/**
 * The Kubernetes path without a cluster: deploy/k8s/sweep-job.yaml's
 * containers run as the Job runs them — its command and arguments, one
 * process per index with JOB_COMPLETION_INDEX (Kubernetes') and the count
 * and job name the manifest sets — one pod stopped by SIGTERM (as a
 * deletion or eviction sends it to the container's first process) and
 * retried with the same index, then the merge Job's command; the merged
 * rows equal an unsharded run's.
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

const MANIFEST = join(ROOT, "deploy/k8s/sweep-job.yaml");

/** What the test takes from one Job of the manifest. */
interface JobSpec {
  name: string;
  command: string[];
  args: string[];
  text: string;
}

/** The manifest's Jobs, by the step label, read with a few patterns. */
async function jobsOfManifest(): Promise<Record<string, JobSpec>> {
  const jobs: Record<string, JobSpec> = {};
  for (const text of (await Deno.readTextFile(MANIFEST)).split(/^---$/m)) {
    const step = /calc-bench\/step: (\w+)/.exec(text)?.[1];
    const name = /^metadata:\n\s+name: (\S+)/m.exec(text)?.[1];
    const command = /^\s+command: (\[.*\])$/m.exec(text)?.[1];
    const args = /^\s+args: (\[.*\])$/m.exec(text)?.[1];
    assert.ok(step && name && command && args, `a Job in ${MANIFEST}`);
    jobs[step] = {
      name,
      command: JSON.parse(command),
      args: JSON.parse(args),
      text,
    };
  }
  return jobs;
}

/** Runs a container's command in the project's folder, with `env` added. */
function container(
  command: string[],
  args: string[],
  env: Record<string, string>,
): Deno.ChildProcess {
  assert.equal(command[0], "deno");
  return new Deno.Command(Deno.execPath(), {
    args: [...command.slice(1), ...args],
    cwd: ROOT,
    env: { NO_COLOR: "1", ...env },
    stdin: "null",
    stdout: "piped",
    stderr: "piped",
  }).spawn();
}

async function finished(child: Deno.ChildProcess) {
  const out = await child.output();
  const text = new TextDecoder();
  return {
    code: out.code,
    stdout: text.decode(out.stdout),
    stderr: text.decode(out.stderr),
  };
}

Deno.test("deploy/k8s: the Indexed Job's pods run per index, one stopped by SIGTERM resumes on retry, and the merge Job's rows equal the unsharded run's", async () => {
  const jobs = await jobsOfManifest();
  const sweepJob = jobs.sweep!;
  const mergeJob = jobs.merge!;
  // The manifest's own numbers: an Indexed Job whose count variable
  // equals its completions, and whose job name comes from the Job.
  assert.match(sweepJob.text, /completionMode: Indexed/);
  const completions = Number(/completions: (\d+)/.exec(sweepJob.text)?.[1]);
  assert.equal(
    Number(/name: JOB_COMPLETIONS\n\s+value: "(\d+)"/.exec(sweepJob.text)?.[1]),
    completions,
  );
  assert.match(
    sweepJob.text,
    /name: JOB_NAME\n\s+valueFrom:\n\s+fieldRef:\n\s+fieldPath: metadata\.labels\['batch\.kubernetes\.io\/job-name'\]/,
  );
  assert.ok(completions >= 2);
  assert.deepEqual(sweepJob.args.slice(1, 3), ["--shard", "k8s"]);
  assert.deepEqual(mergeJob.args.slice(1), ["--job", sweepJob.name]);
  assert.equal(mergeJob.args[0], sweepJob.args[0]);

  const dir = await Deno.makeTempDir({ prefix: "k8s_test_" });
  // 40 ms per answer, one at a time per model: a pod's shard takes about
  // a second, so one can be stopped midway.
  const server = await startSimServer({ latencyMs: 40 });
  try {
    const configPath = join(dir, "sweep.json");
    const outputs = join(dir, "outputs");
    await writeSweepConfig(configPath, {
      name: "k8stest",
      seed: 9,
      outputDir: outputs,
      baseURL: server.baseURL,
      count: 5,
    });
    // The containers' arguments, the config's path (the first) ours.
    const sweepArgs = [configPath, ...sweepJob.args.slice(1)];
    const mergeArgs = [configPath, ...mergeJob.args.slice(1)];
    const pod = (index: number) =>
      container(sweepJob.command, sweepArgs, {
        JOB_COMPLETION_INDEX: String(index),
        JOB_COMPLETIONS: String(completions),
        JOB_NAME: sweepJob.name,
      });
    const jobFolder = join(outputs, `k8stest-${sweepJob.name}`);
    const shardDir = (index: number) =>
      join(jobFolder, `shard-${index + 1}-of-${completions}`);

    // Index 1 is stopped midway: SIGTERM to the container's process
    // (`deno task`, which passes it on to the sweep).
    const stopped = pod(1);
    const deadline = Date.now() + 30_000;
    while (await countRows(resultsOf(shardDir(1))) < 2) {
      assert.ok(Date.now() < deadline, "index 1 wrote no rows in 30 s");
      await new Promise((r) => setTimeout(r, 20));
    }
    stopped.kill("SIGTERM");
    const first = await finished(stopped);
    assert.equal(first.code, 143, first.stderr);
    assert.match(first.stderr, /Stopping on SIGTERM/);
    const cut = await readManifest(shardDir(1));
    assert.equal(cut.interrupted, true);
    assert.ok(cut.counts.rows < cut.total, `${cut.counts.rows}/${cut.total}`);

    // The merge Job refuses while shards are unfinished or not started.
    const early = await finished(container(mergeJob.command, mergeArgs, {}));
    assert.equal(early.code, 2, early.stderr);
    assert.match(early.stderr, /shard 1\/\d+ has not started/);
    assert.match(early.stderr, /shard 2\/\d+ is unfinished/);

    // The retried pod (same index) resumes its folder; the others run.
    const retried = await finished(pod(1));
    assert.equal(retried.code, 0, retried.stderr);
    assert.match(
      retried.stdout,
      new RegExp(`\\(\\d+ new, ${cut.counts.rows} resumed,`),
    );
    for (let index = 0; index < completions; index++) {
      if (index === 1) continue;
      const run = await finished(pod(index));
      assert.equal(run.code, 0, run.stderr);
    }
    for (let index = 0; index < completions; index++) {
      await assertNoDuplicates(shardDir(index));
    }
    assert.deepEqual(
      (await readManifest(shardDir(1))).sessions.map((s) => s.interrupted),
      [true, false],
    );

    const merged = await finished(container(mergeJob.command, mergeArgs, {}));
    assert.equal(merged.code, 0, merged.stderr);
    assert.match(merged.stdout, new RegExp(`Merged ${completions} shards`));
    assert.deepEqual(
      await namesIn(jobFolder),
      [
        "merged",
        ...Array.from(
          { length: completions },
          (_, i) => `shard-${i + 1}-of-${completions}`,
        ),
      ],
    );

    // The unsharded run, against a sim without the latency (where a
    // request goes is not part of a row).
    const { config } = await loadConfig(configPath);
    const quick = await startSimServer({});
    let whole;
    try {
      whole = await runSweep({
        ...config,
        models: config.models.map((m) => ({ ...m, baseURL: quick.baseURL })),
      }, { progress: "none", runDir: join(dir, "whole") });
    } finally {
      await quick.close();
    }
    assert.equal(
      await assertMergedEqualsWhole(join(jobFolder, "merged"), whole.runDir),
      whole.total,
    );

    // The job folder itself is a merge argument too, --out anywhere.
    const again = await finished(
      container(["deno", "task", "--quiet", "merge"], [
        jobFolder,
        "--out",
        join(dir, "again"),
      ], {}),
    );
    assert.equal(again.code, 0, again.stderr);
    await assertMergedEqualsWhole(join(dir, "again"), whole.runDir);
  } finally {
    await server.close();
    await Deno.remove(dir, { recursive: true });
  }
});
