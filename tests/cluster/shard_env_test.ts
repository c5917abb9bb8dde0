/**
 * `--shard slurm` and `--shard k8s`: the shard and job read from the
 * engine's environment (the Slurm values are the ones Slurm 22.05 set in
 * tasks of `--array=0-2`, `1-3`, `0-9%2`, `0-8:2` and `1,3,7` here), and
 * the sweep CLI's exit 2 naming the variables.
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import {
  jobShardDir,
  parseShardDirName,
  shardChoice,
  shardDirName,
  shardFromEnv,
} from "../../lib/runner/mod.ts";
import { ROOT } from "../e2e/_cli.ts";

/** The variables of one Slurm array task. */
function slurmTask(
  job: number,
  id: number,
  min: number,
  max: number,
  count: number,
  step = 1,
): Record<string, string> {
  return {
    SLURM_JOB_ID: String(job + id + 1),
    SLURM_ARRAY_JOB_ID: String(job),
    SLURM_ARRAY_TASK_ID: String(id),
    SLURM_ARRAY_TASK_MIN: String(min),
    SLURM_ARRAY_TASK_MAX: String(max),
    SLURM_ARRAY_TASK_COUNT: String(count),
    SLURM_ARRAY_TASK_STEP: String(step),
  };
}

const lookup = (vars: Record<string, string>) => (name: string) => vars[name];

/** Asserts `fn` throws a RangeError whose message matches every pattern. */
function refused(fn: () => unknown, ...patterns: RegExp[]): void {
  assert.throws(fn, (error: unknown) => {
    assert.ok(error instanceof RangeError, String(error));
    for (const p of patterns) assert.match(error.message, p);
    return true;
  });
}

Deno.test("shardFromEnv('slurm') maps a 0-based array's tasks to shards 1..n", () => {
  const shards = [0, 1, 2].map((id) =>
    shardFromEnv("slurm", lookup(slurmTask(1, id, 0, 2, 3)))
  );
  assert.deepEqual(shards, [
    { shard: { index: 1, count: 3 }, job: "1" },
    { shard: { index: 2, count: 3 }, job: "1" },
    { shard: { index: 3, count: 3 }, job: "1" },
  ]);
});

Deno.test("shardFromEnv('slurm') maps a 1-based array's tasks to the same shards 1..n", () => {
  const shards = [1, 2, 3].map((id) =>
    shardFromEnv("slurm", lookup(slurmTask(2, id, 1, 3, 3))).shard
  );
  assert.deepEqual(shards, [
    { index: 1, count: 3 },
    { index: 2, count: 3 },
    { index: 3, count: 3 },
  ]);
});

Deno.test("shardFromEnv('slurm') takes a %K-throttled array like any other (the throttle is not in the environment)", () => {
  // --array=0-9%2: Slurm sets the same variables as for --array=0-9.
  assert.deepEqual(
    shardFromEnv("slurm", lookup(slurmTask(3, 9, 0, 9, 10))),
    { shard: { index: 10, count: 10 }, job: "3" },
  );
});

Deno.test("shardFromEnv('slurm') takes an array without SLURM_ARRAY_TASK_STEP (older Slurm)", () => {
  const vars = slurmTask(7, 4, 0, 4, 5);
  delete vars.SLURM_ARRAY_TASK_STEP;
  assert.deepEqual(shardFromEnv("slurm", lookup(vars)).shard, {
    index: 5,
    count: 5,
  });
});

Deno.test("shardFromEnv('slurm') refuses an array with a step, naming SLURM_ARRAY_TASK_STEP", () => {
  // --array=0-8:2
  refused(
    () => shardFromEnv("slurm", lookup(slurmTask(4, 2, 0, 8, 5, 2))),
    /^Cannot use --shard slurm: SLURM_ARRAY_TASK_STEP=2 /,
    /consecutive task ids: submit --array=0-4/,
  );
});

Deno.test("shardFromEnv('slurm') refuses scattered task ids, naming MIN, MAX and COUNT", () => {
  // --array=1,3,7: Slurm says step 1, but 7 - 1 + 1 ≠ 3.
  refused(
    () => shardFromEnv("slurm", lookup(slurmTask(5, 3, 1, 7, 3))),
    /SLURM_ARRAY_TASK_MIN=1, SLURM_ARRAY_TASK_MAX=7, SLURM_ARRAY_TASK_COUNT=3 are not one run of consecutive task ids/,
  );
});

Deno.test("shardFromEnv('slurm') names every missing variable, and says a plain Slurm job is not an array task", () => {
  refused(
    () => shardFromEnv("slurm", () => undefined),
    /SLURM_ARRAY_JOB_ID, SLURM_ARRAY_TASK_ID, SLURM_ARRAY_TASK_MIN, SLURM_ARRAY_TASK_MAX and SLURM_ARRAY_TASK_COUNT are not set/,
    /sbatch --array=0-<n-1> deploy\/slurm\/sweep\.sbatch/,
  );
  refused(
    () => shardFromEnv("slurm", lookup({ SLURM_JOB_ID: "12" })),
    /not set \(this Slurm job, SLURM_JOB_ID=12, is not an array task\)/,
  );
  const partial = slurmTask(6, 1, 0, 2, 3);
  delete partial.SLURM_ARRAY_TASK_COUNT;
  refused(
    () => shardFromEnv("slurm", lookup(partial)),
    /: SLURM_ARRAY_TASK_COUNT is not set;/,
  );
});

Deno.test("shardFromEnv('slurm') refuses values that are not whole numbers or do not fit together", () => {
  refused(
    () =>
      shardFromEnv(
        "slurm",
        lookup({ ...slurmTask(8, 0, 0, 2, 3), SLURM_ARRAY_TASK_ID: "x1" }),
      ),
    /SLURM_ARRAY_TASK_ID="x1" is not a whole number/,
  );
  refused(
    () => shardFromEnv("slurm", lookup(slurmTask(8, 5, 0, 2, 3))),
    /SLURM_ARRAY_TASK_ID=5 is outside SLURM_ARRAY_TASK_MIN=0\.\.SLURM_ARRAY_TASK_MAX=2/,
  );
  refused(
    () => shardFromEnv("slurm", lookup(slurmTask(8, 0, 0, 10_000, 10_001))),
    /SLURM_ARRAY_TASK_COUNT=10001 is more than 10000 shards/,
  );
});

Deno.test("shardFromEnv('k8s') maps JOB_COMPLETION_INDEX 0..n-1 to shards 1..n of JOB_COMPLETIONS, the job named by JOB_NAME", () => {
  const shards = [0, 1, 2, 3].map((i) =>
    shardFromEnv(
      "k8s",
      lookup({
        JOB_COMPLETION_INDEX: String(i),
        JOB_COMPLETIONS: "4",
        JOB_NAME: "calc-bench-sweep",
      }),
    )
  );
  assert.deepEqual(
    shards.map((s) => [s.shard.index, s.shard.count, s.job]),
    [1, 2, 3, 4].map((i) => [i, 4, "calc-bench-sweep"]),
  );
});

Deno.test("shardFromEnv('k8s') names the missing or inconsistent variables", () => {
  refused(
    () => shardFromEnv("k8s", lookup({ JOB_COMPLETION_INDEX: "1" })),
    /^Cannot use --shard k8s: JOB_COMPLETIONS and JOB_NAME are not set;/,
    /set JOB_COMPLETIONS to its spec\.completions/,
  );
  /** A pod's variables: index, count, name. */
  const pod = (index: string, count: string, name: string) =>
    lookup({
      JOB_COMPLETION_INDEX: index,
      JOB_COMPLETIONS: count,
      JOB_NAME: name,
    });
  const cases: [(name: string) => string | undefined, RegExp][] = [
    [
      pod("4", "4", "j"),
      /JOB_COMPLETION_INDEX=4 is not below JOB_COMPLETIONS=4/,
    ],
    [pod("0", "four", "j"), /JOB_COMPLETIONS="four" is not a whole number/],
    [pod("0", "0", "j"), /JOB_COMPLETIONS=0 is not a shard count from 1/],
    [pod("0", "2", "../x"), /JOB_NAME="\.\.\/x" cannot name a folder/],
  ];
  for (const [env, pattern] of cases) {
    refused(() => shardFromEnv("k8s", env), pattern);
  }
});

Deno.test("shardChoice() keeps --shard i/n as it is and reads slurm/k8s from the environment", () => {
  assert.deepEqual(shardChoice("3/4", () => undefined), {
    shard: { index: 3, count: 4 },
  });
  refused(() => shardChoice("0/4", () => undefined), /--shard 0\/4/);
  refused(() => shardChoice("lsf", () => undefined), /--shard lsf/);
  assert.deepEqual(
    shardChoice("slurm", lookup(slurmTask(9, 1, 1, 2, 2))),
    { shard: { index: 1, count: 2 }, job: "9" },
  );
});

Deno.test("jobShardDir() names one folder per job and one per shard inside it", () => {
  assert.equal(
    jobShardDir({ outputDir: "out", name: "sweep" }, {
      job: "41",
      shard: { index: 2, count: 3 },
    }),
    join("out", "sweep-41", "shard-2-of-3"),
  );
  for (const shard of [{ index: 1, count: 1 }, { index: 7, count: 12 }]) {
    assert.deepEqual(parseShardDirName(shardDirName(shard)), shard);
  }
  assert.equal(parseShardDirName("shard-0-of-3"), null);
  assert.equal(parseShardDirName(".shard-1-of-3.partial"), null);
});

/**
 * Runs the sweep CLI with the test's environment less any engine variable
 * (the tests may themselves run in a Slurm job or a pod), plus `extra`.
 */
async function sweepCli(args: string[], extra: Record<string, string>) {
  const env = Object.fromEntries(
    Object.entries(Deno.env.toObject()).filter(([k]) =>
      !/^(SLURM_|JOB_COMPLETION_INDEX$|JOB_COMPLETIONS$|JOB_NAME$)/.test(k)
    ),
  );
  const out = await new Deno.Command(Deno.execPath(), {
    args: ["run", "-A", join(ROOT, "lib/cli/sweep.ts"), ...args],
    cwd: ROOT,
    clearEnv: true,
    env: { ...env, NO_COLOR: "1", ...extra },
    stdin: "null",
    stdout: "piped",
    stderr: "piped",
  }).output();
  return { code: out.code, stderr: new TextDecoder().decode(out.stderr) };
}

Deno.test("sweep CLI: --shard slurm|k8s with missing or inconsistent variables, or beside --run-dir/--resume, exits 2 naming them", async () => {
  const dir = await Deno.makeTempDir({ prefix: "shard_env_cli_" });
  try {
    const config = join(dir, "c.json");
    await Deno.writeTextFile(
      config,
      JSON.stringify({
        outputDir: join(dir, "out"),
        models: [{ name: "sim-average", provider: "sim" }],
        suites: [{ name: "arithmetic", params: { count: 2 } }],
      }),
    );
    const cases: [string[], Record<string, string>, RegExp][] = [
      [["--shard", "slurm"], {}, /SLURM_ARRAY_JOB_ID, .* are not set/],
      [
        ["--shard", "slurm"],
        slurmTask(4, 2, 0, 8, 5, 2),
        /SLURM_ARRAY_TASK_STEP=2/,
      ],
      [
        ["--shard", "k8s"],
        { JOB_COMPLETION_INDEX: "0", JOB_NAME: "j" },
        /JOB_COMPLETIONS is not set/,
      ],
      [
        ["--shard", "k8s", "--run-dir", join(dir, "r")],
        { JOB_COMPLETION_INDEX: "0", JOB_COMPLETIONS: "2", JOB_NAME: "j" },
        /Cannot use --run-dir with --shard k8s: the shard's folder is <outputDir>\/<name>-j\/shard-1-of-2/,
      ],
      [
        ["--shard", "slurm", "--resume", join(dir, "r")],
        slurmTask(4, 0, 0, 1, 2),
        /Cannot use --resume with --shard slurm: .*-4\/shard-1-of-2, and a requeued or retried task resumes it by itself/,
      ],
    ];
    for (const [args, env, pattern] of cases) {
      const out = await sweepCli([config, ...args], env);
      assert.equal(out.code, 2, `${args.join(" ")}: ${out.stderr}`);
      assert.match(out.stderr, pattern);
      assert.doesNotMatch(out.stderr, /^\s+at /m);
    }
    // Nothing was written by any of them.
    await assert.rejects(Deno.stat(join(dir, "out")), Deno.errors.NotFound);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});
