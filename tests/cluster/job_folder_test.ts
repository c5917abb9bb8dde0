/**
 * One folder per cluster job: `runSweep` with a job writes
 * `<outputDir>/<name>-<job>/shard-<i>-of-<n>/` and resumes it when the same
 * task runs again; `mergeJob` finds the shards by name, refuses (naming
 * the shard) while one has not started or is unfinished, and writes
 * `<job folder>/merged`.
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import { runSweep as runnerSweep } from "../../lib/runner/mod.ts";
import type { SweepOptions } from "../../lib/runner/mod.ts";
import { SweepInputError } from "../../lib/runner/mod.ts";
import {
  isJobFolder,
  jobShardFolders,
  MergeInputError,
  mergeJob,
} from "../../lib/merge/mod.ts";
import { readManifest } from "../../lib/store/mod.ts";
import type { SweepConfig } from "../../lib/config/schema.ts";
import {
  addSuite,
  answer,
  ok,
  stubProviders,
  testConfig,
} from "../runner/_fixtures.ts";
import {
  assertMergedEqualsWhole,
  assertNoDuplicates,
  namesIn,
} from "./_setup.ts";

const SUITE = addSuite(12);

/** A sweep of the stand-in suite; `stopAfter` aborts it once that many calls began. */
function sweep(
  config: SweepConfig,
  options: Partial<SweepOptions>,
  stopAfter = Infinity,
) {
  const controller = new AbortController();
  let calls = 0;
  const { factory } = stubProviders((_model, prompt) => {
    if (++calls === stopAfter) controller.abort(new Error("SIGTERM"));
    return Promise.resolve(ok(answer(prompt)));
  });
  return runnerSweep(config, {
    suites: [SUITE],
    progress: "none",
    createProvider: factory,
    signal: controller.signal,
    ...options,
  });
}

async function refusedWith(
  promise: Promise<unknown>,
  type: typeof SweepInputError | typeof MergeInputError,
  ...patterns: RegExp[]
) {
  await assert.rejects(promise, (error: unknown) => {
    assert.ok(error instanceof type, String(error));
    for (const p of patterns) assert.match(error.message, p);
    return true;
  });
}

Deno.test("runSweep() with a job writes the job's shard folder and a second run of the same task resumes it", async () => {
  const out = await Deno.makeTempDir({ prefix: "job_folder_" });
  try {
    const config = testConfig(out, { name: "jf", samples: 2, cache: false });
    const shard = { index: 1, count: 2 };
    const first = await sweep(config, { shard, job: "4107" }, 5);
    const dir = join(out, "jf-4107", "shard-1-of-2");
    assert.equal(first.runDir, dir);
    assert.equal(first.interrupted, true);
    assert.ok(first.done > 0 && first.done < first.total, `${first.done}`);
    const manifest = await readManifest(dir);
    assert.deepEqual(manifest.shard, shard);
    assert.equal(manifest.run, "jf-4107-shard-1-of-2");

    // The task again (a requeue): the same folder, the rows not redone.
    const again = await sweep(config, { shard, job: "4107" });
    assert.equal(again.runDir, dir);
    assert.equal(again.skipped, first.done);
    assert.equal(again.done, first.total - first.done);
    assert.equal(await assertNoDuplicates(dir), first.total);
    const sessions = (await readManifest(dir)).sessions;
    assert.deepEqual(sessions.map((s) => s.interrupted), [true, false]);
    assert.deepEqual(await namesIn(join(out, "jf-4107")), ["shard-1-of-2"]);

    // Another job id is another folder.
    const other = await sweep(config, { shard, job: "4108" });
    assert.equal(other.runDir, join(out, "jf-4108", "shard-1-of-2"));
    assert.equal(other.skipped, 0);
  } finally {
    await Deno.remove(out, { recursive: true });
  }
});

Deno.test("runSweep() with a job refuses another plan in the shard folder, --run-dir or --resume, and a job without a shard", async () => {
  const out = await Deno.makeTempDir({ prefix: "job_folder_" });
  try {
    const config = testConfig(out, { name: "jf", seed: 1 });
    const shard = { index: 2, count: 2 };
    await sweep(config, { shard, job: "9" });
    await refusedWith(
      sweep({ ...config, seed: 2 }, { shard, job: "9" }),
      SweepInputError,
      /Cannot resume .*jf-9\/shard-2-of-2 with this config: .*differs in seed/,
      /is shard 2\/2 of job 9; a new job id gets new folders/,
    );
    await refusedWith(
      sweep(config, { shard, job: "9", runDir: join(out, "x") }),
      SweepInputError,
      /Cannot use --run-dir with a job's shard: its folder is .*jf-9\/shard-2-of-2/,
    );
    await refusedWith(
      sweep(config, {
        shard,
        job: "9",
        resume: join(out, "jf-9", "shard-2-of-2"),
      }),
      SweepInputError,
      /Cannot use --resume with a job's shard: .*a requeued or retried task resumes it by itself; leave out --resume/,
    );
    await refusedWith(
      sweep(config, { job: "9" }),
      SweepInputError,
      /Cannot run a shard of job 9: no shard given/,
    );
    await refusedWith(
      sweep(config, { shard, job: "../9" }),
      SweepInputError,
      /Cannot use job id "\.\.\/9"/,
    );
  } finally {
    await Deno.remove(out, { recursive: true });
  }
});

Deno.test("mergeJob() names a shard not started or unfinished, then merges the job folder into <job folder>/merged", async () => {
  const out = await Deno.makeTempDir({ prefix: "job_folder_" });
  try {
    const config = testConfig(out, { name: "jm", samples: 2, cache: false });
    const whole = await sweep(config, { runDir: join(out, "whole") });
    const job = join(out, "jm-77");
    const shard = (index: number) => ({ index, count: 3 });

    await sweep(config, { shard: shard(1), job: "77" });
    await sweep(config, { shard: shard(2), job: "77" }, 3);
    assert.equal(await isJobFolder(job), true);
    assert.equal(await isJobFolder(whole.runDir), false);
    await refusedWith(
      mergeJob(job, { suites: [SUITE] }),
      MergeInputError,
      /shard 2\/3 is unfinished \(.*shard-2-of-3: \d+ of \d+ rows; it was stopped \(SIGTERM, Ctrl-C\)/,
      /shard 3\/3 has not started \(no .*jm-77\/shard-3-of-3\)/,
      /deno task sweep --resume <its folder>/,
    );
    await sweep(config, { shard: shard(2), job: "77" });
    await sweep(config, { shard: shard(3), job: "77" });
    assert.equal((await jobShardFolders(job)).length, 3);

    const merged = await mergeJob(job, { suites: [SUITE] });
    assert.equal(merged.runDir, join(job, "merged"));
    assert.equal(merged.shards, 3);
    assert.equal(
      await assertMergedEqualsWhole(merged.runDir, whole.runDir),
      whole.total,
    );
    assert.equal((await readManifest(merged.runDir)).run, "jm-77");
    // The merged folder is not taken for a shard, and is not overwritten.
    assert.equal((await jobShardFolders(job)).length, 3);
    await refusedWith(
      mergeJob(job, { suites: [SUITE] }),
      MergeInputError,
      /merged: it already exists/,
    );
    await refusedWith(
      mergeJob(join(out, "nope"), { suites: [SUITE] }),
      MergeInputError,
      /no such folder \(no shard of the job has started yet/,
    );
    await refusedWith(
      mergeJob(whole.runDir, { suites: [SUITE] }),
      MergeInputError,
      /holds no shard folders/,
    );
  } finally {
    await Deno.remove(out, { recursive: true });
  }
});
