import assert from "node:assert/strict";
import OpenAI from "openai";
import { SIM_BACKEND } from "../_score.ts";
import {
  type SimServerOptions,
  startSimServer,
} from "../../lib/providers/server.ts";
import { simModelList } from "../../lib/providers/sim/mod.ts";

const chatBody = (content: string, extra: Record<string, unknown> = {}) =>
  JSON.stringify({
    model: "sim-strong",
    messages: [{ role: "user", content }],
    max_tokens: 64,
    ...extra,
  });

async function post(
  url: string,
  body: string,
  headers: Record<string, string> = {},
) {
  const response = await fetch(`${url}/chat/completions`, {
    method: "POST",
    headers: { "content-type": "application/json", ...headers },
    body,
  });
  return {
    status: response.status,
    headers: response.headers,
    text: await response.text(),
  };
}

for (const transport of ["deno", "node"] as const) {
  const start = (options: SimServerOptions = {}) =>
    startSimServer({ transport, backend: SIM_BACKEND, ...options });

  Deno.test(`startSimServer() over ${transport}: serves the official client: models list and a completion`, async () => {
    const server = await start();
    try {
      const client = new OpenAI({
        apiKey: "not-needed",
        baseURL: server.baseURL,
        maxRetries: 0,
      });
      const ids: string[] = [];
      for await (const model of client.models.list()) ids.push(model.id);
      assert.deepEqual(ids, simModelList().map((model) => model.id));
      const completion = await client.chat.completions.create({
        model: "sim-strong",
        messages: [{ role: "user", content: "What is 12 * 34?" }],
        max_tokens: 64,
        seed: 3,
      });
      assert.equal(completion.object, "chat.completion");
      assert.equal(typeof completion.choices[0]?.message.content, "string");
      assert.equal(server.stats().requests, 2);
      assert.equal(server.stats().byOutcome.ok, 1);
      assert.equal(server.stats().byOutcome.models, 1);
    } finally {
      await server.close();
    }
  });

  Deno.test(`startSimServer() over ${transport}: streams the same reply as SSE chunks to the official client`, async () => {
    const server = await start();
    try {
      const client = new OpenAI({
        apiKey: "not-needed",
        baseURL: server.baseURL,
        maxRetries: 0,
      });
      const request = {
        model: "sim-reasoner",
        messages: [{ role: "user" as const, content: "What is 123456 * 789?" }],
        max_tokens: 512,
        seed: 5,
      };
      const whole = await client.chat.completions.create(request);
      const stream = await client.chat.completions.create({
        ...request,
        stream: true,
        stream_options: { include_usage: true },
      });
      let content = "";
      let reasoning = "";
      let finish: string | null = null;
      let usage: unknown = null;
      for await (const chunk of stream) {
        const delta = chunk.choices[0]?.delta as
          | { content?: string | null; reasoning_content?: string }
          | undefined;
        content += delta?.content ?? "";
        reasoning += delta?.reasoning_content ?? "";
        finish = chunk.choices[0]?.finish_reason ?? finish;
        usage = chunk.usage ?? usage;
      }
      const message = whole.choices[0]?.message as {
        content: string;
        reasoning_content?: string;
      };
      assert.equal(content, message.content);
      assert.ok(reasoning.length > 0);
      assert.equal(reasoning, message.reasoning_content);
      assert.equal(finish, whole.choices[0]?.finish_reason);
      assert.deepEqual(usage, whole.usage);
    } finally {
      await server.close();
    }
  });

  Deno.test(`startSimServer() over ${transport}: answers bad requests with OpenAI-style 400/404 bodies`, async () => {
    const server = await start();
    try {
      const cases: [string, number, RegExp][] = [
        ["{not json", 400, /Cannot parse request body/],
        [
          JSON.stringify({ model: "sim-strong" }),
          400,
          /'messages' is required/,
        ],
        [
          JSON.stringify({ messages: [{ role: "user", content: "hi" }] }),
          400,
          /'model' is required/,
        ],
        [chatBody("hi", { stream: "yes" }), 400, /'stream' must be a boolean/],
        [
          chatBody("hi", { model: "gpt-nope" }),
          404,
          /Cannot find model "gpt-nope"/,
        ],
      ];
      for (const [body, status, pattern] of cases) {
        const response = await post(server.baseURL, body);
        assert.equal(response.status, status, body);
        const error = JSON.parse(response.text).error;
        assert.match(error.message, pattern);
        assert.equal(typeof error.type, "string");
      }
      const missing = await fetch(`${server.baseURL}/completions`, {
        method: "POST",
        body: "{}",
      });
      assert.equal(missing.status, 404);
      assert.match(
        (await missing.json()).error.message,
        /Cannot route POST \/v1\/completions/,
      );
      assert.equal(server.stats().byOutcome.bad_request, 4);
      assert.equal(server.stats().byOutcome.not_found, 2);
    } finally {
      await server.close();
    }
  });

  Deno.test(`startSimServer() over ${transport}: requires the bearer key when apiKey is set`, async () => {
    const server = await start({ apiKey: "sk-test-123456" });
    try {
      const denied = await post(server.baseURL, chatBody("What is 1 + 1?"));
      assert.equal(denied.status, 401);
      assert.equal(JSON.parse(denied.text).error.code, "invalid_api_key");
      const wrong = await post(server.baseURL, chatBody("What is 1 + 1?"), {
        authorization: "Bearer sk-wrong",
      });
      assert.equal(wrong.status, 401);
      const allowed = await post(server.baseURL, chatBody("What is 1 + 1?"), {
        authorization: "Bearer sk-test-123456",
      });
      assert.equal(allowed.status, 200);
    } finally {
      await server.close();
    }
  });

  Deno.test(`startSimServer() over ${transport}: sends 429 with Retry-After and truncated JSON when told to`, async () => {
    const limited = await start({
      faults: { rate429: 1, retryAfterS: 3 },
    });
    const broken = await start({ faults: { rateMalformed: 1 } });
    try {
      const response = await post(limited.baseURL, chatBody("What is 2 * 3?"));
      assert.equal(response.status, 429);
      assert.equal(response.headers.get("retry-after"), "3");
      const bad = await post(broken.baseURL, chatBody("What is 2 * 3?"));
      assert.equal(bad.status, 200);
      assert.throws(() => JSON.parse(bad.text), SyntaxError);
      assert.equal(broken.stats().byOutcome.malformed, 1);
    } finally {
      await limited.close();
      await broken.close();
    }
  });

  Deno.test(`startSimServer() over ${transport}: draws the same faults for the same seed, and retries draw afresh`, async () => {
    const outcomes = async (seed: number) => {
      const server = await start({
        seed,
        faults: { rate500: 0.5, rate503: 0.3 },
      });
      try {
        const statuses: number[] = [];
        for (let i = 0; i < 8; i++) {
          const body = chatBody(`What is ${i} * 7?`);
          statuses.push((await post(server.baseURL, body)).status);
          statuses.push((await post(server.baseURL, body)).status);
        }
        return statuses;
      } finally {
        await server.close();
      }
    };
    const first = await outcomes(42);
    assert.deepEqual(await outcomes(42), first);
    assert.notDeepEqual(await outcomes(43), first);
    assert.ok(
      first.includes(200) && first.some((status) => status >= 500),
      first.join(","),
    );
    // attempts of one body are numbered, so a retry can differ from the first try
    const pairsDiffer = first.some((status, i) =>
      i % 2 === 0 && status !== first[i + 1]
    );
    assert.ok(pairsDiffer, first.join(","));
  });

  Deno.test(`startSimServer() over ${transport}: adds the fixed latency before answering`, async () => {
    const server = await start({ latencyMs: 150 });
    try {
      const started = performance.now();
      const response = await post(server.baseURL, chatBody("What is 9 * 9?"));
      assert.equal(response.status, 200);
      assert.ok(performance.now() - started >= 140);
    } finally {
      await server.close();
    }
  });
}

Deno.test("startSimServer() drops the connection without a response", async () => {
  const server = await startSimServer({ faults: { rateDrop: 1 } });
  try {
    await assert.rejects(
      () => post(server.baseURL, chatBody("What is 5 * 5?")),
      TypeError,
    );
    assert.equal(server.stats().byOutcome.drop, 1);
  } finally {
    await server.close();
  }
});

Deno.test("startSimServer() refuses hangs and drops on the deno transport and picks node for them by itself", async () => {
  for (const faults of [{ rateDrop: 0.1 }, { rateHang: 0.1 }]) {
    await assert.rejects(
      () => startSimServer({ transport: "deno", faults }),
      /need transport "node"/,
    );
  }
  const server = await startSimServer({ faults: { rateDrop: 1 } });
  try {
    await assert.rejects(
      () => post(server.baseURL, chatBody("What is 6 * 6?")),
      TypeError,
    );
  } finally {
    await server.close();
  }
});

Deno.test("startSimServer() closes cleanly with hung requests pending", async () => {
  const server = await startSimServer({ faults: { rateHang: 1 } });
  const pending = [1, 2, 3].map((i) =>
    post(server.baseURL, chatBody(`What is ${i} + 1?`))
  );
  const settled = Promise.allSettled(pending);
  while ((server.stats().byOutcome.hang ?? 0) < 3) {
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
  await server.close();
  const results = await settled;
  assert.deepEqual(results.map((result) => result.status), [
    "rejected",
    "rejected",
    "rejected",
  ]);
});
