import assert from "node:assert/strict";
import { extractNumber, readNumber } from "../../lib/extract/mod.ts";

/** Asserts the exact value extracted from `text`. */
function expectExact(text: string, exact: string, rule?: string): void {
  const found = extractNumber(text);
  assert.ok(found !== null, `nothing extracted from ${JSON.stringify(text)}`);
  assert.equal(found.exact, exact, `from ${JSON.stringify(text)}`);
  if (rule !== undefined) {
    assert.equal(found.rule, rule, `rule for ${JSON.stringify(text)}`);
  }
}

Deno.test("extractNumber() reads a bare integer and reports rule 'bare'", () => {
  const found = extractNumber("56088");
  assert.deepEqual(found, {
    value: 56088,
    exact: "56088",
    rule: "bare",
    span: [0, 5],
    candidates: 1,
    kind: "plain",
  });
});

Deno.test("extractNumber() ignores trailing ASCII and Chinese punctuation", () => {
  for (const text of ["144.", "144!", "144。", "144！", "144；", " 144 。"]) {
    expectExact(text, "144");
  }
  expectExact("144.", "144", "bare");
  expectExact("144。", "144", "bare");
});

Deno.test("extractNumber() removes thousands separators, plain and LaTeX", () => {
  expectExact("1,234", "1234");
  expectExact("12,345,678", "12345678");
  expectExact("1{,}234{,}567", "1234567");
  expectExact("$1,234.50", "2469/2");
  expectExact("1\\,234", "1234");
});

Deno.test("extractNumber() skips currency symbols and units", () => {
  expectExact("$42", "42");
  expectExact("¥ 1,200", "1200");
  expectExact("￥88元", "88");
  expectExact("€7.5", "15/2");
  expectExact("The total is 350 yuan.", "350");
  expectExact("It travels 120 km/h", "120");
  expectExact("-$5", "-5");
});

Deno.test("extractNumber() handles the Unicode minus and fullwidth digits and signs", () => {
  expectExact("\u221242", "-42");
  expectExact("\uFF0D\uFF14\uFF12", "-42");
  expectExact("\uFF11\uFF12\uFF13\uFF14\uFF15", "12345");
  expectExact("答案：\uFF13\uFF0E\uFF15", "7/2");
  expectExact("\uFF15\uFF10\uFF05", "50");
});

Deno.test("extractNumber() reads fractions a/b, \\frac and \\dfrac exactly", () => {
  expectExact("3/4", "3/4", "bare");
  expectExact("-3/4", "-3/4");
  expectExact("\\frac{19}{12}", "19/12");
  expectExact("\\dfrac{-3}{4}", "-3/4");
  expectExact("$\\frac{6}{8}$", "3/4");
  const found = extractNumber("\\tfrac{1}{3}");
  assert.equal(found?.kind, "latex_frac");
  assert.ok(Math.abs((found?.value ?? 0) - 1 / 3) < 1e-15);
});

Deno.test("extractNumber() keeps percentages as written", () => {
  expectExact("25%", "25");
  expectExact("The change is -12.5%.", "-25/2");
  expectExact("It is 25\\%", "25");
  assert.equal(extractNumber("25%")?.kind, "percent");
});

Deno.test("extractNumber() reads scientific notation", () => {
  expectExact("1.5e3", "1500");
  expectExact("2E-2", "1/50");
  expectExact("3.2 \\times 10^{4}", "32000");
  expectExact("3.2 × 10^4", "32000");
  expectExact("1.21932631 x 10^17", "121932631000000000");
  expectExact("5*10^-1", "1/2");
});

Deno.test("extractNumber() takes \\boxed{} contents, braces balanced", () => {
  expectExact("so \\boxed{56088}", "56088", "boxed");
  expectExact("\\boxed{\\frac{3}{4}} is it", "3/4", "boxed");
  expectExact("We get \\boxed{123 \\times 456 = 56088}.", "56088", "boxed");
  expectExact(
    "first \\boxed{7} then corrected \\boxed{8}, done 9",
    "8",
    "boxed",
  );
});

Deno.test("extractNumber() takes a markdown bold number", () => {
  expectExact(
    "The product is **56088**, as computed from 123 and 456.",
    "56088",
    "bold",
  );
  expectExact("**Step 1**: 12 × 3 = 36", "36", "last_number");
});

Deno.test("extractNumber() recognises every answer marker", () => {
  const cases: [string, string][] = [
    ["Answer: 42", "42"],
    ["answer = 42", "42"],
    ["Final answer: 42", "42"],
    ["FINAL ANSWER 42", "42"],
    ["The answer is 42.", "42"],
    ["The result is 42", "42"],
    ["Work... #### 42", "42"],
    ["答案是42。", "42"],
    ["答案：42", "42"],
    ["答案为 42", "42"],
    ["结果为 42", "42"],
    ["结果是42", "42"],
    ["**Answer:** 42", "42"],
    ["最终答案：42", "42"],
  ];
  for (const [text, exact] of cases) {
    expectExact(text + " (and 7 more)", exact, "answer_marker");
  }
});

Deno.test("extractNumber() takes the last answer marker, not the first number of the working", () => {
  const text = [
    "Let's compute 123 × 456.",
    "123 × 400 = 49200",
    "123 × 56 = 6888",
    "Answer: 56,088",
  ].join("\n");
  expectExact(text, "56088", "answer_marker");
  expectExact(
    "Answer: 5. Wait, recheck. Final answer: 6",
    "6",
    "answer_marker",
  );
});

Deno.test("extractNumber() is not fooled by numbers after the answer", () => {
  expectExact(
    "The answer is 144. Check: 12 × 12 = 144 and 144 / 12 = 12.",
    "144",
    "answer_marker",
  );
  expectExact(
    "Final answer: 42\nBecause 6 * 7 = 42, and 40 + 2 = 42, not 99",
    "42",
  );
  expectExact("答案：56088（验算：56088 ÷ 456 = 123）", "56088");
});

Deno.test("extractNumber() resolves an expression after a marker to its result", () => {
  expectExact("Answer: 123 × 456 = 56088", "56088", "answer_marker");
  expectExact("Final answer: 12 + 30 = 42.", "42", "answer_marker");
});

Deno.test("extractNumber() takes boxed over the last number; a box and a final answer that disagree are ambiguous", () => {
  // Two final answers, no correction between them: the grader cannot tell
  // which the model meant (docs/extraction.md, rule 5).
  assert.equal(extractNumber("\\boxed{7}\nFinal answer: 8"), null);
  assert.deepEqual(readNumber("\\boxed{7}\nFinal answer: 8").kind, "ambiguous");
  expectExact("\\boxed{7}\nWait, that was wrong. Final answer: 8", "8");
  expectExact("we find \\boxed{7} and 99 more steps", "7", "boxed");
});

Deno.test("extractNumber() takes the final number of worked text without markers", () => {
  expectExact("12 + 13 = 25", "25", "last_number");
  expectExact("5 - 3 = 2", "2", "last_number");
  expectExact("First 300, then 400, so 700 in total.", "700", "last_number");
});

Deno.test("extractNumber() reads Chinese numerals up to 亿", () => {
  const cases: [string, string][] = [
    ["一百一十七", "117"],
    ["十七", "17"],
    ["三千零五", "3005"],
    ["两万三千", "23000"],
    ["一亿二千万", "120000000"],
    ["三亿零五十", "300000050"],
    ["九千九百九十九万九千九百九十九", "99999999"],
    ["负十二", "-12"],
    ["三点五", "7/2"],
    ["一二三", "123"],
  ];
  for (const [text, exact] of cases) expectExact(text, exact);
  expectExact("答案是一百一十七。", "117", "answer_marker");
  expectExact("3万", "30000");
  expectExact("1.2亿", "120000000");
});

Deno.test("extractNumber() ignores Chinese numerals when Arabic numbers are written", () => {
  expectExact("我们一步一步算：12 + 30 = 42。答案：42", "42");
  expectExact("请一步一步思考，结果是 42", "42");
});

Deno.test("extractNumber() ignores <think> blocks", () => {
  expectExact("<think>12 × 12 is 124? no, 144</think>\n144", "144", "bare");
  expectExact("<think>the answer is 5</think>The answer is 7.", "7");
  assert.equal(extractNumber("<think>maybe 5, maybe 6"), null);
  expectExact("it is 5, I guess </think> 6", "6");
  const found = extractNumber("<think>9</think>42");
  assert.deepEqual(found?.span, [16, 18]);
});

Deno.test("extractNumber() returns null for refusals", () => {
  for (
    const text of [
      "I'm sorry, I can't compute 123 × 456 without a calculator.",
      "I cannot help with that.",
      "As an AI, I am unable to compute 987654321 × 123456789 exactly.",
      "抱歉，我无法计算 123 × 456。",
    ]
  ) {
    assert.equal(extractNumber(text), null, text);
  }
});

Deno.test("extractNumber() keeps an answer stated inside an apology", () => {
  expectExact(
    "Sorry, I made an error earlier. The correct answer is 56088.",
    "56088",
  );
  expectExact("I can't be fully sure, but the answer is 42.", "42");
});

Deno.test("extractNumber() returns null when there is no number", () => {
  for (
    const text of [
      "",
      "   ",
      "no number here",
      "答案：不知道",
      "<think>3</think>",
    ]
  ) {
    assert.equal(extractNumber(text), null, JSON.stringify(text));
  }
});

Deno.test("extractNumber() reports spans in the original text", () => {
  const text = "Final answer: \u221212,345。";
  const found = extractNumber(text);
  assert.ok(found !== null);
  assert.equal(text.slice(found.span[0], found.span[1]), "\u221212,345");
});

Deno.test("extractNumber() counts distinct candidate answers", () => {
  assert.equal(extractNumber("Answer: 5. Final answer: 6")?.candidates, 2);
  assert.equal(extractNumber("\\boxed{6}. Final answer: 6")?.candidates, 1);
  assert.equal(extractNumber("12 + 13 = 25")?.candidates, 3);
});

Deno.test("extractNumber() treats a minus after a digit as subtraction", () => {
  expectExact("9377-4821", "4821");
  expectExact("x = -7", "-7");
  expectExact("(-7)", "-7");
});

Deno.test("extractNumber() never throws on odd input", () => {
  const odd = [
    "\\boxed{",
    "\\frac{1}{0}",
    "1/0",
    "1e999999",
    "{,}{,}",
    "\u{1F600} 5",
    "#### ",
    "答案：",
    "9".repeat(5000),
  ];
  for (const text of odd) {
    const found = extractNumber(text);
    assert.ok(found === null || typeof found.value === "number", text);
  }
  expectExact("\u{1F600} 5", "5");
  assert.equal(extractNumber("9".repeat(400))?.exact, "9".repeat(400));
});

Deno.test("extractNumber() reads mixed numbers and fractions before a full stop", () => {
  expectExact("1 7/12", "19/12", "bare");
  expectExact("-1 7/12", "-19/12");
  expectExact("Final answer: 2 3/4.", "11/4", "answer_marker");
  expectExact("The answer is 3/4.", "3/4", "answer_marker");
  // An improper "fraction" after a number is not a mixed number.
  expectExact("12 13/5", "13/5");
});

Deno.test("extractNumber() keeps the sign of a number right after Chinese text", () => {
  expectExact("答案是-7", "-7", "answer_marker");
  expectExact("结果为−12。", "-12", "answer_marker");
});

Deno.test("extractNumber() prefers an exact fraction over its decimal approximation", () => {
  expectExact("19/12 ≈ 1.5833", "19/12", "last_number");
  expectExact("so it is 19/12 (approximately 1.58)", "19/12");
  expectExact("19/12，约 1.58", "19/12");
  expectExact("= \\frac{19}{12} \\approx 1.583", "19/12");
  // An approximation of a plain division is the answer.
  expectExact("100 ÷ 7 ≈ 14.29", "1429/100");
});

Deno.test("extractNumber() counts a number in math delimiters or backticks as bare", () => {
  expectExact("$56{,}088$", "56088", "bare");
  expectExact("`144`", "144", "bare");
  expectExact("$42", "42", "bare");
  expectExact("56088.0", "56088", "bare");
});

Deno.test("extractNumber() keeps the sign of a LaTeX fraction in every form", () => {
  expectExact("-\\frac{3}{4}", "-3/4");
  expectExact("\\frac{-3}{4}", "-3/4");
  expectExact("\\frac{3}{-4}", "-3/4");
  expectExact("\\frac{-3}{-4}", "3/4");
  expectExact("-\\frac{-3}{4}", "3/4");
  expectExact("-\\dfrac{3}{4}", "-3/4");
  expectExact("-\\tfrac{3}{4}", "-3/4");
  expectExact("\\tfrac{-3}{4}", "-3/4");
  expectExact("-\\cfrac{3}{4}", "-3/4");
  expectExact("+\\frac{3}{4}", "3/4");
  expectExact("\u2212\\frac{3}{4}", "-3/4");
  expectExact("-\\frac34", "-3/4");
  expectExact("- \\frac{3}{4}", "-3/4");
  expectExact("\\frac{ - 3 }{ 4 }", "-3/4");
  expectExact("$-\\frac{3}{4}$", "-3/4", "bare");
  expectExact("The answer is -\\frac{3}{4}.", "-3/4", "answer_marker");
});

Deno.test("extractNumber() reads \\boxed{-\\dfrac{3}{4}} as -3/4", () => {
  const found = extractNumber("So $\\boxed{-\\dfrac{3}{4}}$.");
  assert.equal(found?.exact, "-3/4");
  assert.equal(found?.value, -0.75);
  assert.equal(found?.rule, "boxed");
  assert.equal(found?.kind, "latex_frac");
  expectExact("\\boxed{ -\\frac{3}{4} }", "-3/4", "boxed");
  expectExact("\\boxed{ - \\dfrac{ 3 }{ 4 } }", "-3/4", "boxed");
  expectExact("\\boxed{\\frac{-3}{4}}", "-3/4", "boxed");
  expectExact("\\boxed{\\tfrac{3}{-4}}", "-3/4", "boxed");
  expectExact("\\boxed{x = -\\frac{3}{4}}", "-3/4", "boxed");
});

Deno.test("extractNumber() reads signed fractions inside \\left( \\right)", () => {
  expectExact("\\left(-\\frac{3}{4}\\right)", "-3/4");
  expectExact("\\left( -\\dfrac{3}{4} \\right)", "-3/4");
  expectExact("-\\left(\\frac{3}{4}\\right)", "-3/4");
  expectExact("-\\left( \\tfrac{3}{4} \\right)", "-3/4");
  expectExact("\\boxed{-\\left(\\dfrac{3}{4}\\right)}", "-3/4", "boxed");
});

Deno.test("extractNumber() treats a minus between terms and a fraction as subtraction", () => {
  expectExact("2-\\frac{1}{2}", "1/2");
  expectExact("x = 5 - \\frac{1}{2}", "1/2");
  expectExact("\\frac{1}{2}-\\frac{1}{4}", "1/4");
  expectExact("\\left(1\\right) - \\frac{1}{4}", "1/4");
  const found = extractNumber("2-\\frac{1}{2}");
  assert.deepEqual(found?.span, [2, 13]);
});

Deno.test("extractNumber() reads thousands separated by spaces and thin spaces", () => {
  expectExact("1 234 567", "1234567", "bare");
  expectExact("1\u2009234\u2009567", "1234567", "bare");
  expectExact("1\u202F234\u202F567", "1234567", "bare");
  expectExact("1\u00A0234\u00A0567", "1234567", "bare");
  expectExact("1\\,234\\,567", "1234567", "bare");
  expectExact("$1\\,234\\,567$", "1234567", "bare");
  expectExact("12 345", "12345", "bare");
  expectExact("-1 234 567", "-1234567");
  expectExact("1 234 567.25", "4938269/4");
  expectExact("The answer is 56 088.", "56088", "answer_marker");
  expectExact("\\boxed{1 000 000}", "1000000", "boxed");
  expectExact("答案是 1 234 567。", "1234567", "answer_marker");
  const found = extractNumber("x = 1\u2009234\u2009567");
  assert.deepEqual(found?.span, [4, 13]);
  assert.equal(found?.candidates, 1);
});

Deno.test("extractNumber() does not merge separate numbers that only look grouped", () => {
  // Groups must be exactly three digits after a 1–3 digit head not
  // starting with 0, one space apart.
  expectExact("3 45", "45");
  expectExact("I counted 3 45 times", "45");
  expectExact("12 3456", "3456");
  expectExact("1234 567", "567");
  expectExact("0 123", "123");
  expectExact("1  234", "234");
  expectExact("1\n234", "234");
  expectExact("1 2345", "2345");
  assert.equal(extractNumber("3 45")?.candidates, 2);
});

Deno.test("readNumber() records the numbers it set aside and why (rule 4), never the answer itself", () => {
  const aside = (text: string, question?: string) => {
    const r = readNumber(text, question === undefined ? {} : { question });
    return r.kind === "answer" || r.kind === "ambiguous" ? r : null;
  };
  const restated = aside("48213 × 90177 = 4,347,703,101", "48213 × 90177?");
  assert.equal(
    restated?.kind === "answer" && restated.found.exact,
    "4347703101",
  );
  assert.deepEqual(
    restated?.kind === "answer" && restated.found.setAside,
    ["48213: restates the question", "90177: restates the question"],
  );
  const checked = aside("**x = 7**. Check: 2·7 + 3 = 17", "Solve 2x + 3 = 17");
  const lines = checked?.kind === "answer" ? checked.found.setAside ?? [] : [];
  assert.ok(lines.includes("17: in a check after the answer"), String(lines));
  assert.ok(
    !lines.some((l) => l.startsWith("7:")),
    "the answer is not set aside",
  );
  const followUp = aside(
    "The answer is 12.\n\nProblem 2: what is 5 + 6? Answer: 11",
  );
  assert.ok(
    followUp?.kind === "answer" &&
      followUp.found.setAside?.includes(
        "11: after the answer, in a made-up follow-up",
      ),
  );
  const approx = aside("2,083,725, roughly 2.08 million");
  assert.deepEqual(
    approx?.kind === "answer" && approx.found.setAside,
    ["2080000: approximates the answer"],
  );
  // Nothing set aside: no field.
  const plain = aside("The answer is 42.");
  assert.equal(plain?.kind === "answer" && "setAside" in plain.found, false);
});

Deno.test("readNumber(): a supposition is not the answer, and European separators end before a full stop", () => {
  const r = readNumber("答案：42\n\n（注：若题目是 6 × 8，则答案为 48。）");
  assert.equal(r.kind === "answer" && r.found.exact, "42");
  const e = readNumber("Das Ergebnis ist 542.795.124.");
  assert.equal(e.kind === "answer" && e.found.exact, "542795124");
});
