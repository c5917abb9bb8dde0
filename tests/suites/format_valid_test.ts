/**
 * One status ladder, one `format_valid` rule, in every suite: each suite
 * is driven through its registered `extract` and `score` (and the runner's
 * `finishRow` for failed requests) over a table of replies, and a status
 * gets the same `format_valid` whichever suite gave it. Cases that need
 * the sandbox (a correct or wrong program) are in tests/suites/code/.
 */
import assert from "node:assert/strict";
import { noExtraction } from "../../lib/extract/suite_extract.ts";
import { STATUSES } from "../../lib/judge/status.ts";
import { finishRow } from "../../lib/runner/finish.ts";
import { getSuite } from "../../lib/suites/mod.ts";
import type { SuiteRun } from "../../lib/suites/types.ts";
import type { Extraction, Question, VerdictStatus } from "../../lib/types.ts";
import { NO_CONTEXT } from "../_score.ts";
import {
  completion as reply,
  DET3,
  question as linalgQuestion,
} from "./linalg/_helpers.ts";

const QUESTIONS: Record<string, Question> = {
  arithmetic: {
    id: "mul",
    suite: "arithmetic",
    text: "What is 123 × 456?",
    answer: { kind: "rational", value: "56088" },
    dims: {},
    payload: { op: "×", a: "123", b: "456" },
  },
  ceval: {
    id: "mc",
    suite: "ceval",
    text: "下列哪一项正确？",
    answer: { kind: "choice", value: "B" },
    dims: {},
  },
  linalg: linalgQuestion(DET3) as Question,
  code: {
    id: "code/bank/balanced_brackets/python",
    suite: "code",
    text: "Balanced brackets",
    answer: { kind: "text", value: "[]" },
    dims: {},
    payload: {
      problemId: "balanced_brackets",
      source: "bank",
      language: "python",
      entry: "balanced_brackets",
      signature: "def balanced_brackets(s: str) -> bool:",
      statement: { en: "", zh: "" },
      inputSeed: 1,
    },
  },
};

/** Params that keep the code suite out of the sandbox for these cases. */
const PARAMS: Record<string, Record<string, unknown>> = {
  code: { complexity: false, quality: false },
};

const PY = "```python\ndef balanced_brackets(s):\n    return True\n```";
const JS = "```javascript\nfunction balancedBrackets(s) { return true; }\n```";

interface Case {
  suite: string;
  /** What the case shows. */
  what: string;
  text: string;
  finishReason?: string;
  /** The extraction to score; the suite's own `extract` by default. */
  extraction?: Extraction;
  question?: Question;
  /** The reply passes the suite's own format check. */
  inFormat: boolean;
  status: VerdictStatus;
  formatValid: boolean;
}

const CASES: Case[] = [
  // correct / wrong: the suite's format check decides.
  {
    suite: "arithmetic",
    what: "a bare right number",
    text: "56088",
    inFormat: true,
    status: "correct",
    formatValid: true,
  },
  {
    suite: "arithmetic",
    what: "a right number in prose",
    text: "The product of 123 and 456 is 56,088.",
    inFormat: false,
    status: "correct",
    formatValid: false,
  },
  {
    suite: "arithmetic",
    what: "a bare wrong number",
    text: "56588",
    inFormat: true,
    status: "wrong",
    formatValid: true,
  },
  {
    suite: "ceval",
    what: "a bare right letter",
    text: "B",
    inFormat: true,
    status: "correct",
    formatValid: true,
  },
  {
    suite: "ceval",
    what: "a right letter in a hedge",
    text: "我觉得 B 比较对吧",
    inFormat: false,
    status: "correct",
    formatValid: false,
  },
  {
    suite: "ceval",
    what: "a final answer line with a wrong letter",
    text: "答案：C",
    inFormat: true,
    status: "wrong",
    formatValid: true,
  },
  {
    suite: "linalg",
    what: "a boxed right determinant",
    text: "\\boxed{-41}",
    inFormat: true,
    status: "correct",
    formatValid: true,
  },
  {
    suite: "linalg",
    what: "an unboxed right determinant",
    text: "the determinant is -41",
    inFormat: false,
    status: "correct",
    formatValid: false,
  },
  {
    suite: "linalg",
    what: "a boxed wrong determinant",
    text: "\\boxed{-40}",
    inFormat: true,
    status: "wrong",
    formatValid: true,
  },
  {
    suite: "code",
    what: "code in the wrong language (rule other_language, not a fence)",
    text: JS,
    inFormat: false,
    status: "wrong",
    formatValid: false,
  },
  // unscored: the format counts when an answer was extracted.
  {
    suite: "ceval",
    what: "a letter for a question without a key",
    text: "B",
    question: { ...QUESTIONS["ceval"]!, answer: { kind: "choice", value: "" } },
    inFormat: true,
    status: "unscored",
    formatValid: true,
  },
  {
    suite: "ceval",
    what: "no extracted letter for a question without a key",
    text: "B",
    extraction: noExtraction(),
    question: { ...QUESTIONS["ceval"]!, answer: { kind: "choice", value: "" } },
    inFormat: true,
    status: "unscored",
    formatValid: false,
  },
  // truncated: never format-valid, whatever the reply looks like.
  {
    suite: "arithmetic",
    what: "working cut before the final answer's number",
    text: "123 × 456 = 56088\nFinal answer: .",
    finishReason: "length",
    inFormat: true,
    status: "truncated",
    formatValid: false,
  },
  ...["arithmetic", "ceval", "linalg", "code"].map((suite): Case => ({
    suite,
    what: "an answer-shaped reply cut with nothing trustworthy extracted",
    text: { arithmetic: "56088", ceval: "B", linalg: "\\boxed{-41}", code: PY }[
      suite
    ]!,
    finishReason: "length",
    extraction: noExtraction(),
    inFormat: true,
    status: "truncated",
    formatValid: false,
  })),
  // parse_error: never format-valid.
  ...["arithmetic", "ceval", "linalg", "code"].map((suite): Case => ({
    suite,
    what: "an answer-shaped reply with nothing extracted",
    text: { arithmetic: "56088", ceval: "B", linalg: "\\boxed{-41}", code: PY }[
      suite
    ]!,
    extraction: noExtraction(),
    inFormat: true,
    status: "parse_error",
    formatValid: false,
  })),
  {
    suite: "arithmetic",
    what: "a refusal",
    text: "I'm sorry, I can't do that.",
    inFormat: false,
    status: "parse_error",
    formatValid: false,
  },
  {
    suite: "code",
    what: "prose without code",
    text: "I would use a stack for this.",
    inFormat: false,
    status: "parse_error",
    formatValid: false,
  },
  // error from the judge: never format-valid.
  {
    suite: "arithmetic",
    what: "a bare number against a key that is not rational",
    text: "56088",
    question: {
      ...QUESTIONS["arithmetic"]!,
      answer: { kind: "choice", value: "B" },
    },
    inFormat: true,
    status: "error",
    formatValid: false,
  },
];

async function verdictOf(c: Case) {
  const suite = getSuite(c.suite);
  const question = c.question ?? QUESTIONS[c.suite]!;
  const completion = reply(c.text, c.finishReason);
  const run = await suite.open({
    seed: 0,
    params: PARAMS[c.suite] ?? {},
    baseDir: ".",
  });
  const extraction = c.extraction ?? await run.extract(question, completion);
  const verdict = await run.score(
    { question, completion, extraction },
    NO_CONTEXT,
  );
  await run.close();
  return { verdict, answered: extraction.value !== null };
}

Deno.test("every suite's score gives the status ladder's format_valid: a status means the same in every suite", async () => {
  const wrong: string[] = [];
  // (status, in format?, answer extracted?) -> format_valid values seen
  const seen = new Map<string, Set<string>>();
  for (const c of CASES) {
    const { verdict: v, answered } = await verdictOf(c);
    if (v.status !== c.status || v.formatValid !== c.formatValid) {
      wrong.push(
        `${c.suite}, ${c.what}: got ${v.status}/${v.formatValid}, want ${c.status}/${c.formatValid}`,
      );
    }
    const group =
      `${v.status}, in format: ${c.inFormat}, answer extracted: ${answered}`;
    const values = seen.get(group) ?? new Set();
    values.add(String(v.formatValid));
    seen.set(group, values);
  }
  assert.deepEqual(wrong, []);
  for (const [group, values] of seen) {
    assert.equal(values.size, 1, `${group}: ${[...values].join(" and ")}`);
  }
  // Every status but error-from-the-runner is in the table.
  const statuses = new Set(CASES.map((c) => c.status));
  assert.deepEqual(STATUSES.filter((s) => !statuses.has(s)), []);
});

Deno.test("finishRow() makes the error row of a failed request in every suite, without asking the suite", async () => {
  for (const name of ["arithmetic", "ceval", "linalg", "code"]) {
    const asked: string[] = [];
    const suite = getSuite(name);
    const real = await suite.open({
      seed: 0,
      params: PARAMS[name] ?? {},
      baseDir: ".",
    });
    const run: SuiteRun = {
      ...real,
      extract: (q, c) => {
        asked.push("extract");
        return real.extract(q, c);
      },
      score: (judged, context) => {
        asked.push("score");
        return real.score(judged, context);
      },
    };
    const question = QUESTIONS[name]!;
    const template = { id: "t", description: "", render: () => [] };
    const row = await finishRow({
      runName: "r",
      model: {
        name: "m",
        provider: "sim",
        concurrency: 1,
        rpm: 0,
        tpm: 0,
        params: {},
      },
      item: {
        entry: {
          config: { name, params: PARAMS[name] ?? {} },
          suite,
          run,
          questions: [question],
          templates: [["t", template]],
        },
        question,
        templateId: "t",
        template,
        sample: 0,
      },
      messages: [],
      completion: {
        ...reply("", "error"),
        attempts: 3,
        error: { kind: "timeout", message: "timed out after 3 attempts" },
      },
      context: NO_CONTEXT,
      redact: (t) => t,
    });
    await real.close();
    assert.deepEqual(asked, [], name);
    assert.deepEqual(
      [
        row.status,
        row.score,
        row.correct,
        row.format_valid,
        row.extracted,
        row.extract_rule,
        row.error_kind,
        row.explanation,
      ],
      [
        "error",
        0,
        false,
        false,
        null,
        null,
        "timeout",
        "timed out after 3 attempts",
      ],
      name,
    );
  }
});
