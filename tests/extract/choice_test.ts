import assert from "node:assert/strict";
import { extractChoice } from "../../lib/extract/mod.ts";
import { readChoice } from "../../lib/extract/choice.ts";

function letterOf(text: string, letters?: string[]): string | null {
  return extractChoice(text, letters)?.letter ?? null;
}

Deno.test("extractChoice() reads every official Chinese answer pattern", () => {
  const cases: [string, string][] = [
    ["答案是B", "B"],
    ["答案为C。", "C"],
    ["答案：D", "D"],
    ["答案: A", "A"],
    ["答案应为B", "B"],
    ["答案应该是 C", "C"],
    ["正确答案是：D", "D"],
    ["选B", "B"],
    ["故选C。", "C"],
    ["本题选A", "A"],
    ["应选D", "D"],
    ["选项C是正确的。", "C"],
    ["正确的一项是B。", "B"],
    ["正确的选项是：A", "A"],
    ["D是正确的", "D"],
    ["B项正确。", "B"],
    ["所以答案是选项B。", "B"],
    ["答案是：**C**", "C"],
    ["答案是【A】", "A"],
    ["答案是（D）", "D"],
  ];
  for (const [text, want] of cases) {
    assert.equal(letterOf(text), want, text);
  }
});

Deno.test("extractChoice() maps fullwidth letters and keeps spans in the original text", () => {
  const text = "答案：Ｂ";
  const found = extractChoice(text);
  assert.equal(found?.letter, "B");
  assert.deepEqual(found?.span, [3, 4]);
  assert.equal(text.slice(3, 4), "Ｂ");
  assert.equal(letterOf("故选（Ｃ）"), "C");
});

Deno.test("extractChoice() reads \\boxed{} in its common forms", () => {
  assert.equal(extractChoice("so $\\boxed{B}$")?.rule, "boxed");
  assert.equal(letterOf("\\boxed{\\text{C}}"), "C");
  assert.equal(letterOf("\\boxed{(D)}"), "D");
});

Deno.test("extractChoice() reads English answer statements", () => {
  const cases: [string, string][] = [
    ["The answer is (B).", "B"],
    ["The correct answer is C", "C"],
    ["Answer: C", "C"],
    ["ANSWER: D", "D"],
    ["Option B is correct.", "B"],
    ["(A) is the correct answer.", "A"],
    ["I choose D.", "D"],
    ["I'd go with option C.", "C"],
    ["So the final answer is **A**.", "A"],
  ];
  for (const [text, want] of cases) {
    assert.equal(letterOf(text), want, text);
  }
});

Deno.test("extractChoice() lets the last explicit answer statement win in worked answers", () => {
  const worked = "A 明显错误，因为速度不可能为负。B 也不对，忽略了摩擦。" +
    "C 的单位不对。所以答案是D。";
  const found = extractChoice(worked);
  assert.equal(found?.letter, "D");
  assert.equal(found?.rule, "answer_is_zh");
  assert.equal(worked.slice(...found!.span), "D");
  assert.equal(letterOf("答案是 B，而不是 C"), "B");
  assert.equal(
    letterOf("我一开始以为答案是A，但重新计算后发现答案是C。"),
    "C",
  );
  assert.deepEqual(
    extractChoice("我一开始以为答案是A，但重新计算后发现答案是C。")
      ?.candidates,
    ["A", "C"],
  );
  assert.equal(
    letterOf("Option A is tempting, but it ignores friction. The answer is D."),
    "D",
  );
});

Deno.test("extractChoice() does not take negated letters as answers", () => {
  assert.equal(letterOf("A不正确，B是不正确的，C是正确的。"), "C");
  assert.equal(letterOf("不选A，选B"), "B");
  assert.equal(letterOf("答案不是A"), null);
  assert.equal(letterOf("A 明显错误"), null);
  assert.equal(letterOf("A is wrong."), null);
});

Deno.test("extractChoice() accepts a reply that starts with a letter or a letter and its option text", () => {
  assert.deepEqual(extractChoice("B"), {
    letter: "B",
    rule: "leading_letter",
    span: [0, 1],
    candidates: ["B"],
  });
  assert.equal(letterOf("C. 12"), "C");
  assert.equal(letterOf("D．光的折射"), "D");
  assert.equal(letterOf("(A) 氧气"), "A");
  assert.equal(letterOf("B：2x+1"), "B");
  assert.equal(letterOf("**C**"), "C");
  assert.equal(letterOf("  A\n"), "A");
});

Deno.test("extractChoice() ignores <think> blocks", () => {
  const text = "<think>\n也许答案是A？不对，再想想。\n</think>\n\n答案是C";
  assert.equal(letterOf(text), "C");
  assert.equal(letterOf("<think>答案是A</think>"), null);
  assert.equal(letterOf("<think>答案是A，还没想完"), null);
});

Deno.test("extractChoice() returns null when no letter is stated", () => {
  assert.equal(extractChoice(""), null);
  assert.equal(extractChoice("我不确定这道题的答案。"), null);
  assert.equal(extractChoice("A good question; I cannot tell."), null);
  assert.equal(extractChoice("The answer is 42."), null);
});

Deno.test("extractChoice() returns null when several letters are equally plausible", () => {
  assert.equal(extractChoice("答案是A或B"), null);
  assert.equal(extractChoice("答案是 B 和 C"), null);
  assert.equal(extractChoice("The answer is A or C."), null);
  assert.equal(extractChoice("A、C"), null);
  assert.equal(extractChoice("可能是A，也可能是C。"), null);
});

Deno.test("extractChoice() takes the only letter mentioned or a last line letter as weak cues", () => {
  assert.equal(extractChoice("我认为是 B 吧。")?.rule, "sole_letter");
  const last = extractChoice("分析：A 的说法、C 的说法都需要推敲。\nB");
  assert.equal(last?.letter, "B");
  assert.equal(last?.rule, "last_line");
});

Deno.test("extractChoice() respects custom letters and their case", () => {
  assert.equal(letterOf("答案是E", ["A", "B", "C", "D", "E"]), "E");
  assert.equal(letterOf("答案是E"), null);
  assert.equal(letterOf("the answer is a bit unclear"), null);
  assert.equal(letterOf("Answer: b", ["a", "b"]), "b");
});

Deno.test("extractChoice() does not read letters inside words or formulas", () => {
  assert.equal(letterOf("答案是ABS材料"), null);
  assert.equal(letterOf("The answer is Because of X"), null);
  assert.equal(letterOf("DNA 复制发生在间期，答案：A"), "A");
});

Deno.test("extractChoice() handles adversarial worked answers", () => {
  const cases: [string, string | null][] = [
    ["选项A是错误的，选项B是正确的。", "B"],
    ["A项：不正确；B项：正确。", "B"],
    ["答案：A、B、C都不对，应该选D。", "D"],
    ["答案是D。\n\n解析：A项错误，B项也错误，C项与题意不符。", "D"],
    ["The answer is B, not C.", "B"],
    ["Both A and C are wrong; the correct answer is B.", "B"],
    ["答案：\\boxed{C}", "C"],
    ["**答案：B**", "B"],
    ["### 答案\nB", "B"],
    ["正确答案：C", "C"],
    ["我选C。", "C"],
    ["Answer: (D) 42", "D"],
    ["A. 12\nB. 13\nC. 14\nD. 15\n答案：C", "C"],
    ["A. 12\nB. 13\nC. 14\nD. 15", null],
    ["A 和 B 都有道理，C 和 D 也说得通。", null],
  ];
  for (const [text, want] of cases) {
    assert.equal(extractChoice(text)?.letter ?? null, want, text);
  }
});

Deno.test("extractChoice() lists every stated letter as a candidate and spans the winning one", () => {
  const text = "先排除A。答案不可能是B……最终答案是C，不是D。";
  const found = extractChoice(text);
  assert.equal(found?.letter, "C");
  assert.equal(text.slice(...found!.span), "C");
  assert.deepEqual(found?.candidates, ["C"]);
  const again = "答案是A。再检查一遍：答案是A。";
  const twice = extractChoice(again);
  assert.deepEqual(twice?.candidates, ["A"]);
  assert.equal(twice?.span[0], again.lastIndexOf("A"));
});

Deno.test("readChoice() rules tuned on the corpus's development half (docs/extraction.md rules 3, 4, 5 and 8)", () => {
  const letter = (text: string) => {
    const r = readChoice(text);
    return r.kind === "answer" ? r.found.letter : r.kind;
  };
  // Rule 3: a correction with an adverb.
  assert.equal(
    letter(
      "The answer is D.\n\nWait — that's wrong. So the correct answer is actually C.",
    ),
    "C",
  );
  // Rule 8: lower case in brackets, "I choose: b", 【答案】, a dash in a bold option.
  assert.equal(
    letter("The correct option is (c) 1945 — Japan surrendered in September."),
    "C",
  );
  assert.equal(letter("A queue is FIFO.\n\nI choose: b."), "B");
  assert.equal(letter("【答案】B\n【解析】A项干扰性较强。"), "B");
  assert.equal(letter("**B — O(log n)**\n\nA (O(n)) is linear search."), "B");
  // A first line that is only the letter; the explanation names others.
  assert.equal(letter("A\n\nExplanation: B and C are distractors."), "A");
  // Marks before the letter, and per-option bullets with 项.
  assert.equal(
    letter("❌ A) China\n✅ B) India\n❌ C) USA\n❌ D) Indonesia"),
    "B",
  );
  assert.equal(
    letter("- **A项**：✘ 错误\n- **B项**：✔ 正确\n- **C项**：✘ 错误"),
    "B",
  );
  // Rule 5: a hedge is ambiguous.
  assert.equal(letter("It's either A or C, I can't tell."), "ambiguous");
  // Rule 4: an option under analysis is not a choice; an invented
  // question's answer is not the reply's.
  assert.equal(letter("我们逐项分析：\n\nA项：14。因此A项"), "none");
  assert.equal(
    letter("**Answer: B**\n\n**Practice question:** …?\n\n**Answer: C**"),
    "B",
  );
  assert.equal(letter("【答案】C\n\n【变式训练】下列…\n答案：B"), "C");
});
