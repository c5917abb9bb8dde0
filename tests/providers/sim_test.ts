import { SIM_BACKEND } from "../_score.ts";
import assert from "node:assert/strict";
import { SimProvider } from "../../lib/providers/sim.ts";
import { OpenAIProvider } from "../../lib/providers/openai.ts";
import { startSimServer } from "../../lib/mod.ts";
import { simModelList } from "../../lib/providers/sim/mod.ts";
import { simChat } from "../_score.ts";
import type { Completion, Prompt } from "../../lib/types.ts";
import { arithmeticPrompt } from "./_helpers.ts";

function withoutTiming(
  { latencyMs: _latency, attempts: _attempts, ...rest }: Completion,
) {
  return rest;
}

function prompts(): Prompt[] {
  const list: Prompt[] = [];
  for (
    const [a, b, seed] of [[12, 34, 1], [98765, 4321, 2], [
      123456789,
      987654321,
      3,
    ]] as const
  ) {
    list.push(arithmeticPrompt(a, b, seed));
  }
  // a tight token limit makes long replies stop at "length" (and cuts <think>)
  const short = arithmeticPrompt(987654321, 123456789, 4);
  list.push({ ...short, params: { ...short.params, max_tokens: 12 } });
  return list;
}

Deno.test("SimProvider.complete() equals the same request over HTTP, except latency and attempts", async () => {
  const server = await startSimServer();
  try {
    let compared = 0;
    const seen = new Set<string>();
    for (const { id } of simModelList()) {
      const local = new SimProvider({ backend: SIM_BACKEND, name: id });
      const remote = new OpenAIProvider({
        name: id,
        baseURL: server.baseURL,
        maxRetries: 0,
      });
      for (const prompt of prompts()) {
        const [inProcess, overHttp] = await Promise.all([
          local.complete(prompt, { sample: 0 }),
          remote.complete(prompt, { sample: 0 }),
        ]);
        assert.equal(overHttp.error, undefined, overHttp.error?.message);
        assert.deepEqual(
          withoutTiming(overHttp),
          withoutTiming(inProcess),
          `${id}`,
        );
        assert.equal(inProcess.attempts, 1);
        compared++;
        seen.add(inProcess.finishReason);
        if (inProcess.reasoning !== null) seen.add("reasoning");
      }
    }
    assert.equal(compared, simModelList().length * prompts().length);
    // the comparison covered reasoning replies and replies cut at the limit
    assert.ok(
      seen.has("reasoning") && seen.has("length") && seen.has("stop"),
      [...seen].join(),
    );
  } finally {
    await server.close();
  }
});

Deno.test("SimProvider.complete() reports the sim's latency without sleeping by default", async () => {
  const prompt = arithmeticPrompt(4321, 1234, 9);
  const body = {
    model: "sim-average",
    messages: prompt.messages,
    temperature: 0,
    max_tokens: 256,
    seed: 9,
  };
  const expected = simChat(body).latencyMs;
  const completion = await new SimProvider({
    backend: SIM_BACKEND,
    name: "avg",
    model: "sim-average",
  }).complete(prompt, {
    sample: 0,
  });
  assert.equal(completion.latencyMs, expected);
  assert.ok(expected > 0);
});

Deno.test("SimProvider.complete() keeps reasoning apart for both reasoning forms", async () => {
  const prompt = arithmeticPrompt(123456, 789, 5);
  const body = {
    model: "",
    messages: prompt.messages,
    temperature: 0,
    max_tokens: 256,
    seed: 5,
  };
  const field = simChat({ ...body, model: "sim-reasoner" }).response as {
    choices: { message: { content: string; reasoning_content?: string } }[];
  };
  const inline = simChat({ ...body, model: "sim-think" })
    .response as typeof field;
  // the two profiles really use the two wire forms
  assert.equal(typeof field.choices[0]?.message.reasoning_content, "string");
  assert.match(inline.choices[0]?.message.content ?? "", /^\s*<think>/);

  const fromField = await new SimProvider({
    backend: SIM_BACKEND,
    name: "sim-reasoner",
  }).complete(
    prompt,
    { sample: 0 },
  );
  const fromThink = await new SimProvider({
    backend: SIM_BACKEND,
    name: "sim-think",
  }).complete(
    prompt,
    { sample: 0 },
  );
  assert.equal(
    fromField.reasoning,
    field.choices[0]?.message.reasoning_content?.trim(),
  );
  assert.ok((fromThink.reasoning ?? "").length > 0);
  assert.ok(
    !fromThink.text.includes("<think>") && !fromThink.text.includes("</think>"),
  );
  assert.ok(inline.choices[0]?.message.content.endsWith(fromThink.text));
});

Deno.test("SimProvider.complete() returns a client error for an unknown profile", async () => {
  const completion = await new SimProvider({
    backend: SIM_BACKEND,
    name: "gpt-nope",
  }).complete(
    arithmeticPrompt(1, 1),
    {
      sample: 0,
    },
  );
  assert.equal(completion.error?.kind, "client");
  assert.equal(completion.error?.status, 404);
  assert.match(
    completion.error?.message ?? "",
    /^Cannot complete chat request: /,
  );
});

Deno.test("SimProvider.complete() with realtime sleeps at least the simulated latency", async () => {
  const provider = new SimProvider({
    backend: SIM_BACKEND,
    name: "sim-strong",
    realtime: true,
  });
  const started = performance.now();
  const completion = await provider.complete(arithmeticPrompt(11, 11, 2), {
    sample: 0,
  });
  assert.ok(performance.now() - started >= completion.latencyMs - 1);
});

Deno.test("SimProvider.complete() with realtime stops sleeping when aborted", async () => {
  const provider = new SimProvider({
    backend: SIM_BACKEND,
    name: "sim-strong",
    realtime: true,
  });
  const controller = new AbortController();
  const pending = provider.complete(arithmeticPrompt(13, 17, 2), {
    sample: 0,
    signal: controller.signal,
  });
  controller.abort();
  const completion = await pending;
  assert.equal(completion.error?.kind, "aborted");
});
