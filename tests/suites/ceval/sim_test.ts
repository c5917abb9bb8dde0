import assert from "node:assert/strict";
import { extractChoice } from "../../../lib/extract/mod.ts";
import type { SimMessage } from "../../../lib/providers/sim/mod.ts";
import { simChat } from "../../_score.ts";
import { renderCeval } from "../../../lib/suites/ceval/templates.ts";
import type { Question } from "../../../lib/types.ts";
import { lcg } from "../../providers/sim/_helpers.ts";

type Choice = { message: { content: string; reasoning_content?: string } };

function reply(
  model: string,
  messages: SimMessage[],
  seed = 0,
  temperature = 0,
): string {
  const r = simChat({ model, messages, temperature, seed, max_tokens: 2048 });
  return (r.response.choices as Choice[])[0]!.message.content;
}

const LETTERS = ["A", "B", "C", "D"] as const;

/** A C-Eval question on `subjectZh` whose answer is `a op b`, key at `keyIndex`. */
function mcQuestion(
  subjectZh: string,
  stem: string,
  right: string,
  wrong: string[],
  keyIndex: number,
): Question {
  const opts = [...wrong];
  opts.splice(keyIndex, 0, right);
  const choices = { A: opts[0]!, B: opts[1]!, C: opts[2]!, D: opts[3]! };
  const ex = {
    question: "计算 1 + 1 的值。",
    choices: { A: "1", B: "2", C: "3", D: "4" },
    answer: "B",
    explanation: "1. 1 + 1 = 2",
  };
  return {
    id: stem,
    suite: "ceval",
    text: stem,
    answer: { kind: "choice", value: LETTERS[keyIndex]! },
    dims: {},
    payload: {
      item: { question: stem, choices, answer: null, explanation: null },
      subjectZh,
      dev: [ex, ex],
    },
  };
}

function arithmetic(rng: () => number, n: number, subjectZh: string) {
  const out: Question[] = [];
  for (let i = 0; i < n; i++) {
    const a = 10 + Math.floor(rng() * 90), b = 10 + Math.floor(rng() * 90);
    const c = 2 + Math.floor(rng() * 8);
    const right = a * c + b;
    out.push(mcQuestion(
      subjectZh,
      `计算 ${a} × ${c} + ${b} 的值。`,
      String(right),
      [String(right + 10), String(right - 1), String(right + c)],
      Math.floor(rng() * 4),
    ));
  }
  return out;
}

Deno.test("multiple-choice skill solves a computable C-Eval question from the prompt alone, in chat and completion form", () => {
  const q = mcQuestion("初中数学", "计算 12 - 5 × 3 的值。", "-3", [
    "21",
    "3",
    "-21",
  ], 1);
  for (const form of ["chat", "completion"] as const) {
    const text = reply("sim-strong", renderCeval(q, "few_shot", { form }));
    assert.equal(extractChoice(text)?.letter, "B", `${form}: ${text}`);
  }
});

Deno.test("multiple-choice skill writes the styles real models use", () => {
  const q = mcQuestion("初中数学", "计算 (2 + 3) × (7 - 4) 的值。", "15", [
    "13",
    "11",
    "25",
  ], 0);
  const bare = reply(
    "sim-strong",
    renderCeval(q, "answer_only", { form: "chat" }),
  );
  assert.equal(bare, "A");
  const cued = reply(
    "sim-strong",
    renderCeval(q, "few_shot", { form: "chat" }),
  );
  assert.equal(cued, "答案：A");
  const free = reply(
    "sim-average",
    renderCeval(q, "zero_shot", { form: "chat" }),
  );
  assert.match(free, /^答案是 A(\. 15)?。$/);
  const cot = reply("sim-strong", renderCeval(q, "cot", { form: "chat" }));
  const lines = cot.split("\n");
  assert.match(lines[1]!, /选项 [BCD]/, "discusses another letter first");
  assert.ok(lines.some((l) => l === "所以答案是A。"), cot);
  assert.equal(extractChoice(cot)?.letter, "A");
  const chatty = Array.from(
    { length: 12 },
    (_, seed) =>
      reply("sim-chatty", renderCeval(q, "zero_shot", { form: "chat" }), seed),
  );
  assert.ok(chatty.some((t) => t.includes("A. 15")), chatty.join(" | "));
});

Deno.test("multiple-choice skill answers English prompts in English forms", () => {
  const messages: SimMessage[] = [{
    role: "user",
    content:
      "Which value does 6 × 7 have? Calculate 6 × 7.\nA. 42\nB. 48\nC. 36\nD. 49",
  }];
  const texts = Array.from(
    { length: 8 },
    (_, seed) => reply("sim-strong", messages, seed),
  );
  for (const t of texts) {
    assert.match(t, /^The answer is \(?A\)?\.$/);
    assert.equal(extractChoice(t)?.letter, "A");
  }
  assert.ok(texts.some((t) => t.includes("(A)")), texts.join(" | "));
});

Deno.test("multiple-choice skill is deterministic and keeps its guess on knowledge questions across prompt modes", () => {
  const q = mcQuestion("初中历史", "下列哪一项是虚构的朝代____", "甲", [
    "乙",
    "丙",
    "丁",
  ], 2);
  const a = reply(
    "sim-strong",
    renderCeval(q, "few_shot", { form: "chat" }),
    3,
  );
  assert.equal(
    reply("sim-strong", renderCeval(q, "few_shot", { form: "chat" }), 3),
    a,
  );
  const forms = [
    renderCeval(q, "zero_shot", { form: "chat" }),
    renderCeval(q, "answer_only", { form: "chat" }),
    renderCeval(q, "few_shot", { form: "chat" }),
    renderCeval(q, "few_shot", { form: "completion" }),
  ];
  const letters = new Set(
    forms.map((m) => extractChoice(reply("sim-strong", m))?.letter),
  );
  assert.equal(letters.size, 1);
});

Deno.test("multiple-choice skill accuracy depends on the subject: middle school above HARD college mathematics", () => {
  const accuracy = (subjectZh: string) => {
    const qs = arithmetic(lcg(7), 80, subjectZh);
    let correct = 0;
    for (const [i, q] of qs.entries()) {
      const text = reply(
        "sim-average",
        renderCeval(q, "few_shot", { form: "chat" }),
        i,
        0.7,
      );
      if (extractChoice(text)?.letter === q.answer.value) correct++;
    }
    return correct / qs.length;
  };
  const middle = accuracy("初中数学");
  const hard = accuracy("高等数学");
  assert.ok(middle >= 0.85, `middle school ${middle}`);
  assert.ok(hard < middle - 0.1, `advanced mathematics ${hard} vs ${middle}`);
});

Deno.test("multiple-choice skill leaves plain arithmetic prompts to the arithmetic skill", () => {
  const text = reply("sim-strong", [{
    role: "user",
    content: "What is 48 + 37? Output only the number.",
  }]);
  assert.equal(text, "85");
});

Deno.test("the sim's solver agrees with every computable answer key of the bundled dataset", async () => {
  const { loadCeval } = await import("../../../lib/suites/ceval/mod.ts");
  const { solveChoice } = await import(
    "../../../lib/suites/ceval/sim/_choice_solver.ts"
  );
  let solved = 0;
  for (const split of ["dev", "val", "test"] as const) {
    for (const r of await loadCeval("data/ceval", { split })) {
      const s = solveChoice(r.question, r.choices);
      if (s === null || r.answer === null) continue;
      solved++;
      assert.equal(s.letter, r.answer, `${r.source.file} row ${r.source.row}`);
    }
  }
  assert.ok(solved >= 12, `solved ${solved}`);
});
