import assert from "node:assert/strict";
import {
  errorCompletion,
  toCompletion,
} from "../../lib/providers/completion.ts";

const meta = { latencyMs: 7, attempts: 2 };

function chat(
  message: Record<string, unknown>,
  finish: string | null = "stop",
) {
  return {
    id: "chatcmpl-1",
    object: "chat.completion",
    choices: [{
      index: 0,
      finish_reason: finish,
      message: { role: "assistant", ...message },
    }],
    usage: { prompt_tokens: 11, completion_tokens: 5, total_tokens: 16 },
  };
}

Deno.test("toCompletion() splits a leading <think> block from the answer", () => {
  const completion = toCompletion(
    chat({ content: "  <think>\n7*6 = 42\n</think>\n\n42" }),
    meta,
  );
  assert.equal(completion.text, "42");
  assert.equal(completion.reasoning, "7*6 = 42");
  assert.equal(completion.finishReason, "stop");
  assert.deepEqual(completion.usage, { promptTokens: 11, completionTokens: 5 });
  assert.equal(completion.latencyMs, 7);
  assert.equal(completion.attempts, 2);
});

Deno.test("toCompletion() treats an unclosed <think> (truncated) as all reasoning", () => {
  const completion = toCompletion(
    chat({ content: "<think>first 12*13 = 156, then carry the" }, "length"),
    meta,
  );
  assert.equal(completion.text, "");
  assert.equal(completion.reasoning, "first 12*13 = 156, then carry the");
  assert.equal(completion.finishReason, "length");
});

Deno.test("toCompletion() keeps a <think> that is not at the start as answer text", () => {
  const content = "The answer is 5. <think>not reasoning</think>";
  const completion = toCompletion(chat({ content }), meta);
  assert.equal(completion.text, content);
  assert.equal(completion.reasoning, null);
});

Deno.test("toCompletion() reads reasoning_content (DeepSeek/Qwen/vLLM)", () => {
  const completion = toCompletion(
    chat({ content: "156", reasoning_content: "12*13 = 120 + 36 = 156" }),
    meta,
  );
  assert.equal(completion.text, "156");
  assert.equal(completion.reasoning, "12*13 = 120 + 36 = 156");
});

Deno.test("toCompletion() reads the reasoning field (Ollama/OpenRouter)", () => {
  const completion = toCompletion(
    chat({ content: "9", reasoning: "3 squared" }),
    meta,
  );
  assert.equal(completion.text, "9");
  assert.equal(completion.reasoning, "3 squared");
});

Deno.test("toCompletion() joins a reasoning field and a <think> block", () => {
  const completion = toCompletion(
    chat({ content: "<think>b</think>ans", reasoning_content: "a" }),
    meta,
  );
  assert.equal(completion.text, "ans");
  assert.equal(completion.reasoning, "a\n\nb");
});

Deno.test("toCompletion() records tool calls and a null content as empty text", () => {
  const toolCall = {
    id: "call_1",
    type: "function",
    function: { name: "calculator", arguments: '{"expression":"2+2"}' },
  };
  const completion = toCompletion(
    chat({ content: null, tool_calls: [toolCall] }, "tool_calls"),
    meta,
  );
  assert.equal(completion.text, "");
  assert.equal(completion.finishReason, "tool_calls");
  assert.deepEqual(completion.toolCalls, [toolCall]);
  assert.equal(completion.error, undefined);
});

Deno.test("toCompletion() returns bad_response for a body that is not a chat completion", () => {
  for (
    const json of [undefined, null, "text", { choices: [] }, {
      error: { message: "x" },
    }]
  ) {
    const completion = toCompletion(json, meta);
    assert.equal(completion.error?.kind, "bad_response", JSON.stringify(json));
    assert.match(
      completion.error?.message ?? "",
      /^Cannot read chat completion/,
    );
    assert.equal(completion.text, "");
    assert.equal(completion.finishReason, "error");
  }
});

Deno.test("toCompletion() defaults missing usage to zero tokens", () => {
  const completion = toCompletion({
    choices: [{ finish_reason: "stop", message: { content: "1" } }],
  }, meta);
  assert.deepEqual(completion.usage, { promptTokens: 0, completionTokens: 0 });
  assert.equal(completion.text, "1");
});

Deno.test("errorCompletion() carries the error and empty text", () => {
  const completion = errorCompletion(meta, {
    kind: "timeout",
    message: "Cannot complete: timed out",
  });
  assert.equal(completion.text, "");
  assert.equal(completion.error?.kind, "timeout");
  assert.equal(completion.attempts, 2);
});
