import assert from "node:assert/strict";
import {
  choiceFormatValid,
  judgeChoice,
} from "../../../lib/suites/ceval/mod.ts";
import type { Completion, Extraction, Question } from "../../../lib/types.ts";

function question(key: string): Question {
  return {
    id: "q",
    suite: "ceval",
    text: "1 + 1 = ____\nA. 1\nB. 2\nC. 3\nD. 4",
    answer: { kind: "choice", value: key },
    dims: {},
  };
}

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

function extraction(value: string | null, candidates = 1): Extraction {
  return {
    value,
    rule: value === null ? "none" : "answer_is_zh",
    span: value === null ? null : [0, 1],
    candidates,
  };
}

Deno.test("judgeChoice() marks the key letter correct and another letter wrong", () => {
  const ok = judgeChoice({
    question: question("B"),
    completion: completion("答案：B"),
    extraction: extraction("B"),
  });
  assert.deepEqual([ok.status, ok.score, ok.formatValid], ["correct", 1, true]);
  const bad = judgeChoice({
    question: question("B"),
    completion: completion("答案：C"),
    extraction: extraction("C"),
  });
  assert.deepEqual([bad.status, bad.score], ["wrong", 0]);
  assert.equal(bad.errorClass, "wrong_choice");
  assert.match(bad.explanation ?? "", /chose C, key B/);
});

Deno.test("judgeChoice() classes a wrong final letter after several stated ones as changed_mind", () => {
  const v = judgeChoice({
    question: question("A"),
    completion: completion("答案是A……不对，答案是C"),
    extraction: extraction("C", 2),
  });
  assert.equal(v.errorClass, "changed_mind");
});

Deno.test("judgeChoice() separates parse errors and truncation", () => {
  assert.equal(
    judgeChoice({
      question: question("B"),
      completion: completion("我不确定"),
      extraction: extraction(null),
    })
      .status,
    "parse_error",
  );
  assert.equal(
    judgeChoice({
      question: question("B"),
      completion: completion("让我们一步一步思考，", {
        finishReason: "length",
      }),
      extraction: extraction(null),
    }).status,
    "truncated",
  );
});

Deno.test("judgeChoice() leaves questions without a key unscored, never wrong", () => {
  const v = judgeChoice({
    question: question(""),
    completion: completion("B"),
    extraction: extraction("B"),
  });
  assert.equal(v.status, "unscored");
  assert.equal(v.score, 0);
  assert.equal(v.formatValid, true);
  assert.match(v.explanation ?? "", /chose B/);
});

Deno.test("choiceFormatValid() accepts a bare letter or a final answer line only", () => {
  for (
    const ok of [
      "B",
      "(C)",
      "**D**",
      "A.",
      "答案：B",
      "所以答案是D。",
      "Answer: C",
      "The answer is (B).",
      "<think>嗯</think>\nB",
    ]
  ) {
    assert.equal(choiceFormatValid(ok), true, ok);
  }
  for (const bad of ["我觉得是B", "B 和 C 都对", "答案：B，因为……", "E"]) {
    assert.equal(choiceFormatValid(bad), false, bad);
  }
});
