import { SIM_BACKEND } from "../../_score.ts";
import { scoreWith } from "../../_score.ts";
import assert from "node:assert/strict";
import { join, resolve } from "node:path";
import OpenAI from "openai";
import { startSimServer } from "../../../lib/mod.ts";
import { SimProvider } from "../../../lib/providers/sim.ts";
import { cevalSuite as suite } from "../../../lib/suites/ceval/suite.ts";
import type { CevalQuestion } from "../../../lib/suites/ceval/templates.ts";
import { getSuite, listSuites } from "../../../lib/suites/mod.ts";
import type { ChatMessage, Completion, Question } from "../../../lib/types.ts";

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

function payloadOf(q: Question) {
  return q.payload as {
    item: { question: string; answer: string | null };
    subjectZh: string;
    dev: { question: string; answer: string }[];
  };
}

Deno.test("cevalSuite is registered as 'ceval' with every prompt mode in two forms", () => {
  assert.ok(listSuites().includes("ceval"));
  assert.equal(getSuite("ceval"), suite);
  assert.deepEqual(Object.keys(suite.templates).sort(), [
    "answer_only",
    "answer_only_completion",
    "cot",
    "cot_completion",
    "few_shot",
    "few_shot_completion",
    "few_shot_cot",
    "few_shot_cot_completion",
    "zero_shot",
    "zero_shot_completion",
  ]);
  for (const id of suite.defaultTemplates) assert.ok(id in suite.templates);
});

Deno.test("cevalSuite.validateParams() accepts defaults and reports issues with their path", () => {
  assert.deepEqual(suite.validateParams({}), { ok: true });
  assert.deepEqual(
    suite.validateParams({ subjects: "hard", shots: 0, split: "test" }),
    { ok: true },
  );
  const bad = suite.validateParams({
    shots: 6,
    split: "train",
    subjects: ["logic", "astrology"],
    extra: 1,
  });
  assert.equal(bad.ok, false);
  if (bad.ok) return;
  const paths = bad.issues.map((i) => i.path.join("."));
  assert.ok(paths.includes("shots"), paths.join(" "));
  assert.ok(paths.includes("split"), paths.join(" "));
  const subject = bad.issues.find((i) => i.path.join(".") === "subjects.1");
  assert.match(subject?.message ?? "", /unknown C-Eval subject "astrology"/);
  assert.ok(
    bad.issues.some((i) => /unrecognized|extra/i.test(i.message)),
    JSON.stringify(bad.issues),
  );
});

Deno.test("cevalSuite.questions() carries subject dims, stable ids and a choice key", async () => {
  const qs = await suite.questions({ seed: 0, params: {}, baseDir: "." });
  const again = await suite.questions({ seed: 99, params: {}, baseDir: "." });
  assert.deepEqual(qs.map((q) => q.id), again.map((q) => q.id));
  assert.equal(new Set(qs.map((q) => q.id)).size, qs.length);
  for (const q of qs) {
    assert.equal(q.suite, "ceval");
    assert.equal(q.answer.kind, "choice");
    assert.match(String(q.answer.value), /^[ABCD]$/);
    assert.deepEqual(Object.keys(q.dims).sort(), [
      "category",
      "hard",
      "level",
      "split",
      "subject",
      "subject_zh",
    ]);
    assert.match(q.text, /\nA\. .+\nB\. .+\nC\. .+\nD\. .+$/);
  }
  const hard = qs.filter((q) => q.dims.hard === true).map((q) =>
    q.dims.subject
  );
  assert.deepEqual(
    [...new Set(hard)].sort(),
    ["advanced_mathematics", "high_school_mathematics"],
  );
});

Deno.test("cevalSuite.questions() attaches the first N dev examples in official order", async () => {
  const [q] = await suite.questions({
    seed: 0,
    params: { subjects: ["middle_school_history"], shots: 3 },
    baseDir: ".",
  });
  const dev = payloadOf(q!).dev;
  assert.equal(dev.length, 3);
  assert.match(dev[0]!.question, /秦朝统一六国/);
  assert.match(dev[2]!.question, /郑和/);
  const [own] = await suite.questions({
    seed: 0,
    params: { subjects: ["middle_school_history"], split: "dev", shots: 5 },
    baseDir: ".",
  });
  const ownDev = payloadOf(own!).dev;
  assert.equal(ownDev.length, 4);
  assert.ok(ownDev.every((d) => d.question !== payloadOf(own!).item.question));
});

Deno.test("cevalSuite.questions() resolves root against baseDir and honours hard and limit", async () => {
  const qs = await suite.questions({
    seed: 0,
    params: { root: "../ceval", subjects: "hard", limit: 2 },
    baseDir: resolve("data/configs"),
  });
  assert.equal(qs.length, 4);
  assert.ok(qs.every((q) => q.dims.hard === true));
});

Deno.test("cevalSuite.questions() marks withheld test answers as unknown and the judge leaves them unscored", async () => {
  const qs = await suite.questions({
    seed: 0,
    params: { split: "test", shots: 0 },
    baseDir: ".",
  });
  const unknown = qs.filter((q) => q.answer.value === "");
  const known = qs.filter((q) => q.answer.value !== "");
  assert.ok(unknown.length > 0 && known.length > 0);
  const c = completion("答案：B");
  const v = await scoreWith(
    suite,
    unknown[0]!,
    c,
    await suite.extract(unknown[0]!, c),
  );
  assert.equal(v.status, "unscored");
  assert.notEqual(v.status, "wrong");
});

Deno.test("cevalSuite templates render the official chat and completion forms", async () => {
  const [q] = await suite.questions({
    seed: 0,
    params: { subjects: ["civil_servant"], shots: 5 },
    baseDir: ".",
  });
  const roles = (id: string) =>
    suite.templates[id]!.render(q!).map((m: ChatMessage) => m.role);
  assert.deepEqual(roles("zero_shot"), ["system", "user"]);
  assert.deepEqual(roles("few_shot"), [
    "system",
    ...Array(5).fill(["user", "assistant"]).flat(),
    "user",
  ]);
  const fewShot = suite.templates.few_shot!.render(q!);
  assert.equal(fewShot[2]!.content, "B");
  assert.match(fewShot[0]!.content, /以下是中国关于公务员考试的单项选择题/);
  const cot = suite.templates.few_shot_cot!.render(q!);
  assert.match(
    cot[2]!.content,
    /^让我们一步一步思考，\n1\. [\s\S]*所以答案是B。$/,
  );
  for (const id of Object.keys(suite.templates)) {
    const messages = suite.templates[id]!.render(q!);
    if (id.endsWith("_completion")) {
      assert.equal(messages.length, 1, id);
      assert.match(messages[0]!.content, /^以下是中国关于公务员考试/);
    }
    assert.ok(messages.at(-1)!.content.includes(payloadOf(q!).item.question));
  }
  const text = suite.templates.few_shot_cot_completion!.render(q!)[0]!.content;
  assert.ok(text.endsWith("答案：让我们一步一步思考，"));
  assert.equal(text.match(/所以答案是[ABCD]。/g)?.length, 5);
});

Deno.test("cevalSuite.extract() adapts extractChoice to an Extraction", async () => {
  const q = { text: "" } as CevalQuestion;
  assert.deepEqual(
    await suite.extract(q, completion("A 明显错误。所以答案是D。")),
    { value: "D", rule: "answer_is_zh", span: [12, 13], candidates: 1 },
  );
  assert.equal((await suite.extract(q, completion("我不知道"))).value, null);
  assert.equal(
    (await suite.extract(
      q,
      completion("", { error: { kind: "server", message: "500" } }),
    )).rule,
    "none",
  );
});

Deno.test("cevalSuite questions are readable by the sim in every template; extraction never fails for sim-strong", async () => {
  const provider = new SimProvider({
    backend: SIM_BACKEND,
    name: "sim-strong",
    model: "sim-strong",
  });
  const qs = await suite.questions({ seed: 0, params: {}, baseDir: "." });
  for (const id of Object.keys(suite.templates)) {
    let parsed = 0;
    for (const [i, q] of qs.entries()) {
      const c = await provider.complete({
        templateId: id,
        messages: suite.templates[id]!.render(q),
        params: { temperature: 0, max_tokens: 1024, seed: i },
      }, { sample: 0 });
      if ((await suite.extract(q, c)).value !== null) parsed++;
    }
    assert.equal(parsed, qs.length, id);
  }
});

Deno.test("cevalSuite gives the same verdicts in process and over HTTP with the real openai client", async () => {
  const server = await startSimServer({ seed: 1 });
  try {
    const client = new OpenAI({
      baseURL: server.baseURL,
      apiKey: "test",
      maxRetries: 0,
      timeout: 30_000,
    });
    const provider = new SimProvider({
      backend: SIM_BACKEND,
      name: "sim-chatty",
      model: "sim-chatty",
    });
    const qs = await suite.questions({
      seed: 0,
      params: { subjects: ["civil_servant", "high_school_geography"] },
      baseDir: ".",
    });
    for (const id of ["zero_shot", "few_shot_cot"]) {
      for (const [i, q] of qs.entries()) {
        const messages = suite.templates[id]!.render(q);
        const local = await provider.complete({
          templateId: id,
          messages,
          params: { temperature: 0, max_tokens: 512, seed: i },
        }, { sample: 0 });
        const remote = await client.chat.completions.create({
          model: "sim-chatty",
          messages: messages as OpenAI.ChatCompletionMessageParam[],
          temperature: 0,
          max_tokens: 512,
          seed: i,
        });
        const text = remote.choices[0]?.message.content ?? "";
        assert.equal(text, local.text, `${id} ${q.id}`);
        const a = await scoreWith(
          suite,
          q,
          local,
          await suite.extract(q, local),
        );
        const c = completion(text);
        assert.equal(
          (await scoreWith(suite, q, c, await suite.extract(q, c))).status,
          a.status,
        );
      }
    }
  } finally {
    await server.close();
  }
});

Deno.test("cevalSuite sim accuracy is high on computable questions and near chance on knowledge questions", async () => {
  const provider = new SimProvider({
    backend: SIM_BACKEND,
    name: "sim-average",
    model: "sim-average",
  });
  const qs = await suite.questions({ seed: 0, params: {}, baseDir: "." });
  const computable = (q: Question) =>
    /^(计算|数列|方程)|处的导数值|的行列式/.test(payloadOf(q).item.question);
  const tally = { computable: [0, 0], knowledge: [0, 0] };
  for (const [i, q] of qs.entries()) {
    for (const sample of [0, 1, 2, 3]) {
      const c = await provider.complete({
        templateId: "few_shot",
        messages: suite.templates.few_shot!.render(q),
        params: { temperature: 0.7, max_tokens: 256, seed: 1000 * sample + i },
      }, { sample });
      const ok =
        (await scoreWith(suite, q, c, await suite.extract(q, c))).status ===
          "correct";
      const t = tally[computable(q) ? "computable" : "knowledge"];
      t[0]!++;
      if (ok) t[1]!++;
    }
  }
  const rate = ([n, k]: number[]) => k! / n!;
  assert.ok(tally.computable[0]! >= 40, JSON.stringify(tally));
  assert.ok(rate(tally.computable) >= 0.8, JSON.stringify(tally));
  assert.ok(rate(tally.knowledge) < 0.6, JSON.stringify(tally));
});

Deno.test("cevalSuite config file data/configs/ceval.json validates against the suite", async () => {
  const config = JSON.parse(
    await Deno.readTextFile(join("data", "configs", "ceval.json")),
  );
  const entry = config.suites.find((s: { name: string }) => s.name === "ceval");
  assert.deepEqual(suite.validateParams(entry.params), { ok: true });
  for (const id of entry.templates) assert.ok(id in suite.templates, id);
});

Deno.test("cevalSuite keeps the key out of the payload templates render", async () => {
  const qs = await suite.questions({ seed: 0, params: {}, baseDir: "." });
  for (const q of qs) {
    assert.equal(payloadOf(q).item.answer, null);
    for (const id of ["zero_shot", "answer_only_completion"]) {
      const text = suite.templates[id]!.render(q).map((m) => m.content).join(
        "\n",
      );
      assert.ok(!/答案[：:]\s*[ABCD]|所以答案是/.test(text), `${id} ${q.id}`);
    }
  }
});
