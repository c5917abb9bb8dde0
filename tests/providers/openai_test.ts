import assert from "node:assert/strict";
import {
  OpenAIProvider,
  type OpenAIProviderOptions,
} from "../../lib/providers/openai.ts";
import type { FaultRates } from "../../lib/providers/mod.ts";
import { startSimServer } from "../../lib/mod.ts";
import type { ErrorKind } from "../../lib/types.ts";
import { arithmeticPrompt } from "./_helpers.ts";

function provider(
  baseURL: string,
  options: Partial<OpenAIProviderOptions> = {},
) {
  return new OpenAIProvider({
    name: "sim",
    model: "sim-strong",
    baseURL,
    maxRetries: 1,
    timeoutMs: 5_000,
    ...options,
  });
}

Deno.test("OpenAIProvider.complete() answers through the sim server in one attempt", async () => {
  const server = await startSimServer();
  try {
    const completion = await provider(server.baseURL).complete(
      arithmeticPrompt(12, 34),
      {
        sample: 0,
      },
    );
    assert.equal(completion.error, undefined);
    assert.equal(completion.attempts, 1);
    assert.ok(completion.text.length > 0);
    assert.ok(completion.usage.promptTokens > 0);
    assert.equal(server.stats().requests, 1);
  } finally {
    await server.close();
  }
});

const faultCases: [string, FaultRates, ErrorKind, number | undefined][] = [
  ["429", { rate429: 1, retryAfterS: 0.05 }, "rate_limit", 429],
  ["500", { rate500: 1 }, "server", 500],
  ["503", { rate503: 1 }, "server", 503],
  ["drop", { rateDrop: 1 }, "connection", undefined],
  ["malformed JSON", { rateMalformed: 1 }, "bad_response", 502],
  ["hang", { rateHang: 1 }, "timeout", undefined],
];

for (const [label, faults, kind, status] of faultCases) {
  Deno.test(`OpenAIProvider.complete() ends a ${label} fault at rate 1 as "${kind}" after 2 attempts`, async () => {
    const server = await startSimServer({ faults, seed: 1 });
    try {
      const completion = await provider(server.baseURL, { timeoutMs: 300 })
        .complete(
          arithmeticPrompt(21, 3),
          { sample: 0 },
        );
      assert.equal(completion.error?.kind, kind, completion.error?.message);
      assert.equal(completion.error?.status, status);
      assert.match(
        completion.error?.message ?? "",
        /^Cannot complete chat request: /,
      );
      assert.equal(completion.text, "");
      assert.equal(completion.finishReason, "error");
      assert.equal(completion.attempts, 2);
      assert.equal(server.stats().requests, 2);
    } finally {
      await server.close();
    }
  });
}

async function runMixed(faults: FaultRates) {
  const server = await startSimServer({ seed: 7, faults });
  try {
    const sim = provider(server.baseURL, { maxRetries: 6, timeoutMs: 1_000 });
    const completions = await Promise.all(
      Array.from(
        { length: 24 },
        (_, i) => sim.complete(arithmeticPrompt(100 + i, 7), { sample: 0 }),
      ),
    );
    const attempts = completions.reduce(
      (sum, completion) => sum + completion.attempts,
      0,
    );
    return { completions, attempts, stats: server.stats() };
  } finally {
    await server.close();
  }
}

Deno.test("OpenAIProvider.complete() succeeds at moderate fault rates; attempts match the server's count", async () => {
  const { completions, attempts, stats } = await runMixed({
    rate429: 0.08,
    retryAfterS: 0.05,
    rate500: 0.08,
    rate503: 0.08,
    rateHang: 0.05,
    rateMalformed: 0.08,
  });
  assert.deepEqual(
    completions.flatMap((completion) =>
      completion.error ? [completion.error] : []
    ),
    [],
  );
  assert.equal(stats.byOutcome.ok, 24);
  assert.ok(attempts > 24, `some faults fired: ${JSON.stringify(stats)}`);
  assert.equal(attempts, stats.requests, JSON.stringify(stats));
});

Deno.test("OpenAIProvider.complete() recovers from dropped connections; Deno's fetch may resend on its own", async () => {
  const { completions, attempts, stats } = await runMixed({
    rateDrop: 0.15,
    rateHang: 0.05,
    rateMalformed: 0.08,
  });
  assert.deepEqual(
    completions.flatMap((completion) =>
      completion.error ? [completion.error] : []
    ),
    [],
  );
  assert.equal(stats.byOutcome.ok, 24);
  assert.ok((stats.byOutcome.drop ?? 0) > 0, JSON.stringify(stats));
  // A connection dropped after keep-alive reuse is resent once by Deno's
  // HTTP client itself (invisible to the openai client), so the server can
  // see more requests than attempts, never fewer, and at most one per drop.
  assert.ok(
    attempts <= stats.requests,
    `${attempts} attempts, ${JSON.stringify(stats)}`,
  );
  assert.ok(
    stats.requests - attempts <= (stats.byOutcome.drop ?? 0),
    JSON.stringify(stats),
  );
});

Deno.test("OpenAIProvider.complete() waits at least the Retry-After of a 429", async () => {
  const server = await startSimServer({
    faults: { rate429: 1, retryAfterS: 1.2 },
  });
  try {
    const completion = await provider(server.baseURL).complete(
      arithmeticPrompt(4, 4),
      {
        sample: 0,
      },
    );
    assert.equal(completion.error?.kind, "rate_limit");
    assert.equal(completion.attempts, 2);
    // the client's own backoff would be at most 500 ms; the header says 1.2 s
    assert.ok(completion.latencyMs >= 1_150, `latency ${completion.latencyMs}`);
  } finally {
    await server.close();
  }
});

Deno.test("OpenAIProvider.complete() never puts the API key in an error message", async () => {
  const key = "sk-live-SECRET-0123456789abcdef";
  const servers = await Promise.all([
    startSimServer({ apiKey: "sk-other-key" }),
    startSimServer({ apiKey: key, faults: { rate500: 1 } }),
    startSimServer({ apiKey: key, faults: { rateDrop: 1 } }),
    startSimServer({ apiKey: key, faults: { rateHang: 1 } }),
  ]);
  // an endpoint that echoes the Authorization header in its error, as some proxies do
  const echo = Deno.serve(
    { hostname: "127.0.0.1", port: 0, onListen() {} },
    (request) =>
      Response.json(
        {
          error: {
            message: `bad header ${request.headers.get("authorization")}`,
            type: "x",
          },
        },
        { status: 400 },
      ),
  );
  try {
    const urls = [
      ...servers.map((server) => server.baseURL),
      `http://127.0.0.1:${echo.addr.port}/v1`,
    ];
    const completions = await Promise.all(
      urls.map((url) =>
        provider(url, { apiKey: key, timeoutMs: 300 }).complete(
          arithmeticPrompt(3, 3),
          { sample: 0 },
        )
      ),
    );
    assert.deepEqual(
      completions.map((completion) => completion.error?.kind),
      ["auth", "server", "connection", "timeout", "client"],
    );
    for (const completion of completions) {
      assert.ok(
        !JSON.stringify(completion).includes(key),
        JSON.stringify(completion),
      );
    }
    assert.match(completions[4]?.error?.message ?? "", /Bearer \*\*\*/);
  } finally {
    await Promise.all(servers.map((server) => server.close()));
    await echo.shutdown();
  }
});

Deno.test("OpenAIProvider.complete() sends the model params and the chosen token-limit field", async () => {
  const bodies: Record<string, unknown>[] = [];
  const server = await startSimServer();
  const recording: typeof fetch = async (input, init) => {
    bodies.push(JSON.parse(String(init?.body)));
    return await fetch(input, init);
  };
  try {
    const sim = provider(server.baseURL, {
      fetch: recording,
      maxTokensParam: "max_completion_tokens",
      maxTokens: 99,
      temperature: 0.5,
      params: { top_p: 0.9 },
    });
    const completion = await sim.complete(arithmeticPrompt(5, 6, 11), {
      sample: 0,
    });
    assert.equal(completion.error, undefined);
    assert.equal(bodies.length, 1);
    assert.equal(bodies[0]?.max_completion_tokens, 99);
    assert.equal(bodies[0]?.max_tokens, undefined);
    assert.equal(bodies[0]?.temperature, 0.5);
    assert.equal(bodies[0]?.top_p, 0.9);
    assert.equal(bodies[0]?.seed, 11);
    assert.equal(bodies[0]?.model, "sim-strong");
  } finally {
    await server.close();
  }
});

Deno.test("OpenAIProvider.complete() reports an aborted call as aborted", async () => {
  const server = await startSimServer({ faults: { rateHang: 1 } });
  try {
    const controller = new AbortController();
    const pending = provider(server.baseURL).complete(arithmeticPrompt(8, 8), {
      sample: 0,
      signal: controller.signal,
    });
    while ((server.stats().byOutcome.hang ?? 0) < 1) {
      await new Promise((resolve) => setTimeout(resolve, 10));
    }
    controller.abort();
    const completion = await pending;
    assert.equal(completion.error?.kind, "aborted");
    assert.equal(completion.attempts, 1);
  } finally {
    await server.close();
  }
});

Deno.test("OpenAIProvider.complete() reports a refused connection as a connection error", async () => {
  const listener = Deno.listen({ hostname: "127.0.0.1", port: 0 });
  const port = (listener.addr as Deno.NetAddr).port;
  listener.close();
  const completion = await provider(`http://127.0.0.1:${port}/v1`, {
    maxRetries: 0,
  }).complete(
    arithmeticPrompt(1, 2),
    { sample: 0 },
  );
  assert.equal(completion.error?.kind, "connection");
  assert.equal(completion.attempts, 1);
});
