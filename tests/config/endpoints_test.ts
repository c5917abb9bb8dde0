import assert from "node:assert/strict";
import { checkEndpoints, ConfigError } from "../../lib/config/mod.ts";
import { parseConfig } from "../../lib/mod.ts";
import { startSimServer } from "../../lib/mod.ts";

function freePort(): number {
  const listener = Deno.listen({ hostname: "127.0.0.1", port: 0 });
  const port = listener.addr.port;
  listener.close();
  return port;
}

function configFor(models: unknown[]) {
  return parseConfig({ models, suites: [{ name: "arithmetic" }] }, "inline");
}

Deno.test("checkEndpoints() names an unreachable endpoint by path and says what to do", async () => {
  const url = `http://127.0.0.1:${freePort()}/v1`;
  const config = configFor([
    { name: "sim", provider: "sim" },
    { name: "down", provider: "openai", baseURL: url },
  ]);
  try {
    await checkEndpoints(config, { timeoutMs: 3000 });
    assert.fail("expected a ConfigError");
  } catch (error) {
    assert.ok(error instanceof ConfigError);
    assert.equal(error.problems.length, 1);
    assert.match(
      error.problems[0] ?? "",
      /^models\[1\]\.baseURL: model "down": cannot reach/,
    );
    assert.ok(error.message.includes(url));
    assert.match(error.message, /ollama serve|serve-sim/);
  }
});

Deno.test("checkEndpoints() passes a reachable endpoint, refuses an unlisted model, and warns when the model allows it", async () => {
  const server = await startSimServer({});
  try {
    const models = [
      {
        name: "ok",
        provider: "openai",
        model: "sim-strong",
        baseURL: server.baseURL,
      },
      {
        name: "typo",
        provider: "openai",
        model: "sim-strnog",
        baseURL: server.baseURL,
      },
    ];
    await assert.rejects(
      checkEndpoints(configFor(models)),
      (error: unknown) =>
        error instanceof ConfigError &&
        /^models\[1\]\.model: "sim-strnog" is not in the model list .*sim-strong.*"allowUnlisted": true/
          .test(error.problems[0] ?? "") &&
        error.problems.length === 1,
    );
    // Two models, one endpoint: probed once.
    assert.equal(server.stats().requests, 1);
    const { warnings } = await checkEndpoints(
      configFor([models[0]!, { ...models[1]!, allowUnlisted: true }]),
    );
    assert.equal(warnings.length, 1);
    assert.match(
      warnings[0] ?? "",
      /^models\[1\]: "sim-strnog" is not in the model list .*sending anyway/,
    );
  } finally {
    await server.close();
  }
});

Deno.test("checkEndpoints() reports a rejected key by variable name, never its value", async () => {
  const server = await startSimServer({ apiKey: "sk-right-key-123" });
  try {
    const config = configFor([{
      name: "keyed",
      provider: "openai",
      model: "sim-strong",
      baseURL: server.baseURL,
      apiKeyEnv: "CALC_TEST_KEY",
    }]);
    const wrong = "sk-wrong-key-456";
    try {
      await checkEndpoints(config, { env: () => wrong });
      assert.fail("expected a ConfigError");
    } catch (error) {
      assert.ok(error instanceof ConfigError);
      assert.match(error.message, /rejected the API key \(HTTP 401\)/);
      assert.match(error.message, /CALC_TEST_KEY/);
      assert.ok(!error.message.includes(wrong));
    }
    const ok = await checkEndpoints(config, { env: () => "sk-right-key-123" });
    assert.deepEqual(ok.warnings, []);
  } finally {
    await server.close();
  }
});

Deno.test("checkEndpoints() names a key variable that is not set, instead of the client's own error", async () => {
  const url = `http://127.0.0.1:${freePort()}/v1`;
  const config = configFor([
    {
      name: "down",
      provider: "openai",
      baseURL: url,
      apiKeyEnv: "CALC_BENCH_TEST_KEY_THAT_IS_NOT_SET",
    },
  ]);
  const error = await checkEndpoints(config, { timeoutMs: 3000 }).then(
    () => assert.fail("expected a ConfigError"),
    (e) => e,
  );
  assert.ok(error instanceof ConfigError, String(error));
  assert.match(
    error.message,
    /models\[0\]\.apiKeyEnv: model "down": the variable CALC_BENCH_TEST_KEY_THAT_IS_NOT_SET is not set/,
  );
});
