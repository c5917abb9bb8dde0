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

Deno.test("resume moves garbage lines in the middle of results.jsonl aside, says so, and redoes their keys", async () => {
  const { parseConfig, runSweep } = await import("../../lib/mod.ts");
  const dir = await Deno.makeTempDir();
  try {
    const config = parseConfig({
      outputDir: dir,
      cache: false,
      models: MODELS,
      suites: [{
        name: "arithmetic",
        params: { families: ["add"], digits: [2], count: 6 },
      }],
    }, "garbage-test");
    const first = await runSweep(config, { progress: "none" });
    const path = `${first.runDir}/results.jsonl`;
    const lines = (await Deno.readTextFile(path)).trim().split("\n");
    const lost = JSON.parse(lines[2]!).key as string;
    lines[2] = '{"key": "half a row'; // garbage, not at the end
    await Deno.writeTextFile(path, lines.join("\n") + "\n");
    const again = await runSweep(config, {
      progress: "none",
      resume: first.runDir,
    });
    assert.equal(again.done, 1);
    assert.match(again.warnings.join("\n"), /line 3.*moved them to .*\.bad-/);
    const rows = (await Deno.readTextFile(path)).trim().split("\n").map((l) =>
      JSON.parse(l)
    );
    assert.equal(rows.length, 6);
    assert.ok(rows.some((r) => r.key === lost));
    const aside = [...Deno.readDirSync(first.runDir)].find((e) =>
      e.name.includes(".bad-")
    );
    assert.ok(aside !== undefined);
    assert.equal(
      await Deno.readTextFile(`${first.runDir}/${aside.name}`),
      '{"key": "half a row\n',
    );
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("sweep CLI: a valid config at every arithmetic maximum is refused up front with its size, not run out of memory", async () => {
  const dir = await Deno.makeTempDir();
  try {
    const { code, stderr } = await sweep(dir, {
      outputDir: `${dir}/out`,
      models: MODELS,
      suites: [{
        name: "arithmetic",
        params: {
          families: [
            "add",
            "sub",
            "mul",
            "div",
            "decimal",
            "fraction",
            "percent",
            "expr",
            "word",
          ],
          digits: Array.from({ length: 20 }, (_, i) => i + 1),
          count: 100_000,
          language: "both",
        },
      }],
    });
    assert.equal(code, 2, stderr);
    assert.match(
      stderr,
      /Cannot generate 52,000,000 arithmetic questions.*lower "count"/,
    );
    await assert.rejects(() => Deno.stat(`${dir}/out`), Deno.errors.NotFound);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});
