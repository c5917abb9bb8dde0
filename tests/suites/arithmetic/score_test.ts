import assert from "node:assert/strict";
import { extractNumber } from "../../../lib/extract/mod.ts";
import {
  judgeNumeric,
  numericFormatValid,
} from "../../../lib/suites/arithmetic/mod.ts";
import type { Completion, Extraction, Question } from "../../../lib/types.ts";

const question: Question = {
  id: "q",
  suite: "arithmetic",
  text: "What is 123 × 456?",
  answer: { kind: "rational", value: "56088" },
  dims: {},
  payload: { op: "×", a: "123", b: "456" },
};

function completion(text: string, extra: Partial<Completion> = {}): Completion {
  return {
    text,
    reasoning: null,
    finishReason: "stop",
    usage: { promptTokens: 10, completionTokens: 5 },
    latencyMs: 1,
    attempts: 1,
    ...extra,
  };
}

function extraction(text: string): Extraction {
  const found = extractNumber(text);
  return found === null
    ? { value: null, rule: "none", span: null, candidates: 0 }
    : {
      value: found.exact ?? null,
      rule: found.rule,
      span: found.span,
      candidates: found.candidates,
    };
}

function judge(text: string, extra: Partial<Completion> = {}, q = question) {
  return judgeNumeric({
    question: q,
    completion: completion(text, extra),
    extraction: extraction(text),
  });
}

Deno.test("judgeNumeric() marks a bare correct number correct and format-valid", () => {
  const v = judge("56088");
  assert.equal(v.status, "correct");
  assert.equal(v.score, 1);
  assert.equal(v.formatValid, true);
});

Deno.test("judgeNumeric() marks a correct answer in prose correct but not format-valid", () => {
  const v = judge("The product of 123 and 456 is 56,088.");
  assert.equal(v.status, "correct");
  assert.equal(v.formatValid, false);
});

Deno.test("judgeNumeric() classifies a wrong answer and gives its relative error", () => {
  const v = judge("56588");
  assert.equal(v.status, "wrong");
  assert.equal(v.errorClass, "digit");
  assert.ok(v.relError !== undefined && v.relError > 0);
});

Deno.test("judgeNumeric() reports parse_error when no number is found", () => {
  assert.equal(judge("I'm sorry, I can't do that.").status, "parse_error");
});

Deno.test("judgeNumeric() reports error, never format-valid, when the key is not rational", () => {
  // A failed request never reaches the judge: finishRow makes its error
  // row (tests/suites/format_valid_test.ts).
  const v = judge("56088", {}, {
    ...question,
    answer: { kind: "choice", value: "B" },
  });
  assert.equal(v.status, "error");
  assert.equal(v.formatValid, false);
  assert.match(v.explanation ?? "", /not rational/);
});

Deno.test("judgeNumeric() reports truncated when the token limit cut the working", () => {
  assert.equal(
    judge("123 × 400 = 49200, 123 × 5", { finishReason: "length" }).status,
    "truncated",
  );
  assert.equal(judge("", { finishReason: "length" }).status, "truncated");
  // An explicit answer before the cut still counts.
  assert.equal(
    judge("Final answer: 56088\nCheck: 56", { finishReason: "length" }).status,
    "correct",
  );
});

Deno.test("judgeNumeric() accepts an unreduced fraction and respects payload tolerance", () => {
  const frac: Question = {
    ...question,
    answer: { kind: "rational", value: "3/4" },
    payload: {},
  };
  assert.equal(judge("6/8", {}, frac).status, "correct");
  assert.equal(judge("0.75", {}, frac).status, "correct");
  assert.equal(judge("0.7", {}, frac).status, "wrong");
  const loose: Question = {
    ...question,
    payload: { tolerance: { rel: 0.01 } },
  };
  assert.equal(judge("56100", {}, loose).status, "correct");
});

Deno.test("numericFormatValid() accepts a final answer line in either language", () => {
  assert.equal(numericFormatValid("Step...\nFinal answer: 56088"), true);
  assert.equal(numericFormatValid("步骤……\n答案：56088"), true);
  assert.equal(numericFormatValid("Final answer: 56088\nThanks!"), false);
  assert.equal(numericFormatValid("no"), false);
});

Deno.test("judgeNumeric() rounds the reply to the asked precision before comparing", () => {
  const rounding: Question = {
    id: "r",
    suite: "arithmetic",
    text: "What is 18 ÷ 7? Round to 2 decimal places.",
    answer: { kind: "rational", value: "257/100" },
    dims: {},
    payload: { family: "div", op: "÷", a: "18", b: "7", precision: 2 },
  };
  assert.equal(judge("2.57", {}, rounding).status, "correct");
  // The exact value and an over-precise decimal are the right value.
  assert.equal(judge("18/7", {}, rounding).status, "correct");
  assert.equal(judge("2.571428", {}, rounding).status, "correct");
  // Off by one in the last place, either way: wrong.
  assert.equal(judge("2.58", {}, rounding).status, "wrong");
  assert.equal(judge("2.56", {}, rounding).status, "wrong");
});
