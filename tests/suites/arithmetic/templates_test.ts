import assert from "node:assert/strict";
import {
  generateArithmetic,
  llmmathQuestions,
} from "../../../lib/suites/arithmetic/mod.ts";
import {
  ARITHMETIC_TEMPLATES,
  CALCULATOR_TOOL,
} from "../../../lib/suites/arithmetic/mod.ts";
import {
  fewShotTemplate,
  instructionTemplate,
} from "../../../lib/prompting/mod.ts";

const [en] = generateArithmetic({
  seed: 1,
  families: ["add"],
  digits: [4],
  count: 1,
});
const [zh] = generateArithmetic({
  seed: 1,
  families: ["add"],
  digits: [4],
  count: 1,
  language: "zh",
});

Deno.test("ARITHMETIC_TEMPLATES direct asks for only the number after the question", () => {
  const messages = ARITHMETIC_TEMPLATES.direct!.render(en!);
  assert.deepEqual(messages, [{
    role: "user",
    content: `${en!.text}\nOutput only the number.`,
  }]);
});

Deno.test("ARITHMETIC_TEMPLATES cot asks for a 'Final answer:' line", () => {
  const [m] = ARITHMETIC_TEMPLATES.cot!.render(en!);
  assert.match(m!.content, /step by step/);
  assert.match(m!.content, /"Final answer: <number>"/);
});

Deno.test("ARITHMETIC_TEMPLATES Chinese variants use Chinese instructions", () => {
  assert.equal(
    ARITHMETIC_TEMPLATES.direct_zh!.render(zh!)[0]!.content,
    `${zh!.text}\n只输出数字。`,
  );
  assert.equal(
    ARITHMETIC_TEMPLATES.cot_zh!.render(zh!)[0]!.content,
    `${zh!.text}\n请一步一步思考，最后一行写“答案：<数字>”。`,
  );
});

Deno.test("ARITHMETIC_TEMPLATES fewshot puts three worked examples before the question", () => {
  const messages = ARITHMETIC_TEMPLATES.fewshot!.render(en!);
  assert.deepEqual(messages.map((m) => m.role), [
    "user",
    "assistant",
    "user",
    "assistant",
    "user",
    "assistant",
    "user",
  ]);
  for (const m of messages.filter((m) => m.role === "assistant")) {
    assert.match(m.content, /\nFinal answer: \d+$/);
  }
  assert.ok(messages[6]!.content.startsWith(en!.text));
});

Deno.test("ARITHMETIC_TEMPLATES llmmath uses the study's wording without commas", () => {
  const qs = llmmathQuestions();
  assert.equal(
    ARITHMETIC_TEMPLATES.llmmath!.render(qs[2]!)[0]!.content,
    "Calculate 1234 times 5678. Reply without commas.",
  );
  assert.equal(
    ARITHMETIC_TEMPLATES.llmmath!.render(qs[6]!)[0]!.content,
    "Calculate 987654321 times 123456789. Reply without commas.",
  );
});

Deno.test("ARITHMETIC_TEMPLATES calculator offers the calculator tool with a direct prompt", () => {
  const t = ARITHMETIC_TEMPLATES.calculator!;
  assert.deepEqual(t.tools, [CALCULATOR_TOOL]);
  assert.equal(
    t.render(en!)[0]!.content,
    ARITHMETIC_TEMPLATES.direct!.render(en!)[0]!.content,
  );
  const params = CALCULATOR_TOOL.function.parameters as { required: string[] };
  assert.deepEqual(params.required, ["expression"]);
  for (const [id, template] of Object.entries(ARITHMETIC_TEMPLATES)) {
    assert.equal(template.id, id);
    if (id !== "calculator") assert.equal(template.tools, undefined, id);
  }
});

Deno.test("instructionTemplate() adds an optional system message and custom text", () => {
  const t = instructionTemplate({
    id: "x",
    description: "d",
    instruction: "Be brief.",
    system: "You are a calculator.",
    text: (q) => q.text.toUpperCase(),
  });
  assert.deepEqual(t.render(en!), [
    { role: "system", content: "You are a calculator." },
    { role: "user", content: `${en!.text.toUpperCase()}\nBe brief.` },
  ]);
});

Deno.test("fewShotTemplate() applies the instruction to examples and the question", () => {
  const t = fewShotTemplate({
    id: "fs",
    description: "d",
    instruction: "Number only.",
    examples: [{ question: "1 + 1?", answer: "2" }],
  });
  const m = t.render(en!);
  assert.equal(m[0]!.content, "1 + 1?\nNumber only.");
  assert.equal(m[2]!.content, `${en!.text}\nNumber only.`);
});
