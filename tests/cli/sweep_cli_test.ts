import assert from "node:assert/strict";
import { join } from "node:path";
import { startSimServer } from "../../lib/mod.ts";

const SWEEP = new URL("../../lib/cli/sweep.ts", import.meta.url).pathname;

async function runSweepCli(
  args: string[],
  env: Record<string, string> = {},
): Promise<{ code: number; stdout: string; stderr: string }> {
  const command = new Deno.Command(Deno.execPath(), {
    args: ["run", "--allow-all", SWEEP, ...args],
    env: { NO_COLOR: "1", ...env },
    stdout: "piped",
    stderr: "piped",
  });
  const out = await command.output();
  const decoder = new TextDecoder();
  return {
    code: out.code,
    stdout: decoder.decode(out.stdout),
    stderr: decoder.decode(out.stderr),
  };
}

function hasStackTrace(text: string): boolean {
  return /^\s+at .+:\d+:\d+\)?$/m.test(text);
}

Deno.test("sweep CLI: a bad config lists every problem by path and exits 2 without a stack trace", async () => {
  const dir = await Deno.makeTempDir();
  try {
    const path = join(dir, "bad.json");
    await Deno.writeTextFile(
      path,
      JSON.stringify({
        models: [
          { name: "a", provider: "sim" },
          { name: "b", provider: "sim" },
          { name: "c", provider: "openai", baseURL: "localhost:11434" },
        ],
        suites: [{ name: "arithmetic", templates: ["direct", "cto"] }],
        samples: "three",
      }),
    );
    const { code, stderr } = await runSweepCli([path]);
    assert.equal(code, 2, stderr);
    assert.match(stderr, new RegExp(path.replaceAll("/", "\\/")));
    assert.match(stderr, /models\[2\]\.baseURL: expected a URL/);
    assert.match(stderr, /samples: /);
    assert.ok(!hasStackTrace(stderr), stderr);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("sweep CLI: a JSON syntax error names the line and exits 2", async () => {
  const dir = await Deno.makeTempDir();
  try {
    const path = join(dir, "broken.json");
    await Deno.writeTextFile(
      path,
      '{\n  "models": [\n    { "name": "a" "provider": "sim" }\n  ]\n}\n',
    );
    const { code, stderr } = await runSweepCli([path]);
    assert.equal(code, 2, stderr);
    assert.match(stderr, /line 3, column \d+/);
    assert.ok(!hasStackTrace(stderr), stderr);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("sweep CLI: a missing key variable is named before any request is sent", async () => {
  const server = await startSimServer({});
  const dir = await Deno.makeTempDir();
  try {
    const path = join(dir, "keyed.json");
    await Deno.writeTextFile(
      path,
      JSON.stringify({
        outputDir: join(dir, "out"),
        models: [
          {
            name: "free",
            provider: "openai",
            model: "sim-strong",
            baseURL: server.baseURL,
          },
          {
            name: "paid",
            provider: "openai",
            model: "sim-strong",
            baseURL: server.baseURL,
            apiKeyEnv: "CALC_BENCH_TEST_MISSING_KEY",
          },
        ],
        suites: [{ name: "arithmetic" }],
      }),
    );
    const { code, stderr } = await runSweepCli([path]);
    assert.equal(code, 2, stderr);
    assert.match(stderr, /CALC_BENCH_TEST_MISSING_KEY/);
    assert.match(stderr, /"paid"/);
    assert.ok(!hasStackTrace(stderr), stderr);
    assert.equal(server.stats().requests, 0);
    // Nothing was started: no run folder.
    const entries = [];
    try {
      for await (const entry of Deno.readDir(join(dir, "out"))) {
        entries.push(entry.name);
      }
    } catch (error) {
      if (!(error instanceof Deno.errors.NotFound)) throw error;
    }
    assert.deepEqual(entries.filter((name) => !name.startsWith(".")), []);
  } finally {
    await server.close();
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("sweep CLI: an unknown flag prints usage and exits 2", async () => {
  const { code, stderr } = await runSweepCli(["--frobnicate"]);
  assert.equal(code, 2);
  assert.match(stderr, /Usage: deno task sweep/);
  assert.ok(!hasStackTrace(stderr), stderr);
});
