import assert from "node:assert/strict";
import {
  CEVAL_SUBJECTS,
  cevalHardSubjects,
  cevalSubject,
} from "../../../lib/suites/ceval/mod.ts";

function countBy(key: "category" | "level"): Record<string, number> {
  const out: Record<string, number> = {};
  for (const s of CEVAL_SUBJECTS) out[s[key]] = (out[s[key]] ?? 0) + 1;
  return out;
}

Deno.test("CEVAL_SUBJECTS holds 52 subjects with unique keys and names", () => {
  assert.equal(CEVAL_SUBJECTS.length, 52);
  assert.equal(new Set(CEVAL_SUBJECTS.map((s) => s.key)).size, 52);
  assert.equal(new Set(CEVAL_SUBJECTS.map((s) => s.nameZh)).size, 52);
  for (const s of CEVAL_SUBJECTS) {
    assert.match(s.key, /^[a-z_]+$/);
    assert.match(s.nameZh, /^[\u4e00-\u9fff]+$/, s.key);
    assert.equal(s.name.toLowerCase().replace(/ /g, "_"), s.key);
  }
});

Deno.test("CEVAL_SUBJECTS has 20 STEM, 10 Social Science, 11 Humanities and 11 Other subjects", () => {
  assert.deepEqual(countBy("category"), {
    STEM: 20,
    "Social Science": 10,
    Humanities: 11,
    Other: 11,
  });
});

Deno.test("CEVAL_SUBJECTS levels follow the key prefixes (middle school 7, high school 8)", () => {
  const levels = countBy("level");
  assert.equal(levels["middle school"], 7);
  assert.equal(levels["high school"], 8);
  assert.equal(
    (levels["college"] ?? 0) + (levels["professional"] ?? 0),
    52 - 15,
  );
  for (const s of CEVAL_SUBJECTS) {
    if (s.key.startsWith("middle_school_")) {
      assert.equal(s.level, "middle school");
    }
    if (s.key.startsWith("high_school_")) assert.equal(s.level, "high school");
    if (s.key.startsWith("college_")) assert.equal(s.level, "college");
  }
  assert.equal(cevalSubject("physician")?.level, "professional");
});

Deno.test("cevalHardSubjects() lists exactly the 8 C-Eval HARD subjects", () => {
  assert.deepEqual(
    new Set(cevalHardSubjects()),
    new Set([
      "advanced_mathematics",
      "discrete_mathematics",
      "probability_and_statistics",
      "college_chemistry",
      "college_physics",
      "high_school_mathematics",
      "high_school_chemistry",
      "high_school_physics",
    ]),
  );
  for (const key of cevalHardSubjects()) {
    assert.equal(cevalSubject(key)?.category, "STEM");
  }
});

Deno.test("cevalSubject() returns the facts of a key and undefined for an unknown one", () => {
  assert.deepEqual(cevalSubject("high_school_mathematics"), {
    key: "high_school_mathematics",
    name: "High School Mathematics",
    nameZh: "高中数学",
    category: "STEM",
    level: "high school",
    hard: true,
  });
  assert.equal(cevalSubject("Logic"), undefined);
});
