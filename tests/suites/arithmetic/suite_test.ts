import { SIM_BACKEND } from "../../_score.ts";
import { scoreWith } from "../../_score.ts";
import assert from "node:assert/strict";
import { join } from "node:path";
import OpenAI from "openai";
import {
  freezeQuestions,
  generateArithmetic,
} from "../../../lib/suites/arithmetic/mod.ts";
import { SimProvider } from "../../../lib/providers/sim.ts";
import { arithmeticSuite as suite } from "../../../lib/suites/arithmetic/suite.ts";
import { executeArithmeticTool } from "../../../lib/suites/arithmetic/calculator.ts";
import { getSuite } from "../../../lib/suites/mod.ts";
import type { Completion, Question } from "../../../lib/types.ts";

function completion(text: string, extra: Partial<Completion> = {}): Completion {
  return {
    text,
    reasoning: null,
    finishReason: "stop",
    usage: { promptTokens: 10, completionTokens: 3 },
    latencyMs: 1,
    attempts: 1,
    ...extra,
  };
}

Deno.test("arithmeticSuite is registered as 'arithmetic' with direct as default template", () => {
  assert.equal(getSuite("arithmetic"), suite);
  assert.deepEqual(suite.defaultTemplates, ["direct"]);
  for (
    const id of [
      "direct",
      "cot",
      "fewshot",
      "direct_zh",
      "cot_zh",
      "llmmath",
      "calculator",
    ]
  ) {
    assert.ok(id in suite.templates, id);
  }
});

Deno.test("arithmeticSuite.validateParams() accepts defaults and reports issues with their path", () => {
  assert.deepEqual(suite.validateParams({}), { ok: true });
  assert.deepEqual(suite.validateParams(undefined), { ok: true });
  const bad = suite.validateParams({
    families: ["add", "cube"],
    digits: [0],
    count: -1,
    language: "fr",
    extra: true,
  });
  assert.equal(bad.ok, false);
  if (bad.ok) return;
  const paths = bad.issues.map((i) => JSON.stringify(i.path));
  for (
    const p of [
      '["families",1]',
      '["digits",0]',
      '["count"]',
      '["language"]',
      "[]",
    ]
  ) {
    assert.ok(paths.includes(p), `missing ${p} in ${paths.join(" ")}`);
  }
  const both = suite.validateParams({ preset: "llmmath", dataset: "x.jsonl" });
  assert.equal(both.ok, false);
  if (!both.ok) assert.deepEqual(both.issues[0]?.path, ["dataset"]);
});

Deno.test("arithmeticSuite.questions() is deterministic and matches the generator", async () => {
  const params = {
    families: ["add", "mul"],
    digits: [3],
    count: 4,
    language: "both",
  };
  const a = await suite.questions({ seed: 7, params, baseDir: "." });
  const b = await suite.questions({ seed: 7, params, baseDir: "." });
  assert.deepEqual(a, b);
  assert.deepEqual(
    a,
    generateArithmetic({
      seed: 7,
      families: ["add", "mul"],
      digits: [3],
      count: 4,
      language: "both",
    }),
  );
  assert.equal(a.length, 16);
  await assert.rejects(
    suite.questions({ seed: 7, params: { digits: [99] }, baseDir: "." }),
    (e: unknown) =>
      e instanceof TypeError &&
      /Cannot use arithmetic params: digits\.0/.test(e.message),
  );
});

Deno.test("arithmeticSuite.questions() serves the llmmath preset", async () => {
  const qs = await suite.questions({
    seed: 0,
    params: { preset: "llmmath" },
    baseDir: ".",
  });
  assert.equal(qs.length, 7);
  assert.equal(qs[3]?.answer.value, (12345n * 6789n).toString());
});

Deno.test("arithmeticSuite.questions() loads a frozen dataset relative to baseDir", async () => {
  const dir = await Deno.makeTempDir({ prefix: "arith_suite_" });
  try {
    await Deno.mkdir(join(dir, "data"));
    const frozen = generateArithmetic({
      seed: 1,
      families: ["percent"],
      digits: [3],
      count: 3,
    });
    await freezeQuestions(frozen, join(dir, "data", "set.jsonl"));
    const qs = await suite.questions({
      seed: 99,
      params: { dataset: "data/set.jsonl" },
      baseDir: dir,
    });
    assert.deepEqual(qs, frozen);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("arithmeticSuite tolerance param reaches the judge through the question", async () => {
  const [q] = await suite.questions({
    seed: 1,
    params: {
      families: ["mul"],
      digits: [4],
      count: 1,
      tolerance: { rel: 0.01 },
    },
    baseDir: ".",
  });
  assert.ok(q !== undefined);
  const near = (BigInt(q.answer.value as string) + 1n).toString();
  const c = completion(near);
  assert.equal(
    (await scoreWith(suite, q, c, await suite.extract(q, c))).status,
    "correct",
  );
  const [strict] = await suite.questions({
    seed: 1,
    params: { families: ["mul"], digits: [4], count: 1 },
    baseDir: ".",
  });
  assert.equal(
    (await scoreWith(suite, strict!, c, await suite.extract(strict!, c)))
      .status,
    "wrong",
  );
});

Deno.test("arithmeticSuite.extract() adapts extractNumber to an Extraction", async () => {
  const q = generateArithmetic({
    seed: 1,
    families: ["add"],
    digits: [2],
    count: 1,
  })[0]!;
  assert.deepEqual(await suite.extract(q, completion("Final answer: 1,234")), {
    value: "1234",
    rule: "answer_marker",
    span: [14, 19],
    candidates: 1,
  });
  assert.deepEqual(await suite.extract(q, completion("no idea")), {
    value: null,
    rule: "none",
    span: null,
    candidates: 0,
  });
  const failed = completion("", {
    error: { kind: "timeout", message: "slow" },
  });
  assert.equal((await suite.extract(q, failed)).value, null);
});

Deno.test("arithmeticSuite scores every status", async () => {
  const q = generateArithmetic({
    seed: 1,
    families: ["add"],
    digits: [2],
    count: 1,
  })[0]!;
  const key = q.answer.value as string;
  const wrong = String(Number(key) + 1);
  const run = async (c: Completion) =>
    (await scoreWith(suite, q, c, await suite.extract(q, c))).status;
  assert.equal(await run(completion(key)), "correct");
  assert.equal(await run(completion(wrong)), "wrong");
  assert.equal(
    await run(completion("I'm sorry, I cannot help.")),
    "parse_error",
  );
  // A failed request never reaches the suite (finishRow makes its error
  // row, tests/suites/format_valid_test.ts); a key the judge cannot read
  // is an error.
  const unreadable = { ...q, answer: { kind: "choice" as const, value: "B" } };
  assert.equal(
    (await scoreWith(
      suite,
      unreadable,
      completion(key),
      await suite.extract(q, completion(key)),
    ))
      .status,
    "error",
  );
  assert.equal(
    await run(completion("Let me think: 1", { finishReason: "length" })),
    "truncated",
  );
});

Deno.test("arithmeticSuite.executeTool() evaluates calculator expressions exactly", () => {
  const run = (expression: string) =>
    executeArithmeticTool("calculator", JSON.stringify({ expression }));
  assert.equal(run("987654321 * 123456789"), "121932631112635269");
  assert.equal(run("987654321 × 123456789"), "121932631112635269");
  assert.equal(run("(12 + 7) * 3 - 4"), "53");
  assert.equal(run("100 ÷ 7"), "100/7");
  assert.equal(run("1/3 + 1/6"), "0.5");
  assert.equal(run("15% * 200"), "30");
  assert.equal(run("2^64"), "18446744073709551616");
  assert.equal(run("0.1 + 0.2"), "0.3");
  assert.equal(run("1,234 * 2"), "2468");
  assert.equal(run("-(3 - 10)"), "7");
});

Deno.test("arithmeticSuite.executeTool() refuses unsafe or unsupported input with an error string", () => {
  const run = (expression: string) =>
    executeArithmeticTool("calculator", JSON.stringify({ expression }));
  for (
    const bad of [
      "Deno.exit(1)",
      "sqrt(4)",
      "x = 3",
      "import('x')",
      "1/0",
      "2^0.5",
      "10^1000000",
      "",
      "(1 + 2",
    ]
  ) {
    assert.match(run(bad), /^Error: Cannot evaluate/, bad);
  }
  assert.match(
    executeArithmeticTool("calculator", "{not json"),
    /^Error: Cannot run calculator: arguments are not JSON/,
  );
  assert.match(
    executeArithmeticTool("calculator", '{"expr": "1"}'),
    /^Error: Cannot run calculator: expected/,
  );
  assert.match(
    executeArithmeticTool("shell", "{}"),
    /^Error: Cannot run tool "shell"/,
  );
});

/** A scripted model behind real HTTP: asks the calculator, then answers with its result. */
function startToolModel(): {
  url: string;
  seen: unknown[];
  close: () => Promise<void>;
} {
  const seen: unknown[] = [];
  const server = Deno.serve(
    { hostname: "127.0.0.1", port: 0, onListen() {} },
    async (req) => {
      const body = await req.json() as {
        messages: { role: string; content: string }[];
        tools?: unknown[];
      };
      seen.push(body);
      const last = body.messages[body.messages.length - 1]!;
      const base = {
        id: "cmpl",
        object: "chat.completion",
        created: 0,
        model: "scripted",
        usage: { prompt_tokens: 10, completion_tokens: 5, total_tokens: 15 },
      };
      if (last.role === "tool") {
        return Response.json({
          ...base,
          choices: [{
            index: 0,
            finish_reason: "stop",
            message: { role: "assistant", content: last.content },
          }],
        });
      }
      const expression = /What is (.+)\?/.exec(last.content)?.[1] ?? "0";
      return Response.json({
        ...base,
        choices: [{
          index: 0,
          finish_reason: "tool_calls",
          message: {
            role: "assistant",
            content: null,
            tool_calls: [{
              id: "call_1",
              type: "function",
              function: {
                name: "calculator",
                arguments: JSON.stringify({ expression }),
              },
            }],
          },
        }],
      });
    },
  );
  const { port } = server.addr as Deno.NetAddr;
  return {
    url: `http://127.0.0.1:${port}/v1`,
    seen,
    close: () => server.shutdown(),
  };
}

Deno.test("arithmeticSuite calculator template works through the OpenAI tools API over HTTP", async () => {
  const model = startToolModel();
  try {
    const client = new OpenAI({
      baseURL: model.url,
      apiKey: "test",
      maxRetries: 0,
      timeout: 30_000,
    });
    const template = suite.templates.calculator!;
    const qs = generateArithmetic({
      seed: 3,
      families: ["mul", "expr"],
      digits: [6],
      count: 2,
    });
    for (const q of qs) {
      const messages = template.render(
        q,
      ) as OpenAI.ChatCompletionMessageParam[];
      const first = await client.chat.completions.create({
        model: "scripted",
        messages,
        tools: template.tools as OpenAI.ChatCompletionTool[],
      });
      const call = first.choices[0]?.message.tool_calls?.[0];
      assert.ok(call !== undefined && call.type === "function");
      const result = executeArithmeticTool(
        call.function.name,
        call.function.arguments,
      );
      const second = await client.chat.completions.create({
        model: "scripted",
        messages: [
          ...messages,
          first.choices[0]!.message as OpenAI.ChatCompletionMessageParam,
          { role: "tool", tool_call_id: call.id, content: result },
        ],
      });
      const c = completion(second.choices[0]?.message.content ?? "");
      const verdict = await scoreWith(suite, q, c, await suite.extract(q, c));
      assert.equal(verdict.status, "correct", `${q.text} -> ${result}`);
      assert.equal(verdict.formatValid, true);
    }
    const firstBody = model.seen[0] as {
      tools: { function: { name: string } }[];
    };
    assert.equal(firstBody.tools[0]?.function.name, "calculator");
  } finally {
    await model.close();
  }
});

Deno.test("arithmeticSuite questions are readable by the sim: accuracy falls with digits", async () => {
  const provider = new SimProvider({
    backend: SIM_BACKEND,
    name: "sim-average",
    model: "sim-average",
  });
  const accuracy = async (qs: Question[]): Promise<number> => {
    let correct = 0;
    for (const [i, q] of qs.entries()) {
      const c = await provider.complete({
        templateId: "direct",
        messages: suite.templates.direct!.render(q),
        params: { temperature: 0, max_tokens: 256, seed: i },
      }, { sample: 0 });
      if (
        (await scoreWith(suite, q, c, await suite.extract(q, c))).status ===
          "correct"
      ) {
        correct++;
      }
    }
    return correct / qs.length;
  };
  const easy = await accuracy(
    generateArithmetic({ seed: 1, families: ["add"], digits: [2], count: 30 }),
  );
  const hard = await accuracy(
    generateArithmetic({ seed: 1, families: ["mul"], digits: [7], count: 30 }),
  );
  assert.ok(easy >= 0.8, `2-digit addition accuracy ${easy}`);
  assert.ok(hard < easy, `7x7 products ${hard} vs 2-digit sums ${easy}`);
});
