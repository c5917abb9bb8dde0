import { judgeLinalg } from "../../../lib/suites/linalg/score.ts";
import assert from "node:assert/strict";
import {
  ABANDONMENT_LABELS,
  EXECUTION_LABELS,
} from "../../../lib/suites/linalg/mod.ts";
import { simChat } from "../../_score.ts";
import { linalgDifficulty } from "../../../lib/suites/linalg/sim/skill.ts";
import { linalgSuite } from "../../../lib/suites/linalg/suite.ts";
import type { LinalgQuestion } from "../../../lib/suites/linalg/tasks.ts";
import type { Completion, Question } from "../../../lib/types.ts";

const paper = linalgSuite.templates.paper!;

function run(model: string, q: Question, seed = 0): Completion {
  const messages = paper.render(q);
  const reply = simChat({
    model,
    messages,
    temperature: 0,
    seed,
    max_tokens: 4096,
  });
  const choice = (reply.response.choices as {
    message: { content: string };
    finish_reason: string;
  }[])[0]!;
  return {
    text: choice.message.content ?? "",
    reasoning: null,
    finishReason: choice.finish_reason,
    usage: { promptTokens: 0, completionTokens: 0 },
    latencyMs: 0,
    attempts: 1,
  };
}

async function generated(
  tasks: string[],
  sizes: number[],
  count: number,
  formats = ["latex"],
) {
  return await linalgSuite.questions({
    seed: 11,
    params: { source: "generated", tasks, sizes, count, formats },
    baseDir: ".",
  });
}

async function accuracy(
  model: string,
  qs: LinalgQuestion[],
): Promise<number> {
  let right = 0;
  for (const q of qs) {
    const c = run(model, q);
    right += judgeLinalg({
      question: q,
      completion: c,
      extraction: await linalgSuite.extract(q, c),
    }).score;
  }
  return right / qs.length;
}

Deno.test("linalg skill reads the matrix from the prompt in all three formats and boxes the answer", async () => {
  const qs = await generated(["trace", "transpose"], [3], 3, [
    "latex",
    "list",
    "table",
  ]);
  for (const q of qs) {
    const c = run("sim-strong", q);
    assert.match(c.text, /\\boxed\{/);
    const e = await linalgSuite.extract(q, c);
    assert.equal(
      judgeLinalg({ question: q, completion: c, extraction: e }).status,
      "correct",
      `${q.id}: ${c.text}`,
    );
  }
});

Deno.test("linalg skill answers from the prompt only: a changed matrix changes the answer", async () => {
  const [q] = await generated(["trace"], [3], 1);
  const altered = {
    ...q!,
    text: q!.text.replace(
      /\\begin\{bmatrix\} (-?\d+)/,
      (_m, v) => `\\begin{bmatrix} ${Number(v) + 10}`,
    ),
  };
  const a = (await linalgSuite.extract(q!, run("sim-strong", q!))).value;
  const b =
    (await linalgSuite.extract(altered, run("sim-strong", altered))).value;
  assert.equal(Number(b) - Number(a), 10);
});

Deno.test("linalg skill is deterministic for the same request and seed", async () => {
  const [q] = await generated(["determinant"], [5], 1);
  assert.equal(run("sim-average", q!, 3).text, run("sim-average", q!, 3).text);
});

Deno.test("linalg skill reproduces the paper's determinant tiers on LinAlg-Bench (3×3 vs 5×5)", async () => {
  const load = async (n: number) =>
    await linalgSuite.questions({
      seed: 0,
      params: { tasks: ["determinant"], sizes: [n] },
      baseDir: ".",
    });
  const [d3, d5] = [await load(3), await load(5)];
  assert.equal(d3.length, 50);
  assert.ok(await accuracy("sim-strong", d3) >= 0.9);
  assert.ok(await accuracy("sim-average", d3) >= 0.9);
  const strong5 = await accuracy("sim-strong", d5),
    avg5 = await accuracy("sim-average", d5),
    weak5 = await accuracy("sim-weak", d5);
  assert.ok(strong5 >= 0.66, `strong 5×5 ${strong5}`);
  assert.ok(avg5 >= 0.28 && avg5 <= 0.62, `average 5×5 ${avg5}`);
  assert.ok(weak5 <= 0.2, `weak 5×5 ${weak5}`);
});

Deno.test("linalg skill fails 5×5 eigenvalues for every profile", async () => {
  const qs = await linalgSuite.questions({
    seed: 0,
    params: { tasks: ["eigenvalue"], sizes: [5] },
    baseDir: ".",
  });
  for (
    const model of ["sim-strong", "sim-reasoner", "sim-average", "sim-weak"]
  ) {
    assert.ok(await accuracy(model, qs) <= 0.15, model);
  }
});

Deno.test("linalg skill errors change kind with size: execution on 3×3, abandonment from 5×5", async () => {
  const count = (labels: string[], set: readonly string[]) =>
    labels.filter((l) => set.includes(l)).length;
  const labelsAt = async (n: number) => {
    const qs = await generated(
      ["determinant", "eigenvalue", "multiplication"],
      [n],
      30,
    );
    const labels: string[] = [];
    for (const q of qs) {
      for (const model of ["sim-weak", "sim-average"]) {
        const c = run(model, q);
        const v = judgeLinalg({
          question: q,
          completion: c,
          extraction: await linalgSuite.extract(q, c),
        });
        if (v.errorClass) labels.push(v.errorClass);
      }
    }
    return labels;
  };
  const small = await labelsAt(3), large = await labelsAt(6);
  assert.ok(
    count(small, EXECUTION_LABELS) > count(small, ABANDONMENT_LABELS),
    JSON.stringify(small),
  );
  assert.ok(
    count(large, ABANDONMENT_LABELS) > count(large, EXECUTION_LABELS),
    JSON.stringify(large),
  );
  assert.ok(
    large.includes("hallucination") && large.includes("constraint_fabrication"),
  );
});

Deno.test("linalgDifficulty() grows with size for every task", () => {
  for (
    const task of [
      "trace",
      "determinant",
      "eigenvalue",
      "multiplication",
    ] as const
  ) {
    assert.ok(linalgDifficulty(task, 5) > linalgDifficulty(task, 3), task);
  }
});

Deno.test("linalg skill understands every published LinAlg-Bench wording (original template)", async () => {
  const qs = await linalgSuite.questions({ seed: 0, params: {}, baseDir: "." });
  const original = linalgSuite.templates.original!;
  let answered = 0, right = 0;
  for (const q of qs) {
    const reply = simChat({
      model: "sim-reasoner",
      messages: original.render(q),
      temperature: 0,
      seed: 0,
      max_tokens: 4096,
    });
    const text =
      (reply.response.choices as { message: { content: string } }[])[0]!.message
        .content;
    const c: Completion = {
      text,
      reasoning: null,
      finishReason: "stop",
      usage: { promptTokens: 0, completionTokens: 0 },
      latencyMs: 0,
      attempts: 1,
    };
    const e = await linalgSuite.extract(q, c);
    if (e.value !== null) answered++;
    right += judgeLinalg({ question: q, completion: c, extraction: e }).score;
  }
  assert.equal(answered, 660);
  assert.ok(right / 660 > 0.85, `${right}/660`);
});
