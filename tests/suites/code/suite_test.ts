/**
 * The code suite end to end: questions with keys from the reference,
 * templates in both languages and Chinese, scoring in the sandbox (right,
 * buggy, looping, other-language and code-less replies), and a small sweep
 * on the sim whose rows carry the declared dims and metrics.
 */
import assert from "node:assert/strict";
import { NO_CONTEXT } from "../../_score.ts";
import { parseConfig, runSweep } from "../../../lib/mod.ts";
import { codeSuite } from "../../../lib/suites/code/suite.ts";
import type { CodeQuestion } from "../../../lib/suites/code/questions.ts";
import type { Completion, ResultRow } from "../../../lib/types.ts";

function reply(text: string): Completion {
  return {
    text,
    reasoning: null,
    finishReason: "stop",
    usage: { promptTokens: 1, completionTokens: 1 },
    latencyMs: 0,
    attempts: 1,
  };
}

const PARAMS = {
  problems: ["balanced_brackets"],
  complexity: false,
  quality: false,
};

/** One run of the suite: its questions, and scoring as the runner does. */
async function opened() {
  const run = await codeSuite.open({ seed: 1, params: PARAMS, baseDir: "." });
  const qs = await run.questions();
  const score = async (q: CodeQuestion, text: string) => {
    const c = reply(text);
    const extraction = await run.extract(q, c);
    return await run.score(
      { question: q, completion: c, extraction },
      NO_CONTEXT,
    );
  };
  return { qs, score, [Symbol.asyncDispose]: () => run.close() };
}

Deno.test("codeSuite questions: one per language, keyed by the reference's outputs, rendered in three templates", async () => {
  await using run = await opened();
  const qs = run.qs;
  assert.deepEqual(qs.map((q) => q.dims["language"]), ["python", "javascript"]);
  const [py, js] = qs as [CodeQuestion, CodeQuestion];
  assert.equal(py.dims["complexity"], "O(n)");
  const key = JSON.parse(py.answer.value as string) as unknown[];
  assert.equal(key.length, py.payload!.expected!.length);
  const direct = codeSuite.templates.direct!.render(js)[0]!.content;
  assert.match(direct, /```javascript\nfunction balancedBrackets\(s\)/);
  assert.match(direct, /O\(n\)/);
  const zh = codeSuite.templates.zh!.render(py)[0]!.content;
  assert.match(zh, /请用 Python 编写函数/);
  assert.match(
    codeSuite.templates.plan!.render(py)[0]!.content,
    /explain your approach/,
  );
});

Deno.test("codeSuite.score() runs the reply in the sandbox: right, buggy, looping, other language, no code", async () => {
  await using run = await opened();
  const { score } = run;
  const [py, js] = run.qs as [CodeQuestion, CodeQuestion];
  const right = await score(
    js,
    "Here it is:\n```javascript\nfunction balancedBrackets(s) {\n  const st = [];\n  const m = { ')': '(', ']': '[', '}': '{' };\n  for (const c of s) {\n    if ('([{'.includes(c)) st.push(c);\n    else if (c in m) { if (st.pop() !== m[c]) return false; }\n  }\n  return st.length === 0;\n}\n```",
  );
  assert.equal(right.status, "correct", right.explanation);
  assert.equal(right.formatValid, true);
  assert.equal(right.metrics?.["tests_passed"], 1);
  assert.equal(right.metrics?.["large_pass"], true);

  const buggy = await score(
    py,
    "```python\ndef balanced_brackets(s):\n    return s.count('(') == s.count(')')\n```",
  );
  assert.equal(buggy.status, "wrong");
  assert.equal(buggy.errorClass, "wrong_answer");
  assert.equal(buggy.formatValid, true);
  assert.ok(Number(buggy.metrics?.["tests_passed"]) < 1);

  const loops = await score(
    py,
    "```python\ndef balanced_brackets(s):\n    while True:\n        pass\n```",
  );
  assert.equal(loops.status, "wrong");
  assert.equal(loops.errorClass, "timeout");

  const other = await score(
    py,
    "```javascript\nfunction balancedBrackets(s) { return true; }\n```",
  );
  assert.equal(other.errorClass, "wrong_language");
  assert.equal(other.formatValid, false);

  const none = await score(py, "I would use a stack for this.");
  assert.equal(none.status, "parse_error");
  assert.equal(none.formatValid, false);
});

Deno.test("codeSuite's run gives an error, never format-valid, for a problem not among its questions", async () => {
  await using run = await opened();
  const { score } = run;
  const [py] = run.qs as [CodeQuestion];
  const lost: CodeQuestion = {
    ...py,
    payload: { ...py.payload!, problemId: "no_such_problem" },
  };
  const v = await score(
    lost,
    "```python\ndef balanced_brackets(s):\n    return True\n```",
  );
  assert.equal(v.status, "error");
  assert.equal(v.formatValid, false);
  assert.match(v.explanation ?? "", /not among this run's questions/);
});

Deno.test("a code sweep on the sim stores rows with the suite's dims and metrics", async () => {
  const out = await Deno.makeTempDir();
  try {
    const config = parseConfig({
      outputDir: out,
      cache: false,
      samples: 2,
      models: [{ name: "sim-strong", provider: "sim" }],
      suites: [{
        name: "code",
        params: {
          problems: ["balanced_brackets", "max_window_sum"],
          languages: ["javascript"],
          quality: false,
        },
      }],
    }, "code-test");
    const { runDir, done } = await runSweep(config, { progress: "none" });
    assert.equal(done, 4);
    const rows: ResultRow[] =
      (await Deno.readTextFile(`${runDir}/results.jsonl`))
        .trim().split("\n").map((l) => JSON.parse(l));
    for (const row of rows) {
      assert.equal(row.suite, "code");
      assert.equal(row.dims["language"], "javascript");
      assert.ok("tests_passed" in row.metrics || row.status === "parse_error");
    }
    const correct = rows.filter((r) => r.status === "correct");
    assert.ok(correct.length >= 2, "sim-strong passes easy problems");
    for (const row of correct) {
      assert.equal(typeof row.metrics["complexity_measured"], "string");
    }
  } finally {
    await Deno.remove(out, { recursive: true });
  }
});
