import assert from "node:assert/strict";
import { judgeLinalg } from "../../../lib/suites/linalg/mod.ts";
import {
  completion,
  DET3,
  EIG3,
  extraction,
  MATVEC3,
  MULT2,
  question,
} from "./_helpers.ts";

Deno.test("judgeLinalg() compares determinants exactly", () => {
  const q = question(DET3);
  assert.equal(q.answer.value, "-41");
  assert.equal(
    judgeLinalg({
      question: q,
      completion: completion("\\boxed{-41}"),
      extraction: extraction("-41"),
    }).status,
    "correct",
  );
  const wrong = judgeLinalg({
    question: q,
    completion: completion("\\boxed{-40}"),
    extraction: extraction("-40"),
  });
  assert.equal(wrong.status, "wrong");
  assert.equal(wrong.score, 0);
});

Deno.test("judgeLinalg() compares matrices entry by entry and accepts a row vector for a column key", () => {
  const q = question(MULT2);
  assert.equal(
    judgeLinalg({
      question: q,
      completion: completion(""),
      extraction: extraction(JSON.stringify([["19", "10"], ["43", "14"]])),
    }).status,
    "correct",
  );
  assert.equal(
    judgeLinalg({
      question: q,
      completion: completion(""),
      extraction: extraction(JSON.stringify([["19", "10"], ["43", "15"]])),
    }).status,
    "wrong",
  );
  const mv = question(MATVEC3);
  assert.equal(
    judgeLinalg({
      question: mv,
      completion: completion(""),
      extraction: extraction(JSON.stringify([["0", "-4", "-42"]])),
    }).status,
    "correct",
  );
});

Deno.test("judgeLinalg() matches eigenvalues as multisets within the configured tolerance", () => {
  const q = question(EIG3); // eigenvalues 2, 5, −5
  assert.deepEqual([...(q.answer.value as string[])].sort(), ["-5", "2", "5"]);
  const close = extraction(JSON.stringify(["5.004", "-4.996", "2"]));
  assert.equal(
    judgeLinalg({ question: q, completion: completion(""), extraction: close })
      .status,
    "correct",
  );
  const strict = question(EIG3, { abs: 0.001 });
  assert.equal(
    judgeLinalg({
      question: strict,
      completion: completion(""),
      extraction: close,
    }).status,
    "wrong",
  );
  const missing = extraction(JSON.stringify(["5", "-5"]));
  assert.equal(
    judgeLinalg({
      question: q,
      completion: completion(""),
      extraction: missing,
    }).status,
    "wrong",
  );
  const repeated = extraction(JSON.stringify(["5", "5", "2"]));
  assert.equal(
    judgeLinalg({
      question: q,
      completion: completion(""),
      extraction: repeated,
    }).status,
    "wrong",
  );
});

Deno.test("judgeLinalg() marks an unboxed right answer correct but not format-valid", () => {
  const v = judgeLinalg({
    question: question(DET3),
    completion: completion("the determinant is -41"),
    extraction: extraction("-41", "last_number"),
  });
  assert.equal(v.status, "correct");
  assert.equal(v.formatValid, false);
});

Deno.test("judgeLinalg() records cut replies as truncated, with a stage-1 label", () => {
  const cut = judgeLinalg({
    question: question(DET3),
    completion: completion("Expanding along", "length"),
    extraction: extraction(null),
  });
  assert.equal(cut.status, "truncated");
  assert.equal(cut.errorClass, "generation_truncation");
  assert.match(cut.explanation ?? "", /^stage1:generation_truncation/);
});
