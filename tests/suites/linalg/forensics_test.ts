import assert from "node:assert/strict";
import {
  claimsToolUse,
  classifyLinalgError,
  judgeWithModel,
  refineLabels,
  validateLabel,
} from "../../../lib/suites/linalg/mod.ts";
import { createProvider } from "../../../lib/providers/mod.ts";
import type { Provider } from "../../../lib/providers/types.ts";
import type { Completion, Prompt } from "../../../lib/types.ts";
import {
  completion,
  DET3,
  EIG3,
  extraction,
  MULT2,
  question,
} from "./_helpers.ts";

const label = (
  problem: typeof DET3,
  text: string,
  value: string | null,
  finish = "stop",
) =>
  classifyLinalgError({
    question: question(problem),
    completion: completion(text, finish),
    extraction: extraction(value),
  })?.label ?? null;

Deno.test("classifyLinalgError() returns null for a right answer", () => {
  assert.equal(label(DET3, "\\boxed{-41}", "-41"), null);
});

Deno.test("classifyLinalgError() labels truncation first: finish 'length' or no final answer", () => {
  assert.equal(
    label(DET3, "I ran the code and got", "-40", "length"),
    "generation_truncation",
  );
  assert.equal(
    label(DET3, "Expanding along the first row...", null),
    "generation_truncation",
  );
});

Deno.test("classifyLinalgError() applies the magnitude rule: |wrong| = |right| is a sign error", () => {
  assert.equal(label(DET3, "\\boxed{41}", "41"), "sign_error");
  const flipped = JSON.stringify([["19", "-10"], ["43", "14"]]);
  assert.equal(label(MULT2, "", flipped), "sign_error");
});

Deno.test("classifyLinalgError() finds a single misread entry (input transcription)", () => {
  // det with A[2,3] read as 8 instead of 9: −41 − (8 − 9)·C₂₃, C₂₃ = −(−3·1 − 5·1) = 8 → −33
  assert.equal(label(DET3, "\\boxed{-33}", "-33"), "input_transcription");
  const q = question(DET3);
  const detail = classifyLinalgError({
    question: q,
    completion: completion(""),
    extraction: extraction("-33"),
  })!;
  assert.equal(detail.stage, 1);
  assert.match(detail.detail, /^A\[\d,\d\] read as/);
});

Deno.test("classifyLinalgError() calls a right-sign wrong magnitude an arithmetic error", () => {
  assert.equal(label(DET3, "\\boxed{-1000}", "-1000"), "arithmetic_error");
});

Deno.test("classifyLinalgError() flags right values in the wrong shape as formatting_mismatch", () => {
  const flat = JSON.stringify([["19", "10", "43", "14"]]);
  assert.equal(label(MULT2, "", flat), "formatting_mismatch");
});

Deno.test("classifyLinalgError() flags claimed tool runs and invented output as hallucination", () => {
  const text =
    "I ran this in Python:\n```python\nprint(np.linalg.det(A))\n```\n```output\n-40.0\n```\n\\boxed{-40}";
  assert.equal(claimsToolUse(text), true);
  assert.equal(label(DET3, text, "-40"), "hallucination");
});

Deno.test("classifyLinalgError() catches eigenvalues fitted to the trace, and wrong counts", () => {
  // trace of EIG3 is 2; true eigenvalues 2, 5, −5
  assert.equal(
    label(EIG3, "", JSON.stringify(["1", "4", "-3"])),
    "constraint_fabrication",
  );
  assert.equal(
    label(EIG3, "", JSON.stringify(["2", "5"])),
    "multiplicity_error",
  );
  assert.equal(
    label(EIG3, "", JSON.stringify(["7", "9", "11"])),
    "arithmetic_error",
  );
});

function scripted(reply: string, seen: Prompt[] = []): Provider {
  return {
    name: "scripted",
    complete(prompt: Prompt): Promise<Completion> {
      seen.push(prompt);
      return Promise.resolve(completion(reply));
    },
  };
}

Deno.test("judgeWithModel() returns the judge's label with stage 2 and sends the taxonomy", async () => {
  const seen: Prompt[] = [];
  const got = await judgeWithModel(
    scripted(
      "The first error is a flipped cofactor sign.\nLABEL: sign_error",
      seen,
    ),
    { question: question(DET3), completion: completion("\\boxed{41}") },
  );
  assert.ok("label" in got);
  assert.equal(got.label, "sign_error");
  assert.equal(got.stage, 2);
  assert.match(seen[0]!.messages[0]!.content, /constraint_fabrication/);
  assert.match(seen[0]!.messages[0]!.content, /FIRST error/);
});

Deno.test("judgeWithModel() never guesses: an unknown or missing label is unscored with the reason", async () => {
  const unknown = await judgeWithModel(scripted("LABEL: probably_sign"), {
    question: question(DET3),
    completion: completion("x"),
  });
  assert.ok("unscored" in unknown);
  assert.match(unknown.reason, /unknown label "probably_sign"/);
  assert.equal(unknown.reply, "LABEL: probably_sign");
  const none = await judgeWithModel(scripted("It is a sign error, I think."), {
    question: question(DET3),
    completion: completion("x"),
  });
  assert.ok("unscored" in none);
  assert.match(none.reason, /no LABEL line/);
});

Deno.test("judgeWithModel() against the in-process sim is unscored, not guessed", async () => {
  const sim = createProvider(
    {
      name: "judge",
      provider: "sim",
      model: "sim-average",
      params: {},
      concurrency: 1,
      rpm: 0,
      tpm: 0,
    },
    { retries: 0, timeoutMs: 5_000 },
  );
  const got = await judgeWithModel(sim, {
    question: question(DET3),
    completion: completion("\\boxed{41}"),
  });
  // The sim has no grading skill: its reply has no LABEL line, so no label is invented.
  assert.ok("unscored" in got, JSON.stringify(got));
  assert.match(got.reason, /no LABEL line|unknown label/);
  assert.equal(typeof got.reply, "string");
  await sim.close?.();
});

Deno.test("validateLabel() confirms, corrects, or leaves unscored", async () => {
  const q = question(DET3), c = completion("\\boxed{-33}");
  const first = classifyLinalgError({
    question: q,
    completion: c,
    extraction: extraction("-33"),
  })!;
  const confirmed = await validateLabel(
    scripted("Checked the entries.\nCONFIRM"),
    { question: q, completion: c, label: first },
  );
  assert.ok(
    "label" in confirmed && confirmed.label === first.label &&
      confirmed.stage === 3,
  );
  const corrected = await validateLabel(
    scripted("No.\nCORRECT: arithmetic_error"),
    { question: q, completion: c, label: first },
  );
  assert.ok("label" in corrected && corrected.label === "arithmetic_error");
  const unclear = await validateLabel(scripted("Hmm, maybe."), {
    question: q,
    completion: c,
    label: first,
  });
  assert.ok("unscored" in unclear);
});

Deno.test("refineLabels() runs stages 2 and 3 over the wrong rows of a real sweep", async () => {
  const { parseConfig, runSweep } = await import("../../../lib/mod.ts");
  const out = await Deno.makeTempDir();
  try {
    const config = parseConfig({
      name: "refine",
      outputDir: out,
      max_tokens: 2048,
      models: [{ name: "sim-weak", provider: "sim" }],
      suites: [{
        name: "linalg",
        params: {
          source: "generated",
          sizes: [5],
          count: 4,
          tasks: ["determinant", "eigenvalue"],
        },
      }],
    }, "test");
    const { runDir } = await runSweep(config, {
      progress: "none",
      cache: false,
    });
    const rows = (await Deno.readTextFile(`${runDir}/results.jsonl`)).trim()
      .split("\n").map((l) => JSON.parse(l));
    const wrong = rows.filter((r) => r.status !== "correct");
    assert.ok(wrong.length > 0);
    const seen: Prompt[] = [];
    const judged = await refineLabels(rows, {
      judge: scripted(
        "First error: fabricated tool output.\nLABEL: hallucination",
        seen,
      ),
      validator: scripted("Looks right.\nCONFIRM"),
    });
    assert.equal(judged.length, wrong.length);
    assert.ok(
      judged.every((r) =>
        r.label === "hallucination" && r.stage === 3 && r.unscored === undefined
      ),
    );
    // The judge saw each row's own problem, reply and key.
    assert.ok(
      seen.every((p, i) => p.messages[0]!.content.includes(wrong[i].question)),
    );
    const eig = wrong.findIndex((r) => r.dims.task === "eigenvalue");
    if (eig >= 0) {
      assert.match(seen[eig]!.messages[0]!.content, /Correct answer: \["/);
    }
    const unsure = await refineLabels(rows, { judge: scripted("no idea") });
    assert.ok(
      unsure.every((r) =>
        r.label === r.stage1 && r.stage === 1 &&
        /^stage2: no LABEL line/.test(r.unscored ?? "")
      ),
    );
  } finally {
    await Deno.remove(out, { recursive: true });
  }
});
