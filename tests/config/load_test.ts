import assert from "node:assert/strict";
import { join } from "node:path";
import { checkEnv, ConfigError } from "../../lib/config/mod.ts";
import { loadConfig, parseConfig } from "../../lib/mod.ts";

const valid = {
  models: [{ name: "sim-strong", provider: "sim" }],
  suites: [{ name: "arithmetic" }],
};

function problemsOf(fn: () => unknown): string[] {
  try {
    fn();
  } catch (error) {
    if (error instanceof ConfigError) return error.problems;
    throw error;
  }
  assert.fail("expected a ConfigError");
}

Deno.test("parseConfig() fills defaults in a minimal config", () => {
  const config = parseConfig(valid, "inline");
  assert.equal(config.samples, 1);
  assert.equal(config.temperature, 0);
  assert.equal(config.cache, true);
  assert.equal(config.models[0]?.concurrency, 16);
});

Deno.test("parseConfig() reports every problem with its path", () => {
  const problems = problemsOf(() =>
    parseConfig({
      models: [
        { name: "a", provider: "sim" },
        { name: "b", provider: "openai", baseURL: "http://127.0.0.1:1/v1" },
        { name: "c", provider: "openai", baseURL: "not a url" },
        { name: "d", provider: "bogus" },
      ],
      suites: [{ name: "arithmetic" }],
      samples: 0,
      temprature: 1,
    }, "bad.json")
  );
  const text = problems.join("\n");
  assert.match(text, /^models\[2\]\.baseURL: expected a URL/m);
  assert.match(text, /^models\[3\]\.provider: /m);
  assert.match(text, /^samples: /m);
  assert.match(text, /unknown field "temprature"/);
  assert.ok(problems.length >= 4, text);
});

Deno.test("parseConfig() rejects repeated model names, suite entries and templates, naming the path and the value", () => {
  const problems = problemsOf(() =>
    parseConfig({
      models: [
        { name: "m", provider: "sim" },
        { name: "m", provider: "sim", model: "sim-weak" },
      ],
      suites: [
        { name: "arithmetic", templates: ["direct", "cot", "direct"] },
        { name: "arithmetic", params: { digits: [2] } },
        { name: "arithmetic", params: { digits: [2] }, templates: ["cot"] },
      ],
    }, "bad.json")
  );
  assert.deepEqual(problems, [
    'models[1].name: "m" is already used by models[0]; model names label result rows and must be unique: give each model its own name',
    'suites[0].templates[2]: "direct" is listed again (first at [0]); list each entry once',
    'suites[2]: repeats suites[1] (suite "arithmetic" with the same params, so the same questions and row keys); list each entry once, and give the one entry every template it should run in "templates"',
  ]);
});

Deno.test("parseConfig() rejects missing URLs, unknown suites and templates", () => {
  const problems = problemsOf(() =>
    parseConfig({
      models: [
        { name: "m", provider: "openai" },
        { name: "n", provider: "sim" },
      ],
      suites: [
        { name: "arithmetc" },
        { name: "arithmetic", templates: ["direct", "nope"] },
      ],
    }, "bad.json")
  );
  const text = problems.join("\n");
  assert.match(text, /^models\[0\]\.baseURL: required for provider "openai"/m);
  assert.match(
    text,
    /^suites\[0\]\.name: unknown suite "arithmetc"; known suites: .*arithmetic/m,
  );
  assert.match(text, /^suites\[1\]\.templates\[1\]: unknown template "nope"/m);
});

Deno.test("parseConfig() reports suite params problems under suites[i].params", () => {
  const problems = problemsOf(() =>
    parseConfig({
      models: [{ name: "m", provider: "sim" }],
      suites: [{ name: "arithmetic", params: { count: -3 } }],
    }, "bad.json")
  );
  assert.ok(
    problems.some((p) => p.startsWith("suites[0].params")),
    problems.join("\n"),
  );
});

Deno.test("ConfigError message names the source and what to do", () => {
  try {
    parseConfig({ models: [], suites: [] }, "configs/x.json");
    assert.fail("expected a ConfigError");
  } catch (error) {
    assert.ok(error instanceof ConfigError);
    assert.match(error.message, /configs\/x\.json/);
    assert.match(error.message, /models: list at least one model/);
    assert.match(error.message, /demo\.json/);
  }
});

Deno.test("loadConfig() names the line and column of a JSON syntax error", async () => {
  const dir = await Deno.makeTempDir();
  try {
    const path = join(dir, "broken.json");
    await Deno.writeTextFile(path, '{\n  "models": [],\n  "suites": [,]\n}\n');
    await assert.rejects(
      () => loadConfig(path),
      (error: unknown) =>
        error instanceof ConfigError &&
        /line 3, column \d+/.test(error.message) &&
        error.message.includes(path),
    );
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("loadConfig() says a missing file does not exist", async () => {
  await assert.rejects(
    () => loadConfig("/nonexistent/sweep.json"),
    (error: unknown) =>
      error instanceof ConfigError && /does not exist/.test(error.message),
  );
});

Deno.test("loadConfig() accepts a byte-order mark and returns the config folder", async () => {
  const dir = await Deno.makeTempDir();
  try {
    const path = join(dir, "bom.json");
    await Deno.writeTextFile(path, "\uFEFF" + JSON.stringify(valid));
    const { config, baseDir } = await loadConfig(path);
    assert.equal(config.models[0]?.name, "sim-strong");
    assert.equal(baseDir, dir);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("loadConfig() validates the shipped demo config", async () => {
  const { config } = await loadConfig("data/configs/demo.json");
  assert.ok(config.models.every((m) => m.provider === "sim"));
});

Deno.test("checkEnv() names every missing key variable, never a value", () => {
  const config = parseConfig({
    models: [
      {
        name: "a",
        provider: "openai",
        baseURL: "http://127.0.0.1:1/v1",
        apiKeyEnv: "KEY_A",
      },
      {
        name: "b",
        provider: "openai",
        baseURL: "http://127.0.0.1:1/v1",
        apiKeyEnv: "KEY_B",
      },
      {
        name: "c",
        provider: "openai",
        baseURL: "http://127.0.0.1:1/v1",
        apiKeyEnv: "KEY_C",
      },
    ],
    suites: [{ name: "arithmetic" }],
  }, "inline");
  const env = (
    name: string,
  ) => (name === "KEY_B" ? "sk-secret-value" : undefined);
  const problems = problemsOf(() => checkEnv(config, env));
  assert.equal(problems.length, 2);
  assert.match(problems[0] ?? "", /KEY_A .*"a"/);
  assert.match(problems[1] ?? "", /KEY_C .*"c"/);
  assert.ok(!problems.join("").includes("sk-secret-value"));
});

Deno.test("parseConfig() refuses an API key pasted where the variable name goes", () => {
  const problems = problemsOf(() =>
    parseConfig({
      models: [{
        name: "a",
        provider: "openai",
        baseURL: "http://127.0.0.1:1/v1",
        apiKeyEnv: "sk-proj-abc123-def",
      }],
      suites: [{ name: "arithmetic" }],
    }, "inline")
  );
  assert.match(problems[0] ?? "", /^models\[0\]\.apiKeyEnv: expected the NAME/);
});

Deno.test("loadConfig() reports the same line and column with or without a byte-order mark", async () => {
  const dir = await Deno.makeTempDir();
  try {
    const positionOf = async (name: string, text: string) => {
      const path = join(dir, name);
      await Deno.writeTextFile(path, text);
      try {
        await loadConfig(path);
      } catch (error) {
        assert.ok(error instanceof ConfigError);
        const m = /line (\d+), column (\d+)/.exec(error.message);
        assert.ok(m !== null, error.message);
        return [Number(m[1]), Number(m[2])];
      }
      assert.fail(`expected a ConfigError for ${name}`);
    };
    // An error on line 1: the stray "x" is the 2nd character.
    const line1 = '{x "models": []}';
    assert.deepEqual(await positionOf("plain1.json", line1), [1, 2]);
    assert.deepEqual(await positionOf("bom1.json", "\uFEFF" + line1), [1, 2]);
    // An error at the start of line 3 (the stray comma is column 14).
    const line3 = '{\n  "models": [],\n  "suites": [,]\n}\n';
    assert.deepEqual(await positionOf("plain3.json", line3), [3, 14]);
    assert.deepEqual(await positionOf("bom3.json", "\uFEFF" + line3), [3, 14]);
    // An error at the very start of a line after the mark.
    const start = '{"models": []\n"suites": []}';
    assert.deepEqual(await positionOf("plain_start.json", start), [2, 1]);
    assert.deepEqual(
      await positionOf("bom_start.json", "\uFEFF" + start),
      [2, 1],
    );
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});
