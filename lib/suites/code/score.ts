/**
 * Scoring model-written code: the candidate runs in the sandbox (no
 * permissions, time and memory limits) on every functional and edge test
 * and on the largest large input; outputs are compared here, in the
 * parent, with the problem's rule — nothing the candidate prints or
 * returns from inside can pass for a result. Functionally correct code then
 * has its time complexity measured, and every extracted program its
 * quality. HumanEval problems run their own `check()` (see the sandbox's
 * note on always-equal objects).
 *
 * @module
 */
import type { Completion, DimValue, Extraction, Verdict } from "../../types.ts";
import { statusBeforeComparing } from "../../judge/status.ts";
import type { RunResult } from "../../sandbox/mod.ts";
import { runHumanEval } from "../../sandbox/mod.ts";
import {
  type CodeProblem,
  compareOutput,
  COMPLEXITY_CLASSES,
  type ComplexityClass,
  largeInput,
} from "./bank/mod.ts";
import { type CodeExtraction, extractCode } from "./extract.ts";
import { measureQuality } from "./quality/mod.ts";
import type { CodeParams } from "./params.ts";
import { type CodeQuestion, PROBLEMS } from "./questions.ts";
import { suiteSandbox } from "./_sandbox.ts";

type Metrics = Record<string, DimValue>;

/**
 * Whether a measured class meets a required one (n log n counts for n: the
 * fit cannot tell them apart reliably), and whether it is at least as good
 * (optimal).
 *
 * @param measured The class the sandbox measured (`"unknown"` never meets).
 * @param required The problem's required class.
 * @returns `met` and `optimal`.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { meetsComplexity } from "./score.ts";
 * assert.deepEqual(meetsComplexity("O(n log n)", "O(n)"), { met: true, optimal: false });
 * assert.deepEqual(meetsComplexity("O(log n)", "O(n)"), { met: true, optimal: true });
 * assert.deepEqual(meetsComplexity("O(n^2)", "O(n)"), { met: false, optimal: false });
 * assert.deepEqual(meetsComplexity("unknown", "O(n)"), { met: false, optimal: false });
 * ```
 */
export function meetsComplexity(
  measured: string,
  required: ComplexityClass,
): { met: boolean; optimal: boolean } {
  const order = COMPLEXITY_CLASSES as readonly string[];
  const m = order.indexOf(measured);
  const r = order.indexOf(required);
  if (m < 0 || r < 0) return { met: false, optimal: false };
  const nearN = required === "O(n)" && measured === "O(n log n)";
  return { met: m <= r || nearN, optimal: m <= r };
}

const complexityMemo = new Map<string, Promise<string>>();
const referenceLarge = new Map<
  string,
  Promise<{ ms: number; value: unknown } | null>
>();

function memoKey(...parts: string[]): string {
  return parts.join("\u0000");
}

/** The reference's output and time on the largest large input, per (problem, language). */
function referenceOnLarge(
  problem: CodeProblem,
  language: "python" | "javascript",
  args: unknown[],
  key: string,
): Promise<{ ms: number; value: unknown } | null> {
  let out = referenceLarge.get(key);
  if (out === undefined) {
    out = suiteSandbox().runCode({
      language,
      code: problem.reference[language],
      entry: problem.entry[language],
      calls: [args],
      timeoutMs: Math.max(30_000, problem.large.timeLimitMs * 10),
      memoryMb: 512,
    }).then((r) => {
      const c = r.results[0];
      return r.status === "ok" && c?.ok ? { ms: c.ms, value: c.value } : null;
    });
    referenceLarge.set(key, out);
  }
  return out;
}

function failureClass(run: RunResult): string {
  return run.status === "ok" ? "wrong_answer" : run.status;
}

async function scoreBank(
  question: CodeQuestion,
  problem: CodeProblem,
  code: string,
  entry: string,
  params: CodeParams,
  metrics: Metrics,
): Promise<Pick<Verdict, "status" | "score" | "errorClass" | "explanation">> {
  const p = question.payload!;
  const language = p.language;
  const sandbox = suiteSandbox();
  const tests = problem.tests;
  const run = await sandbox.runCode({
    language,
    code,
    entry,
    calls: tests.map((t) => t.args),
    timeoutMs: params.timeoutMs,
    memoryMb: params.memoryMb,
  });
  metrics["sandbox_status"] = run.status;
  const expected = p.expected ?? [];
  const pass = tests.map((t, i) => {
    const got = run.results[i];
    return got !== undefined && got.ok &&
      compareOutput(
        problem.compare,
        t.args,
        expected[i],
        got.value,
        problem.checker,
      );
  });
  const share = (kind: "functional" | "edge") => {
    const idx = tests.flatMap((t, i) => t.kind === kind ? [i] : []);
    return idx.length === 0
      ? null
      : idx.filter((i) => pass[i]).length / idx.length;
  };
  metrics["tests_passed"] = pass.filter(Boolean).length /
    Math.max(1, tests.length);
  metrics["functional_pass_rate"] = share("functional");
  metrics["edge_pass_rate"] = share("edge");
  const correct = pass.every(Boolean) && tests.length > 0;

  // The large input: the right output within the problem's time limit.
  const n = problem.large.sizes.at(-1) ?? 1000;
  const args = largeInput(problem, n, p.inputSeed);
  const reference = await referenceOnLarge(
    problem,
    language,
    args,
    memoKey(problem.id, language, String(p.inputSeed)),
  );
  metrics["reference_large_ms"] = reference?.ms ?? null;
  const big = await sandbox.runCode({
    language,
    code,
    entry,
    calls: [args],
    timeoutMs: problem.large.timeLimitMs * 3 + 2_000,
    memoryMb: params.memoryMb,
  });
  const bigCall = big.results[0];
  const largeOk = big.status === "ok" && bigCall !== undefined && bigCall.ok &&
    bigCall.ms <= problem.large.timeLimitMs && reference !== null &&
    compareOutput(
      problem.compare,
      args,
      reference.value,
      bigCall.value,
      problem.checker,
    );
  metrics["large_pass"] = largeOk;
  metrics["large_ms"] = bigCall?.ok ? bigCall.ms : null;
  metrics["perf_ratio"] = largeOk && reference !== null && bigCall?.ok
    ? Math.min(1, reference.ms / Math.max(bigCall.ms, 1e-3))
    : null;

  if (correct && params.complexity) {
    const key = memoKey(language, entry, code);
    let measured = complexityMemo.get(key);
    if (measured === undefined) {
      measured = sandbox.measureComplexity({
        language,
        code,
        entry,
        input: (size: number) => largeInput(problem, size, p.inputSeed),
        sizes: problem.large.sizes,
      }).then((r) => r.class, () => "unknown");
      complexityMemo.set(key, measured);
    }
    const cls = await measured;
    const { met, optimal } = meetsComplexity(cls, problem.complexity);
    metrics["complexity_measured"] = cls;
    metrics["complexity_met"] = met;
    metrics["complexity_optimal"] = optimal;
  }
  if (correct) {
    return {
      status: "correct",
      score: 1,
      explanation: `all ${tests.length} tests pass${
        metrics["complexity_measured"]
          ? `; measured ${metrics["complexity_measured"]}`
          : ""
      }`,
    };
  }
  const failed = tests.flatMap((_, i) => pass[i] ? [] : [i]);
  return {
    status: "wrong",
    score: 0,
    errorClass: failureClass(run),
    explanation: `${failed.length} of ${tests.length} tests fail (first: test ${
      failed[0]
    }${run.status === "ok" ? "" : `, sandbox ${run.status}`})`,
  };
}

async function scoreHumanEval(
  question: CodeQuestion,
  code: string,
  metrics: Metrics,
): Promise<Pick<Verdict, "status" | "score" | "errorClass" | "explanation">> {
  const p = question.payload!;
  const [outcome] = await runHumanEval(
    [{
      task_id: p.problemId,
      prompt: p.prompt ?? "",
      canonical_solution: "",
      test: p.test ?? "",
      entry_point: p.entry,
    }],
    ["\n" + code + "\n"],
    { sandbox: suiteSandbox(), timeoutMs: 30_000 },
  );
  const passed = outcome?.passed === true;
  metrics["tests_passed"] = passed ? 1 : 0;
  metrics["functional_pass_rate"] = passed ? 1 : 0;
  return passed
    ? { status: "correct", score: 1, explanation: "check() passes" }
    : {
      status: "wrong",
      score: 0,
      errorClass: /timed? ?out/i.test(outcome?.error ?? "")
        ? "timeout"
        : "wrong_answer",
      explanation: `check() fails: ${(outcome?.error ?? "").slice(0, 300)}`,
    };
}

/**
 * Scores one completion: extraction, tests in the sandbox, the large
 * input, complexity and quality, as verdict metrics.
 *
 * @param question A code question.
 * @param completion The model's reply.
 * @param extraction The suite's extraction (the code, or null).
 * @param params The suite's params.
 * @param found The suite's code extraction of this completion, when it
 *   kept one (saves parsing the reply again).
 * @returns The verdict; never throws for a bad candidate.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { CODE_PARAMS, scoreCode } from "./mod.ts";
 * // A failed request is scored as an error without running anything.
 * const verdict = await scoreCode(
 *   { id: "q", suite: "code", text: "", answer: { kind: "text", value: "[]" }, dims: {} },
 *   { text: "", reasoning: null, finishReason: "error", usage: { promptTokens: 0, completionTokens: 0 }, latencyMs: 0, attempts: 3, error: { kind: "timeout", message: "timed out" } },
 *   { value: null, rule: "none", span: null, candidates: 0 },
 *   CODE_PARAMS.parse({}),
 * );
 * assert.equal(verdict.status, "error");
 * assert.equal(verdict.formatValid, false);
 * ```
 */
export async function scoreCode(
  question: CodeQuestion,
  completion: Completion,
  extraction: Extraction,
  params: CodeParams,
  found?: CodeExtraction,
): Promise<Verdict> {
  const ladder = statusBeforeComparing(completion, extraction);
  if (ladder !== null) {
    return {
      status: ladder,
      score: 0,
      formatValid: false,
      explanation: ladder === "error"
        ? `request failed: ${completion.error?.message}`
        : ladder === "truncated"
        ? "the reply hit the token limit before the code was complete"
        : "no code found in the reply",
    };
  }
  const p = question.payload!;
  found ??= extractCode(completion.text, {
    language: p.language,
    entry: p.entry,
  });
  const code = found.code ?? extraction.value ?? "";
  const language = found.language ?? p.language;
  const metrics: Metrics = {
    code_language: language,
    sandbox_status: null,
    tests_passed: 0,
    functional_pass_rate: 0,
    edge_pass_rate: p.source === "bank" ? 0 : null,
    large_pass: p.source === "bank" ? false : null,
    large_ms: null,
    reference_large_ms: null,
    perf_ratio: null,
    complexity_measured: null,
    complexity_met: null,
    complexity_optimal: null,
    lines: null,
    cyclomatic: null,
    nesting: null,
    lint_findings: null,
  };
  if (params.quality) {
    const q = await measureQuality(code, language).catch(() => null);
    if (q !== null) {
      metrics["lines"] = q.lines;
      metrics["cyclomatic"] = q.cyclomatic;
      metrics["nesting"] = q.nesting;
      metrics["lint_findings"] = q.lint_findings;
    }
  }
  const formatValid = found.rule.startsWith("fence");
  if (language !== p.language) {
    return {
      status: "wrong",
      score: 0,
      formatValid,
      errorClass: "wrong_language",
      explanation:
        `asked for ${p.language}, the reply is ${language} (${found.rule})`,
      metrics,
    };
  }
  const entry = found.entry ?? p.entry;
  let outcome;
  if (p.source === "humaneval") {
    outcome = await scoreHumanEval(question, code, metrics);
  } else {
    const problem = PROBLEMS.get(p.problemId);
    if (problem === undefined) {
      return {
        status: "error",
        score: 0,
        formatValid,
        explanation:
          `Cannot score: code problem ${p.problemId} is not loaded in this process`,
        metrics,
      };
    }
    outcome = await scoreBank(question, problem, code, entry, params, metrics);
  }
  return {
    ...outcome,
    formatValid,
    explanation: `${outcome.explanation ?? ""} [${found.rule}${
      found.reason ? `: ${found.reason}` : ""
    }]`,
    metrics,
  };
}
