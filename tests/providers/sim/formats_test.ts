import assert from "node:assert/strict";
import { simChat } from "../../_score.ts";
import { ask, type Choice } from "./_helpers.ts";

const SEEDS = Array.from({ length: 30 }, (_, i) => i);

function contents(model: string, prompt: string): string[] {
  return SEEDS.map((seed) =>
    ask(model, prompt, { seed }).choice.message.content ?? ""
  );
}

Deno.test("simChat() sim-strong gives a bare number when asked for only the number", () => {
  for (
    const text of contents(
      "sim-strong",
      "What is 4821 + 9377? Output only the number.",
    )
  ) {
    assert.equal(text, "14198");
  }
});

Deno.test("simChat() sim-strong writes working and a Final answer line for CoT prompts", () => {
  const { choice } = ask(
    "sim-strong",
    "Compute (12 + 7) × 3 − 4. Think step by step, then write 'Final answer: <number>'.",
  );
  const lines = (choice.message.content ?? "").split("\n");
  assert.ok(lines.length >= 3, choice.message.content ?? "");
  assert.equal(lines.at(-1), "Final answer: 53");
  assert.ok(lines.some((l) => l.includes("12 + 7 = 19")));
});

Deno.test("simChat() answers in Chinese CoT with 答案：", () => {
  const { choice } = ask("sim-strong", "请一步一步计算 (8 + 2) × 7。");
  assert.equal((choice.message.content ?? "").split("\n").at(-1), "答案：70");
});

Deno.test("simChat() boxes the answer when \\boxed{} is requested", () => {
  const { choice } = ask(
    "sim-strong",
    "What is 15% of 200? Put your final answer within \\boxed{}.",
  );
  assert.match(choice.message.content ?? "", /\\boxed\{30\}/);
});

Deno.test("simChat() follows the style of few-shot examples", () => {
  const reply = simChat({
    model: "sim-strong",
    messages: [
      { role: "user", content: "What is 2 + 2?" },
      { role: "assistant", content: "Result: 4 (done)" },
      { role: "user", content: "What is 40 + 2?" },
    ],
    temperature: 0,
    seed: 0,
  });
  assert.equal(
    (reply.response.choices as Choice[])[0]!.message.content,
    "Result: 42 (done)",
  );
});

Deno.test("simChat() sim-chatty wraps answers in prose, bold and thousands separators", () => {
  const texts = contents("sim-chatty", "What is 123456 + 654321?");
  assert.ok(texts.some((t) => t.includes("**")), "no bold");
  assert.ok(texts.some((t) => t.includes("777,777")), "no separators");
  assert.ok(texts.every((t) => /\s/.test(t)), "a bare answer");
  // It still gives the right number most of the time.
  const right = texts.filter((t) => t.replace(/,/g, "").includes("777777"));
  assert.ok(right.length >= 25, `${right.length}/30`);
});

Deno.test("simChat() sim-chatty sometimes ignores 'only the number'", () => {
  const texts = contents(
    "sim-chatty",
    "What is 1234 + 4321? Output only the number.",
  );
  const bare = texts.filter((t) => t === "5555").length;
  assert.ok(bare > 5 && bare < 30, `${bare}/30 bare`);
});

Deno.test("simChat() sim-chatty answers Chinese prompts with Chinese sentences", () => {
  const texts = contents("sim-chatty", "计算 1234 加 4321 等于多少？");
  assert.ok(
    texts.some((t) => /答案是|结果是/.test(t) && /。/.test(t)),
    texts.join(" | "),
  );
});

Deno.test("simChat() sim-reasoner keeps step-by-step work in reasoning_content", () => {
  const { choice, usage } = ask(
    "sim-reasoner",
    "Calculate 1234 times 5678. Reply without commas.",
  );
  const reasoning = choice.message.reasoning_content ?? "";
  assert.ok(reasoning.includes("1234 × 8 = 9872"), reasoning);
  assert.ok(!(choice.message.content ?? "").includes("<think>"));
  const plain = ask(
    "sim-strong",
    "Calculate 1234 times 5678. Reply without commas.",
  );
  assert.ok(usage.completion_tokens > 4 * plain.usage.completion_tokens);
});

Deno.test("simChat() sim-think writes a <think> block before the answer", () => {
  const { choice } = ask(
    "sim-think",
    "What is 56 * 78? Output only the number.",
  );
  const content = choice.message.content ?? "";
  assert.match(content, /^<think>\n[\s\S]+\n<\/think>\n\n/);
  assert.equal(choice.message.reasoning_content, undefined);
  assert.match(content.split("</think>")[1]!.trim(), /^-?\d+$/);
});

Deno.test("simChat() sim-weak refuses some large problems", () => {
  const texts = SEEDS.concat(SEEDS.map((s) => s + 100)).map((seed) =>
    ask("sim-weak", "What is 98765432 * 12345678?", { seed }).choice.message
      .content ?? ""
  );
  assert.ok(
    texts.some((t) => /can't compute/.test(t)),
    "no refusal in 60 samples",
  );
});

Deno.test("simChat() reads words, separators, decimals and percentages", () => {
  const cases: [string, string][] = [
    ["What is 12 multiplied by 11? Output only the number.", "132"],
    ["What is 1,234,567 plus 1? Output only the number.", "1234568"],
    ["What is 2.5 * 4.2? Output only the number.", "10.5"],
    ["80 is what percent of 320? Output only the number.", "25"],
    ["What is the percent change from 50 to 65? Output only the number.", "30"],
    ["What is 1/3 + 1/6? Output only the number.", "1/2"],
    [
      "What is 22 divided by 7? Round to 2 decimal places. Output only the number.",
      "3.14",
    ],
    ["What is 7 minus 19? Output only the number.", "-12"],
    [
      "A pen costs $3. Sam buys 4 pens and pays with $20. How much change does he get? Output only the number.",
      "8",
    ],
    [
      "A price goes from 58 to 13.34. What is the percent change? Output only the number.",
      "-77",
    ],
    ["价格从 58 变为 13.34，变化的百分比是多少？只输出数字。", "-77"],
    ["3346 的 4% 是多少？只输出数字。", "133.84"],
    [
      "Write the ratio 3816 : 8109 as a fraction in lowest terms. Output only the number.",
      "8/17",
    ],
    [
      "What is (10/12) ÷ (5/24)? Give the answer as a fraction in lowest terms. Output only the number.",
      "4",
    ],
    [
      "A train moves at 66 km/h for 2 hours. How many km does it travel? Output only the number.",
      "132",
    ],
    [
      "一辆骑车人匀速行驶，9 小时行了 6480 千米。它的速度是每小时多少千米？只输出数字。",
      "720",
    ],
    [
      "A warehouse holds 640 boxes. It ships out 10 boxes and receives 93 boxes. How many boxes does it hold now? Output only the number.",
      "723",
    ],
    [
      "仓库里有 640 箱货，运出 10 箱，又运进 93 箱。现在仓库里有多少箱？只输出数字。",
      "723",
    ],
    [
      "Mia buys 3 pens at 4 yuan each and pays with 20 yuan. How much change, in yuan, does Mia get? Output only the number.",
      "8",
    ],
    [
      "小明买了 3 个苹果，每个 4 元，付了 20 元。应找回多少元？只输出数字。",
      "8",
    ],
    [
      "5 kg of rice cost 45 yuan. What is the price per kg, in yuan? Output only the number.",
      "9",
    ],
    [
      "A jacket costs 200 yuan and is on sale at 15% off. What is the sale price, in yuan? Output only the number.",
      "170",
    ],
    ["What is 2 to the power of 10? Output only the number.", "1024"],
    ["计算 2 的 10 次方。只输出数字。", "1024"],
  ];
  for (const [prompt, expected] of cases) {
    // The reading is under test, not format compliance: take the last number.
    const content = ask("sim-strong", prompt).choice.message.content ?? "";
    const numbers = content.replace(/,/g, "").match(
      /-?\d+(?:\.\d+)?(?:\/\d+)?/g,
    );
    assert.equal(numbers?.at(-1), expected, `${prompt} → ${content}`);
  }
});

Deno.test("simChat() answers in JSON when a JSON answer object is requested", () => {
  const { choice } = ask(
    "sim-strong",
    'What is 6 * 7? Respond in JSON like {"answer": <number>}.',
  );
  assert.deepEqual(JSON.parse(choice.message.content ?? ""), { answer: 42 });
});

Deno.test("simChat() shows one working line per operation under CoT", () => {
  const { choice } = ask(
    "sim-strong",
    "Let's think step by step: what is 2 + 3 * 4 - 5? End with 'Answer: <n>'.",
  );
  const lines = (choice.message.content ?? "").split("\n");
  assert.deepEqual(lines.slice(1), [
    "3 × 4 = 12",
    "2 + 12 = 14",
    "14 - 5 = 9",
    "Answer: 9",
  ]);
});

Deno.test("simChat() reads a Chinese unit-price question", () => {
  const content =
    ask("sim-strong", "5 千克大米共 45 元，每千克多少元？只输出数字。").choice
      .message.content ?? "";
  assert.equal(content.match(/\d+/g)?.at(-1), "9");
});

Deno.test("simChat() copies worked few-shot examples: inline working, then the marker", () => {
  const reply = simChat({
    model: "sim-strong",
    messages: [
      { role: "user", content: "What is 23 × 14?" },
      {
        role: "assistant",
        content:
          "23 × 4 = 92. 23 × 10 = 230. 92 + 230 = 322.\nFinal answer: 322",
      },
      { role: "user", content: "What is (12 + 7) × 3?" },
    ],
    temperature: 0,
    seed: 0,
  });
  assert.equal(
    (reply.response.choices as Choice[])[0]!.message.content,
    "12 + 7 = 19. 19 × 3 = 57.\nFinal answer: 57",
  );
});

Deno.test("simChat() answers the last expression of a message with inline examples", () => {
  const content = ask(
    "sim-strong",
    "Examples: 2 + 3 * 4 = 14; 5 - 1 = 4.\nNow: what is 30 + 12? Output only the number.",
  ).choice.message.content ?? "";
  assert.equal(content.match(/\d+/g)?.at(-1), "42");
});
