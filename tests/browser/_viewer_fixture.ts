/**
 * Result rows of all four suites for the sample viewer's tests: two
 * models, some right and some wrong, each suite's own fields filled the
 * way its judge fills them; and a second run with some verdicts flipped.
 */
import type { ResultRow } from "../../lib/types.ts";

type Over = Partial<ResultRow> & Pick<ResultRow, "suite" | "question_id">;

/**
 * The messages a template would send for a question: a system message and
 * the question with an instruction after it. C-Eval's rows keep none, as
 * rows written before runs kept `prompt` do.
 */
export function promptOf(suite: string, question: string): string | null {
  if (suite === "ceval") return null;
  return JSON.stringify([
    { role: "system", content: `You are taking the ${suite} test.` },
    { role: "user", content: `${question}\n\nEnd with “Final answer:”.` },
  ]);
}

/** A row with every field, `over` on top. */
function row(run: string, model: string, over: Over): ResultRow {
  const template = over.template ?? "direct";
  const sample = over.sample ?? 0;
  const status = over.status ?? "correct";
  return {
    key: `${model}|${over.question_id}|${template}|${sample}`,
    run,
    model,
    template,
    sample,
    dims: {},
    question: "",
    prompt: promptOf(over.suite, over.question ?? ""),
    expected: "",
    status,
    correct: status === "correct",
    score: status === "correct" ? 1 : 0,
    format_valid: status !== "parse_error",
    error_class: null,
    rel_error: null,
    extracted: null,
    extract_rule: null,
    response: "",
    reasoning: null,
    finish_reason: "stop",
    prompt_tokens: 20,
    completion_tokens: 10,
    latency_ms: 300,
    attempts: 1,
    cached: false,
    error_kind: null,
    error_message: null,
    explanation: null,
    metrics: {},
    transcript: null,
    finished_at: "2026-01-01T00:00:00.000Z",
    ...over,
  };
}

/** Arithmetic: `a + b` with `good` deciding whether the model adds right. */
function arithmetic(run: string, model: string, i: number, good: boolean) {
  const a = 40 + i * 7, b = 25 + i * 3;
  const sum = a + b;
  const got = good ? sum : sum - 2;
  const level = i % 2 ? "d2" : "d3";
  // The good model's one miss hedged; the extraction judge read it.
  const judged = model === "sim-good" && !good;
  return row(run, model, {
    suite: "arithmetic",
    question_id: `arithmetic/add/${level}/s1/${i}/en`,
    template: i % 3 ? "direct" : "cot",
    dims: { family: i % 4 ? "add" : "mul", level, digits: 2, carries: i % 2 },
    question: `What is ${a} + ${b}?`,
    expected: String(sum),
    status: good ? "correct" : "wrong",
    error_class: good ? null : "digit",
    rel_error: good ? 0 : 2 / sum,
    extracted: String(got),
    extract_rule: judged ? "judge" : "answer_marker",
    response: judged
      ? `Let's add.\nThe answer is ${got} or maybe ${sum}.`
      : `Let's add.\n${a} + ${b} = ${got}\nFinal answer: ${got}`,
    explanation: `expected ${sum}, got ${got} (${
      judged ? "judge" : "answer_marker"
    })`,
    metrics: judged
      ? { rule_extract: `ambiguous: ${got} | ${sum}`, judge_answer: `${got}` }
      : {},
    latency_ms: 200 + i * 10,
    completion_tokens: 10 + i,
  });
}

function linalg(run: string, model: string, i: number, good: boolean) {
  return row(run, model, {
    suite: "linalg",
    question_id: `linalg/linalgbench/C_3x3_det_00${i}/latex`,
    template: "paper",
    dims: { task: "determinant", size: 3, format: "latex", tier: "recursive" },
    question:
      `Find the determinant of the 3×3 matrix A.\n\nA = \\begin{bmatrix} ${i} & 5 & 1 \\\\ -2 & -3 & 9 \\\\ 1 & 1 & -6 \\end{bmatrix}`,
    expected: String(-41 + i),
    status: good ? "correct" : "wrong",
    error_class: good ? null : "sign_error",
    extracted: good ? String(-41 + i) : String(41 - i),
    extract_rule: "boxed",
    response: `Expanding by cofactors.\nThe answer is $\\boxed{${
      good ? -41 + i : 41 - i
    }}$`,
    explanation: good
      ? null
      : "stage2:sign_error: the sign of the answer is flipped",
    metrics: good ? {} : { forensic_stage: 2 },
  });
}

function ceval(run: string, model: string, i: number, good: boolean) {
  const picked = good ? "B" : "C";
  return row(run, model, {
    suite: "ceval",
    question_id: `ceval/advanced_mathematics/val/${i}`,
    template: "few_shot",
    dims: {
      subject: "advanced_mathematics",
      subject_zh: "高等数学",
      category: "STEM",
      level: "college",
    },
    question: `函数 f(x) = x² 在 x = ${i} 处的导数值为____\nA. ${i}\nB. ${
      2 * i
    }\nC. ${i * i}\nD. 1`,
    expected: "B",
    status: good ? "correct" : "wrong",
    error_class: good ? null : "wrong_choice",
    extracted: picked,
    extract_rule: "answer_is_zh",
    response: `答案：${picked}`,
    explanation: good ? `chose B` : `chose ${picked}, key B`,
  });
}

function code(run: string, model: string, i: number, good: boolean) {
  const program = good
    ? 'function balancedBrackets(s) {\n  const stack = [];\n  for (const ch of s) {\n    if (ch === "(") stack.push(ch);\n    else if (ch === ")" && !stack.pop()) return false;\n  }\n  return stack.length === 0;\n}\n'
    : "function balancedBrackets(s) {\n  return true;\n}\n";
  const response = "Here is the function:\n\n```javascript\n" + program + "```";
  const start = response.indexOf("```");
  return row(run, model, {
    suite: "code",
    question_id: `code/bank/balanced_brackets/javascript`,
    sample: i,
    dims: {
      topic: "stack_queue",
      difficulty: "easy",
      language: "javascript",
      complexity: "O(n)",
      source: "bank",
      problem: "balanced_brackets",
    },
    question: "Return true when the brackets of `s` are balanced.",
    expected:
      "[true,false,true,true,false,false,false,false,true,true,false,false,true]",
    status: good ? "correct" : "wrong",
    error_class: good ? null : "wrong_output",
    extracted: program,
    extract_rule: "fence_only",
    response,
    explanation: good
      ? `all 13 tests pass; measured O(n) [fence_only: the \`javascript\` block at ${start}–${response.length} (javascript)]`
      : `6 of 13 tests fail (first: test 1) [fence_only: the \`javascript\` block at ${start}–${response.length} (javascript)]`,
    metrics: {
      code_language: "javascript",
      sandbox_backend: "deno",
      sandbox_status: "ok",
      tests_passed: good ? 1 : 0,
      functional_pass_rate: good ? 1 : 0.5,
      edge_pass_rate: good ? 1 : 0.4,
      complexity_measured: good ? "O(n)" : null,
      complexity_reason: good ? "O(n) fits with relative error 0.02" : null,
      large_ms: good ? 0.71 : null,
      time_tests_ms: 120.5,
    },
  });
}

/** Which (suite index, question) the weak model gets wrong in run A. */
const weakWrong = (s: number, i: number) => (i + s) % 3 === 0;

/**
 * Run A's rows: four suites × two models (`sim-good` right on all but a
 * few, `sim-weak` wrong on every third question); questions 0–5 each.
 */
export function viewerRows(run = "run-a", flip = false): ResultRow[] {
  const makers = [arithmetic, linalg, ceval, code];
  const rows: ResultRow[] = [];
  for (const [s, make] of makers.entries()) {
    for (let i = 0; i < 6; i++) {
      const goodOk = !(s === 0 && i === 5);
      let weakOk = !weakWrong(s, i);
      // Run B fixes the weak model's first wrong question of each suite and
      // breaks its question 1 when that was right.
      if (flip && i === [0, 2, 1, 0][s]) weakOk = true;
      else if (flip && i === 4 && weakOk) weakOk = false;
      rows.push(make(run, "sim-good", i, goodOk));
      rows.push(make(run, "sim-weak", i, weakOk));
    }
  }
  return rows;
}
