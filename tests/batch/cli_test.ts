import assert from "node:assert/strict";
import { type CliOutput, runCli } from "../e2e/_cli.ts";
import { PROFILES, waitAll, withSim } from "./_setup.ts";

const KEY = "sk-batch-test-0123456789";

/** Runs `lib/cli/batch.ts` as `deno task batch` does. */
function batch(
  args: string[],
  env: Record<string, string> = {},
): Promise<CliOutput> {
  return runCli("lib/cli/batch.ts", args, { env });
}

async function writeConfig(
  path: string,
  baseURL: string,
  outputDir: string,
  templates?: string[],
  apiKeyEnv?: string,
): Promise<void> {
  await Deno.writeTextFile(
    path,
    JSON.stringify({
      name: "cli-batch",
      outputDir,
      cache: false,
      seed: 4,
      suites: [{
        name: "arithmetic",
        params: { families: ["add"], digits: [3], count: 3 },
        ...(templates ? { templates } : {}),
      }],
      models: PROFILES.map((p) => ({
        name: p,
        provider: "openai",
        model: p,
        baseURL,
        ...(apiKeyEnv ? { apiKeyEnv } : {}),
      })),
    }),
  );
}

Deno.test("deno task batch: submit, status and collect store every row", () =>
  withSim({ apiKey: KEY, batch: { stepMs: 30 } }, async (baseURL, dir) => {
    await writeConfig(
      `${dir}/config.json`,
      baseURL,
      `${dir}/out`,
      undefined,
      "BATCH_TEST_KEY",
    );
    const env = { BATCH_TEST_KEY: KEY };
    const submit = await batch(["submit", `${dir}/config.json`], env);
    assert.equal(submit.code, 0, submit.stderr);
    const runDir = /Run folder: (.+)/.exec(submit.stdout)?.[1]!;
    assert.match(submit.stdout, /6 requests in 2 batch\(es\)/);
    const status = await batch(["status", runDir], env);
    assert.equal(status.code, 0, status.stderr);
    assert.match(status.stdout, /batch_\d+ {2}sim-average {2}\w+/);
    await waitAll(runDir, (n) => env[n as "BATCH_TEST_KEY"]);
    const collect = await batch(["collect", runDir], env);
    assert.equal(collect.code, 0, collect.stderr);
    assert.match(collect.stdout, /6 of 6 rows answered/);
    // The request files are in the run folder; the key is in no file.
    const files = [];
    for await (const e of Deno.readDir(`${runDir}/requests`)) {
      files.push(`${runDir}/requests/${e.name}`);
    }
    assert.equal(files.length, 2);
    files.push(`${runDir}/manifest.json`, `${runDir}/results.jsonl`);
    for (const file of files) {
      assert.ok(!(await Deno.readTextFile(file)).includes(KEY), file);
    }
    assert.match(
      await Deno.readTextFile(`${runDir}/manifest.json`),
      /"apiKeyEnv": "BATCH_TEST_KEY"/,
    );
  }));

Deno.test("deno task batch: bad input exits 2 with a Cannot message naming the file or line", () =>
  withSim({}, async (baseURL, dir) => {
    await writeConfig(`${dir}/tools.json`, baseURL, `${dir}/out`, [
      "direct",
      "calculator",
    ]);
    await writeConfig(`${dir}/config.json`, baseURL, `${dir}/out`);
    await Deno.writeTextFile(
      `${dir}/broken.jsonl`,
      '{"custom_id": "sim-average|x',
    );
    const [tools, corrupted, noRun, unknown, noOut] = await Promise.all([
      batch(["export", `${dir}/tools.json`, "--out", `${dir}/r.jsonl`]),
      batch(["import", `${dir}/config.json`, `${dir}/broken.jsonl`]),
      batch(["status", `${dir}/nope`]),
      batch(["frobnicate"]),
      batch(["export", `${dir}/config.json`]),
    ]);
    assert.equal(tools.code, 2);
    assert.match(
      tools.stderr,
      /Cannot batch template "calculator" of suite "arithmetic": .*tools.*; run it online/,
    );
    assert.equal(corrupted.code, 2);
    assert.match(
      corrupted.stderr,
      /Cannot read .*broken\.jsonl: line 1 is not valid JSON/,
    );
    assert.equal(noRun.code, 2);
    assert.match(noRun.stderr, /Cannot read the manifest of .*nope/);
    assert.equal(unknown.code, 2);
    assert.match(unknown.stderr, /expected submit, status, collect/);
    assert.equal(noOut.code, 2);
    assert.match(
      noOut.stderr,
      /Cannot export: give the file to write with --out/,
    );
    await assert.rejects(Deno.stat(`${dir}/out`), Deno.errors.NotFound);
    await assert.rejects(Deno.stat(`${dir}/r.jsonl`), Deno.errors.NotFound);
  }));
