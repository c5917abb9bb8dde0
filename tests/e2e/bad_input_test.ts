/**
 * Bad input exits 2 before anything is created: a broken dataset line, a
 * dataset that selects nothing, a --run-dir that is a file. The message
 * names the file, line or field.
 */
import assert from "node:assert/strict";
import { spawnSweep } from "./_cli.ts";

async function sweep(dir: string, config: unknown, extra: string[] = []) {
  await Deno.writeTextFile(`${dir}/c.json`, JSON.stringify(config));
  const out = await spawnSweep([
    `${dir}/c.json`,
    "--progress",
    "none",
    ...extra,
  ])
    .output();
  return {
    code: out.code,
    stderr: new TextDecoder().decode(out.stderr),
  };
}

const MODELS = [{ name: "sim-strong", provider: "sim" }];

Deno.test("sweep CLI: a broken dataset line exits 2 naming file and line, and leaves no run folder", async () => {
  const dir = await Deno.makeTempDir();
  try {
    await Deno.writeTextFile(
      `${dir}/q.jsonl`,
      '{"id":"a","suite":"arithmetic","text":"1+1","answer":{"kind":"rational","value":"2"},"dims":{}}\nnot json\n',
    );
    const { code, stderr } = await sweep(dir, {
      outputDir: `${dir}/out`,
      models: MODELS,
      suites: [{ name: "arithmetic", params: { dataset: "q.jsonl" } }],
    });
    assert.equal(code, 2, stderr);
    assert.match(stderr, /q\.jsonl line 2/);
    assert.match(stderr, /suites\[0\]/);
    await assert.rejects(() => Deno.stat(`${dir}/out`), Deno.errors.NotFound);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("sweep CLI: params that select no questions and a --run-dir that is a file exit 2", async () => {
  const dir = await Deno.makeTempDir();
  try {
    const none = await sweep(dir, {
      outputDir: `${dir}/out`,
      models: MODELS,
      suites: [{
        name: "ceval",
        params: { subjects: ["civil_servant"], split: "test" },
      }],
    });
    assert.equal(none.code, 2, none.stderr);
    await Deno.writeTextFile(`${dir}/file`, "x");
    const file = await sweep(dir, {
      outputDir: `${dir}/out`,
      models: MODELS,
      suites: [{
        name: "arithmetic",
        params: { families: ["add"], digits: [2], count: 1 },
      }],
    }, ["--run-dir", `${dir}/file`]);
    assert.equal(file.code, 2, file.stderr);
    assert.match(file.stderr, /Cannot use .*file as the run folder/);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});
