import assert from "node:assert/strict";
import { createProvider } from "../../lib/providers/create.ts";
import { OpenAIProvider } from "../../lib/providers/openai.ts";
import { SimProvider } from "../../lib/providers/sim.ts";
import { startSimServer } from "../../lib/mod.ts";
import { ModelSchema, SweepConfigSchema } from "../../lib/config/schema.ts";
import { arithmeticPrompt } from "./_helpers.ts";

const sweep = SweepConfigSchema.parse({
  models: [{ name: "m", provider: "sim" }],
  suites: [{ name: "arithmetic" }],
  retries: 0,
  timeoutMs: 2_000,
});

Deno.test("createProvider() builds a SimProvider whose profile defaults to the name", async () => {
  const provider = createProvider(
    ModelSchema.parse({ name: "sim-strong", provider: "sim" }),
    sweep,
  );
  assert.ok(provider instanceof SimProvider);
  const completion = await provider.complete(arithmeticPrompt(6, 7), {
    sample: 0,
  });
  assert.equal(completion.error, undefined);
  const aliased = createProvider(
    ModelSchema.parse({ name: "mine", provider: "sim", model: "sim-weak" }),
    sweep,
  );
  assert.equal(aliased.name, "mine");
  assert.equal(
    (await aliased.complete(arithmeticPrompt(6, 7), { sample: 0 })).error,
    undefined,
  );
});

Deno.test("createProvider() builds an OpenAIProvider that sends the key from the named variable", async () => {
  const server = await startSimServer({ apiKey: "sk-from-env-42" });
  try {
    const model = ModelSchema.parse({
      name: "remote",
      provider: "openai",
      model: "sim-strong",
      baseURL: server.baseURL,
      apiKeyEnv: "MY_TEST_KEY",
    });
    const provider = createProvider(model, sweep, {
      env: (name) => name === "MY_TEST_KEY" ? "sk-from-env-42" : undefined,
    });
    assert.ok(provider instanceof OpenAIProvider);
    const completion = await provider.complete(arithmeticPrompt(6, 7), {
      sample: 0,
    });
    assert.equal(completion.error, undefined, completion.error?.message);
    const keyless = createProvider({ ...model, apiKeyEnv: undefined }, sweep, {
      env: () => undefined,
    });
    const denied = await keyless.complete(arithmeticPrompt(6, 7), {
      sample: 0,
    });
    assert.equal(denied.error?.kind, "auth");
    assert.equal(denied.attempts, 1);
  } finally {
    await server.close();
  }
});

Deno.test("createProvider() names the variable and the model when the key is missing", () => {
  const model = ModelSchema.parse({
    name: "remote",
    provider: "openai",
    baseURL: "http://127.0.0.1:9/v1",
    apiKeyEnv: "ABSENT_KEY",
  });
  assert.throws(
    () => createProvider(model, sweep, { env: () => undefined }),
    /"remote".*ABSENT_KEY/,
  );
});

Deno.test("createProvider() requires a baseURL for openai models", () => {
  const model = ModelSchema.parse({ name: "remote", provider: "openai" });
  assert.throws(
    () => createProvider(model, sweep, { env: () => undefined }),
    /needs a baseURL/,
  );
});

Deno.test("createProvider() applies per-model temperature, max_tokens and max_tokens_param", async () => {
  const bodies: Record<string, unknown>[] = [];
  const server = await startSimServer();
  // a raw loopback proxy records the body the provider sends
  const proxy = Deno.serve(
    { hostname: "127.0.0.1", port: 0, onListen() {} },
    async (request) => {
      const text = await request.text();
      bodies.push(JSON.parse(text));
      const url = new URL(request.url);
      return await fetch(
        `${server.baseURL}${url.pathname.replace(/^\/v1/, "")}`,
        {
          method: "POST",
          headers: { "content-type": "application/json" },
          body: text,
        },
      );
    },
  );
  try {
    const model = ModelSchema.parse({
      name: "remote",
      provider: "openai",
      model: "sim-strong",
      baseURL: `http://127.0.0.1:${proxy.addr.port}/v1`,
      temperature: 0.7,
      max_tokens: 77,
      params: { max_tokens_param: "max_completion_tokens", top_p: 0.5 },
    });
    const completion = await createProvider(model, sweep).complete(
      arithmeticPrompt(2, 3),
      {
        sample: 0,
      },
    );
    assert.equal(completion.error, undefined, completion.error?.message);
    assert.equal(bodies[0]?.temperature, 0.7);
    assert.equal(bodies[0]?.max_completion_tokens, 77);
    assert.equal(bodies[0]?.max_tokens, undefined);
    assert.equal(bodies[0]?.max_tokens_param, undefined);
    assert.equal(bodies[0]?.top_p, 0.5);
  } finally {
    await proxy.shutdown();
    await server.close();
  }
});
