import assert from "node:assert/strict";
import {
  CHAT_OVERHEAD,
  encodingFor,
  loadTokenizer,
  promptTokens,
} from "../../lib/plan/mod.ts";
import type { Prompt } from "../../lib/types.ts";

Deno.test("loadTokenizer() counts like tiktoken for known strings", async () => {
  const cl100k = await loadTokenizer("cl100k_base");
  const o200k = await loadTokenizer("o200k_base");
  // tiktoken: cl100k_base encodes "tiktoken is great!" as
  // [83, 1609, 5963, 374, 2294, 0]; "hello world" is [15339, 1917] in
  // cl100k_base and [24912, 2375] in o200k_base.
  assert.equal(cl100k.count("tiktoken is great!"), 6);
  assert.equal(cl100k.count("hello world"), 2);
  assert.equal(o200k.count("hello world"), 2);
  assert.equal(cl100k.count(""), 0);
  // The encodings differ on Chinese text (o200k_base has more CJK merges).
  const zh = "计算 123 × 456 等于多少？只输出数字。";
  assert.ok(o200k.count(zh) < cl100k.count(zh));
});

Deno.test("loadTokenizer() counts special-token strings as plain text instead of throwing", async () => {
  const cl100k = await loadTokenizer("cl100k_base");
  assert.ok(cl100k.count("before <|endoftext|> after") > 3);
});

Deno.test("promptTokens() adds OpenAI's chat overhead to the real token counts", async () => {
  const cl100k = await loadTokenizer("cl100k_base");
  const prompt: Prompt = {
    templateId: "t",
    messages: [
      { role: "system", content: "You are a calculator." },
      { role: "user", content: "tiktoken is great!" },
    ],
    params: { temperature: 0, max_tokens: 16, seed: 1 },
  };
  const expected = CHAT_OVERHEAD.replyPriming +
    2 * CHAT_OVERHEAD.perMessage +
    cl100k.count("system") + cl100k.count("You are a calculator.") +
    cl100k.count("user") + 6;
  assert.equal(promptTokens(prompt, cl100k.count), expected);
  // 3 + (3 + 1 + 5) + (3 + 1 + 6) = 22.
  assert.equal(expected, 22);
  const withTools = promptTokens({
    ...prompt,
    tools: [{
      type: "function",
      function: { name: "calculator", description: "d", parameters: {} },
    }],
  }, cl100k.count);
  assert.ok(withTools > expected);
});

Deno.test("encodingFor() maps OpenAI families exactly and others as a stated approximation", () => {
  const pick = (model: string, provider: "openai" | "sim" = "openai") =>
    encodingFor({ name: "label", model, provider });
  for (
    const id of [
      "gpt-4o",
      "gpt-4o-mini",
      "gpt-4.1-nano",
      "gpt-5",
      "o3-mini",
      "o1",
    ]
  ) {
    assert.deepEqual(
      [pick(id).encoding, pick(id).exact],
      ["o200k_base", true],
      id,
    );
  }
  for (const id of ["gpt-4", "gpt-4-turbo", "gpt-3.5-turbo"]) {
    assert.deepEqual([pick(id).encoding, pick(id).exact], [
      "cl100k_base",
      true,
    ]);
  }
  assert.match(
    pick("deepseek-chat").note,
    /approximate: DeepSeek uses its own tokenizer/,
  );
  assert.match(pick("meta-llama/Llama-3.1-8B-Instruct").note, /Llama/);
  assert.match(pick("mistral-large-latest").note, /Mistral/);
  assert.equal(pick("qwen-max").encoding, "cl100k_base");
  assert.match(pick("sim-strong", "sim").note, /approximate: the sim/);
  assert.equal(pick("sim-strong", "sim").exact, false);
});
