import assert from "node:assert/strict";
import {
  SIM_PROFILES,
  SimModelError,
  simModelList,
  type SimRequest,
} from "../../../lib/providers/sim/mod.ts";
import { ask, type Choice } from "./_helpers.ts";
import { simChat } from "../../_score.ts";

const CALCULATOR = {
  type: "function" as const,
  function: {
    name: "calculator",
    description: "Evaluates an arithmetic expression.",
    parameters: {
      type: "object",
      properties: { expression: { type: "string" } },
      required: ["expression"],
    },
  },
};

Deno.test("simChat() gives byte-identical replies to identical requests", () => {
  for (const profile of SIM_PROFILES) {
    const request: SimRequest = {
      model: profile.name,
      messages: [
        { role: "system", content: "You are a careful calculator." },
        {
          role: "user",
          content: "Calculate 987654 times 123456. Reply without commas.",
        },
      ],
      temperature: 0.7,
      max_tokens: 512,
      seed: 42,
    };
    const a = JSON.stringify(simChat(request));
    const b = JSON.stringify(simChat(structuredClone(request)));
    assert.equal(a, b, profile.name);
  }
});

Deno.test("simChat() samples differ by seed at temperature 0", () => {
  const answers = new Set<string>();
  const ids = new Set<string>();
  for (let seed = 0; seed < 40; seed++) {
    const reply = simChat({
      model: "sim-average",
      messages: [{
        role: "user",
        content: "What is 4567891 * 9876543? Output only the number.",
      }],
      temperature: 0,
      seed,
    });
    ids.add(reply.response.id as string);
    answers.add((reply.response.choices as Choice[])[0]!.message.content ?? "");
  }
  assert.equal(ids.size, 40);
  assert.ok(answers.size > 5, `only ${answers.size} distinct answers`);
});

Deno.test("simChat() returns a complete ChatCompletion object", () => {
  const { response } = simChat({
    model: "sim-strong",
    messages: [{ role: "user", content: "What is 4821 + 9377?" }],
    seed: 1,
    top_p: 0.5,
  });
  assert.equal(response.object, "chat.completion");
  assert.equal(response.model, "sim-strong");
  assert.equal(typeof response.created, "number");
  assert.match(response.id as string, /^chatcmpl-sim-[0-9a-f]{16}$/);
  const choice = (response.choices as Choice[])[0]!;
  assert.equal(choice.message.role, "assistant");
  assert.equal(choice.finish_reason, "stop");
  const usage = response.usage as Record<string, number>;
  assert.equal(
    usage.total_tokens,
    usage.prompt_tokens! + usage.completion_tokens!,
  );
});

Deno.test("simChat() estimates prompt tokens as characters / 4 of all messages", () => {
  const messages: SimRequest["messages"] = [
    { role: "system", content: "x".repeat(37) },
    { role: "user", content: "What is 12 + 30?" },
  ];
  const { response } = simChat({ model: "sim-strong", messages, seed: 0 });
  const usage = response.usage as Record<string, number>;
  assert.equal(usage.prompt_tokens, Math.ceil((37 + 16) / 4));
  const content = (response.choices as Choice[])[0]!.message.content ?? "";
  assert.equal(usage.completion_tokens, Math.ceil(content.length / 4));
});

Deno.test("simChat() throws SimModelError listing the known profiles for an unknown model", () => {
  assert.throws(
    () =>
      simChat({ model: "gpt-4o", messages: [{ role: "user", content: "hi" }] }),
    (error: unknown) => {
      assert.ok(error instanceof SimModelError);
      assert.ok(error instanceof RangeError);
      assert.match(error.message, /^Cannot simulate model "gpt-4o"/);
      for (const p of SIM_PROFILES) assert.ok(error.message.includes(p.name));
      return true;
    },
  );
});

Deno.test("simModelList() lists every profile once in the /v1/models shape", () => {
  const list = simModelList();
  assert.deepEqual(list.map((m) => m.id), SIM_PROFILES.map((p) => p.name));
  for (const m of list) {
    assert.equal(m.object, "model");
    assert.equal(m.owned_by, "sim");
  }
});

Deno.test("simChat() latency is deterministic and grows with completion tokens", () => {
  const short = ask("sim-reasoner", "What is 2 + 3?");
  const long = ask("sim-reasoner", "What is 123456789 * 987654321?");
  assert.equal(
    short.latencyMs,
    ask("sim-reasoner", "What is 2 + 3?").latencyMs,
  );
  assert.ok(long.usage.completion_tokens > short.usage.completion_tokens);
  assert.ok(long.latencyMs > short.latencyMs);
});

Deno.test("simChat() cuts a reasoner at max_tokens with finish_reason length and no answer", () => {
  const { choice, usage } = ask(
    "sim-reasoner",
    "Calculate 12345678 times 87654321. Reply without commas.",
    { max_tokens: 30 },
  );
  assert.equal(choice.finish_reason, "length");
  assert.equal(choice.message.content, "");
  assert.ok((choice.message.reasoning_content ?? "").length <= 120);
  assert.ok(usage.completion_tokens <= 30);
});

Deno.test("simChat() cuts <think> content at max_tokens", () => {
  const { choice, usage } = ask("sim-think", "What is 123456 * 654321?", {
    max_tokens: 25,
  });
  assert.equal(choice.finish_reason, "length");
  const content = choice.message.content ?? "";
  assert.ok(content.startsWith("<think>"));
  assert.ok(!content.includes("</think>"));
  assert.ok(content.length <= 100);
  assert.ok(usage.completion_tokens <= 25);
});

Deno.test("simChat() answers with a calculator tool call, then with the tool result", () => {
  const user = {
    role: "user" as const,
    content: "What is 123 × 456? Output only the number.",
  };
  const first = simChat({
    model: "sim-strong",
    messages: [user],
    tools: [CALCULATOR],
    seed: 5,
  });
  const choice = (first.response.choices as Choice[])[0]!;
  assert.equal(choice.finish_reason, "tool_calls");
  assert.ok(!choice.message.content);
  const call = choice.message.tool_calls?.[0];
  assert.ok(call);
  assert.equal(call.function.name, "calculator");
  assert.deepEqual(JSON.parse(call.function.arguments), {
    expression: "123*456",
  });
  const again = simChat({
    model: "sim-strong",
    messages: [user],
    tools: [CALCULATOR],
    seed: 5,
  });
  assert.equal(
    (again.response.choices as Choice[])[0]!.message.tool_calls?.[0]?.id,
    call.id,
  );

  const second = simChat({
    model: "sim-strong",
    messages: [
      user,
      { role: "assistant", content: null, tool_calls: [call] },
      { role: "tool", tool_call_id: call.id, content: "56088" },
    ],
    tools: [CALCULATOR],
    seed: 5,
  });
  const final = (second.response.choices as Choice[])[0]!;
  assert.equal(final.finish_reason, "stop");
  assert.equal(final.message.content, "56088");
});

Deno.test("simChat() sim-weak ignores the calculator tool", () => {
  const { choice } = ask("sim-weak", "What is 12 + 30?", {
    tools: [CALCULATOR],
  });
  assert.equal(choice.finish_reason, "stop");
  assert.equal(choice.message.tool_calls, undefined);
});

Deno.test("simChat() gives a polite non-answer when no skill matches, never throws", () => {
  const { choice } = ask("sim-strong", "Tell me about the weather in Paris.");
  assert.match(choice.message.content ?? "", /not sure|rephrase/);
  const odd = [
    "",
    "((((",
    "1/0 = ?",
    "What is 5 / 0?",
    "2 ^ 999999",
    "what is -",
    "+-*/ 3",
    "9".repeat(500) + " * " + "9".repeat(500),
    "1.2.3 + 4",
  ];
  for (const profile of SIM_PROFILES) {
    for (const content of odd) {
      const reply = ask(profile.name, content);
      assert.equal(
        typeof reply.choice.message.content,
        "string",
        `${profile.name}: ${content}`,
      );
    }
  }
});

Deno.test("simChat() reads a Chinese prompt and answers it", () => {
  const { choice } = ask("sim-strong", "计算 123 × 456 等于多少？只输出数字。");
  assert.equal(choice.message.content, "56088");
  const change = ask(
    "sim-strong",
    "一个苹果 3 元，买 5 个付 20 元，应找回多少元？",
  );
  assert.match(change.choice.message.content ?? "", /(^|\D)5(\D|$)/);
  const words = ask("sim-strong", "25 乘以 4 等于多少？只输出数字。");
  assert.equal(words.choice.message.content, "100");
});

Deno.test("simChat() throws TypeError for malformed messages and skips malformed tool calls", () => {
  assert.throws(
    () => simChat({ model: "sim-strong", messages: "hi" as never }),
    TypeError,
  );
  assert.throws(
    () => simChat({ model: "sim-strong", messages: [null as never] }),
    /^TypeError: Cannot simulate chat: messages\[0\]/,
  );
  const reply = simChat({
    model: "sim-strong",
    messages: [
      { role: "user", content: "What is 2 + 2? Output only the number." },
      { role: "assistant", content: null, tool_calls: [{ bogus: 1 } as never] },
      { role: "user", content: "What is 3 + 3? Output only the number." },
    ],
  });
  assert.equal((reply.response.choices as Choice[])[0]!.message.content, "6");
});

Deno.test("simChat() makes more mistakes at a higher temperature", () => {
  const passes = (temperature: number) => {
    let pass = 0;
    for (let seed = 0; seed < 300; seed++) {
      const { choice } = ask(
        "sim-average",
        "What is 4821 * 9377? Output only the number.",
        { seed, temperature },
      );
      if (choice.message.content === String(4821 * 9377)) pass++;
    }
    return pass;
  };
  const cold = passes(0), hot = passes(1.5);
  assert.ok(hot < cold, `T=0: ${cold}, T=1.5: ${hot}`);
});

Deno.test("simChat() sim-weak sometimes loops over its working until max_tokens", () => {
  let runaways = 0;
  for (let seed = 0; seed < 600; seed++) {
    const { choice, usage } = ask("sim-weak", "What is 12 + 34?", {
      seed,
      max_tokens: 200,
    });
    if (choice.finish_reason === "length") {
      runaways++;
      assert.equal(usage.completion_tokens, 200);
      assert.match(choice.message.content ?? "", /Wait, let me recompute/);
    }
  }
  assert.ok(runaways > 0 && runaways < 30, `${runaways}/600`);
});

Deno.test("simChat() is unsure, not crashing, on division by zero and huge powers", () => {
  for (
    const q of ["What is 5 / 0?", "What is 0 ^ -2?", "What is 7 ^ 100000?"]
  ) {
    const { choice } = ask("sim-strong", q);
    assert.match(choice.message.content ?? "", /not (sure|certain)/, q);
  }
});
