import assert from "node:assert/strict";
import { noExtraction, suiteExtract } from "../../lib/extract/mod.ts";
import type { Completion } from "../../lib/types.ts";

const reply = (text: string): Completion => ({
  text,
  reasoning: null,
  finishReason: "stop",
  usage: { promptTokens: 1, completionTokens: 1 },
  latencyMs: 1,
  attempts: 1,
});

Deno.test("suiteExtract() keeps the finder's value, rule, span and candidate count, and nothing else", () => {
  const extract = suiteExtract((text) => ({
    value: text.trim(),
    rule: "all",
    span: [0, text.length],
    candidates: ["x", "y", "z"],
    extra: "dropped",
  }));
  assert.deepEqual(extract({}, reply("42 ")), {
    value: "42",
    rule: "all",
    span: [0, 3],
    candidates: 3,
  });
  const counted = suiteExtract(() => ({
    value: null,
    rule: "none_found",
    span: null,
    candidates: 0,
  }));
  assert.deepEqual(counted({}, reply("x")), {
    value: null,
    rule: "none_found",
    span: null,
    candidates: 0,
  });
});

Deno.test("suiteExtract() does not search a failed completion, and a finder's null is noExtraction()", () => {
  let asked = 0;
  const extract = suiteExtract<{ id: string }>(
    (_text, question, completion) => {
      asked++;
      assert.equal(question.id, "q");
      assert.equal(completion.text, "nothing");
      return null;
    },
  );
  assert.deepEqual(extract({ id: "q" }, reply("nothing")), noExtraction());
  assert.equal(asked, 1);
  const failed: Completion = {
    ...reply(""),
    finishReason: "error",
    error: { kind: "timeout", message: "timed out" },
  };
  assert.deepEqual(extract({ id: "q" }, failed), noExtraction());
  assert.equal(asked, 1);
  assert.notEqual(noExtraction(), noExtraction());
});
