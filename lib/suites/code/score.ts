/**
 * Scoring model-written code: the candidate runs in the sandbox (no
 * permissions, time and memory limits) on every functional and edge test
 * and on the largest large input, in one request (`judge.ts`); outputs
 * are compared here, in the parent, with the problem's rule — nothing the
 * candidate prints or returns from inside can pass for a result.
 * Functionally correct code then has its time complexity measured, and
 * every extracted program its quality. HumanEval problems run their own
 * `check()` (see the sandbox's note on always-equal objects). Identical
 * programs are judged once when the sweep has its cache (`verdicts.ts`).
 *
 * @module
 */
import type { DimValue, Extraction, Judged, Verdict } from "../../types.ts";
import {
  errorVerdict,
  formatValidFor,
  statusBeforeComparing,
} from "../../judge/status.ts";
import { runHumanEval } from "../../sandbox/mod.ts";
import type { ScoreCache } from "../types.ts";
import { type CodeExtraction, extractCode } from "./extract.ts";
import { type BankJudgement, judgeBank } from "./judge.ts";
import { measureQuality } from "./quality/mod.ts";
import type { CodeParams } from "./params.ts";
import type { CodePayload, CodeQuestion } from "./questions.ts";
import type { CodeRunState } from "./run.ts";
import { cachedVerdict, normaliseCode, verdictKey } from "./verdicts.ts";

export { meetsComplexity } from "./judge.ts";

type Metrics = Record<string, DimValue>;

/**
 * The code suite's extraction: the program as the value, and the code
 * extraction it came from (null when the reply was not searched).
 */
export interface CodeRead extends Extraction {
  /** The code extraction of the reply. */
  found: CodeExtraction | null;
}

/** What scoring a code reply uses of its run. */
export interface CodeScoreRun {
  /** The run's params. */
  params: CodeParams;
  /** The run's sandbox, problems, inputs and verdicts. */
  state: CodeRunState;
  /** The sweep's score cache, absent without one. */
  cache?: ScoreCache | undefined;
}

function isJudgement(v: unknown): v is BankJudgement {
  const j = v as BankJudgement | null;
  return typeof j === "object" && j !== null &&
    (j.status === "correct" || j.status === "wrong") &&
    typeof j.explanation === "string" && typeof j.metrics === "object" &&
    j.metrics !== null;
}

/** The metrics of a verdict that came from the cache: no judging time of its own. */
function fromCache(j: BankJudgement): BankJudgement {
  const metrics = { ...j.metrics };
  for (const k of Object.keys(metrics)) {
    if (k.startsWith("time_") && k !== "time_quality_ms") metrics[k] = null;
  }
  return { ...j, metrics };
}

async function scoreBank(
  question: CodeQuestion,
  code: string,
  entry: string,
  { params, state, cache }: CodeScoreRun,
): Promise<BankJudgement | string> {
  const p = question.payload!;
  const problem = state.problems.get(p.problemId);
  if (problem === undefined) {
    return `Cannot score: code problem ${p.problemId} is not among this run's questions`;
  }
  const sandbox = state.sandbox();
  const backend = await sandbox.backend(p.language);
  const key = verdictKey([
    problem.id,
    problem.version,
    p.language,
    backend.backend,
    backend.detail,
    p.inputSeed,
    params.complexity,
    params.timeoutMs,
    params.memoryMb,
    entry,
    normaliseCode(code),
  ]);
  const { value, cached } = await cachedVerdict({
    key,
    memo: state.verdicts,
    store: cache,
    judge: () =>
      judgeBank(code, entry, {
        sandbox,
        problem,
        language: p.language,
        expected: p.expected ?? [],
        inputSeed: p.inputSeed,
        timeoutMs: params.timeoutMs,
        memoryMb: params.memoryMb,
        complexity: params.complexity,
        inputs: state.inputs,
      }),
    valid: isJudgement,
  });
  const judged = cached ? fromCache(value) : value;
  judged.metrics["judge_cached"] = cached;
  return judged;
}

async function scoreHumanEval(
  question: CodeQuestion,
  code: string,
  { state, cache }: CodeScoreRun,
): Promise<BankJudgement> {
  const p = question.payload!;
  const sandbox = state.sandbox();
  const backend = await sandbox.backend("python");
  const key = verdictKey([
    "humaneval",
    p.problemId,
    p.prompt ?? "",
    p.test ?? "",
    backend.backend,
    backend.detail,
    normaliseCode(code),
  ]);
  const judge = async (): Promise<BankJudgement> => {
    const t0 = performance.now();
    const [outcome] = await runHumanEval(
      [{
        task_id: p.problemId,
        prompt: p.prompt ?? "",
        canonical_solution: "",
        test: p.test ?? "",
        entry_point: p.entry,
      }],
      ["\n" + code + "\n"],
      { sandbox, timeoutMs: 30_000 },
    );
    const passed = outcome?.passed === true;
    const metrics: Metrics = {
      sandbox_backend: backend.backend,
      sandbox_isolation: backend.isolation ?? null,
      tests_passed: passed ? 1 : 0,
      functional_pass_rate: passed ? 1 : 0,
      time_tests_ms: performance.now() - t0,
    };
    const judged: BankJudgement = passed
      ? { status: "correct", explanation: "check() passes", metrics }
      : {
        status: "wrong",
        errorClass: /timed? ?out/i.test(outcome?.error ?? "")
          ? "timeout"
          : "wrong_answer",
        explanation: `check() fails: ${(outcome?.error ?? "").slice(0, 300)}`,
        metrics,
      };
    return judged;
  };
  const { value, cached } = await cachedVerdict({
    key,
    memo: state.verdicts,
    store: cache,
    judge,
    valid: isJudgement,
  });
  const judged = cached ? fromCache(value) : value;
  judged.metrics["judge_cached"] = cached;
  return judged;
}

/**
 * Scores one completion: extraction, tests in the sandbox, the large
 * input, complexity and quality, as verdict metrics. The status follows
 * the shared ladder (`lib/judge/status.ts`; a failed request never gets
 * here); `error` only when the problem is not loaded. `formatValid`
 * follows the ladder's rule; the format check is a fenced code block.
 *
 * @param question A code question.
 * @param completion The model's reply.
 * @param extraction The suite's extraction: the code (or null) and the
 *   code extraction it came from (`found`, which saves parsing the reply
 *   again; null to parse it here).
 * @param run The run's params and state, and the sweep's score cache
 *   (`ScoreContext.cache`): identical programs are then judged once;
 *   without it every sample is judged.
 * @returns The verdict; never throws for a bad candidate.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { CODE_PARAMS, CodeRunState, scoreCode } from "./mod.ts";
 * // A reply without code is a parse error, judged without running anything.
 * const verdict = await scoreCode({
 *   question: { id: "q", suite: "code", text: "", answer: { kind: "text", value: "[]" }, dims: {} },
 *   completion: { text: "I would use a stack.", reasoning: null, finishReason: "stop", usage: { promptTokens: 1, completionTokens: 5 }, latencyMs: 0, attempts: 1 },
 *   extraction: { value: null, rule: "none", span: null, candidates: 0, found: null },
 * }, { params: CODE_PARAMS.parse({}), state: new CodeRunState({ python: "auto", concurrency: 1 }) });
 * assert.equal(verdict.status, "parse_error");
 * assert.equal(verdict.formatValid, false);
 * ```
 */
export async function scoreCode(
  { question, completion, extraction }: Judged<CodePayload, CodeRead>,
  run: CodeScoreRun,
): Promise<Verdict> {
  const { params } = run;
  const p = question.payload!;
  // The judge's reading of a reply carries no code extraction: read it.
  const read = async () =>
    extraction.found ?? await extractCode(completion.text, {
      language: p.language,
      entry: p.entry,
      python: run.state.python(),
    });
  const ladder = statusBeforeComparing(completion, extraction);
  if (ladder !== null) {
    // Only a kept answer's format is asked about.
    const found = extraction.value === null ? null : await read();
    return {
      status: ladder,
      score: 0,
      formatValid: formatValidFor({
        status: ladder,
        extraction,
        inFormat: () => found?.rule.startsWith("fence") ?? false,
      }),
      explanation: ladder === "truncated"
        ? "the reply hit the token limit before the code was complete"
        : "no code found in the reply",
    };
  }
  const found = await read();
  const fenced = () => found.rule.startsWith("fence");
  const code = found.code ?? extraction.value ?? "";
  const language = found.language ?? p.language;
  const metrics: Metrics = {
    code_language: language,
    sandbox_backend: null,
    sandbox_isolation: null,
    sandbox_status: null,
    tests_passed: 0,
    functional_pass_rate: 0,
    edge_pass_rate: p.source === "bank" ? 0 : null,
    large_pass: p.source === "bank" ? false : null,
    large_ms: null,
    reference_large_ms: null,
    perf_ratio: null,
    failing_tests: null,
    sandbox_stderr: null,
    complexity_measured: null,
    complexity_met: null,
    complexity_optimal: null,
    complexity_reason: null,
    lines: null,
    cyclomatic: null,
    nesting: null,
    lint_findings: null,
    judge_cached: null,
    time_tests_ms: null,
    time_large_ms: null,
    time_complexity_ms: null,
    time_quality_ms: null,
  };
  if (params.quality) {
    const q0 = performance.now();
    const q = await measureQuality(code, language).catch(() => null);
    metrics["time_quality_ms"] = performance.now() - q0;
    if (q !== null) {
      metrics["lines"] = q.lines;
      metrics["cyclomatic"] = q.cyclomatic;
      metrics["nesting"] = q.nesting;
      metrics["lint_findings"] = q.lint_findings;
    }
  }
  if (language !== p.language) {
    return {
      status: "wrong",
      score: 0,
      formatValid: formatValidFor({
        status: "wrong",
        extraction,
        inFormat: fenced,
      }),
      errorClass: "wrong_language",
      explanation:
        `asked for ${p.language}, the reply is ${language} (${found.rule})`,
      metrics,
    };
  }
  const entry = found.entry ?? p.entry;
  const outcome = p.source === "humaneval"
    ? await scoreHumanEval(question, code, run)
    : await scoreBank(question, code, entry, run);
  if (typeof outcome === "string") return { ...errorVerdict(outcome), metrics };
  Object.assign(metrics, outcome.metrics);
  const verdict: Verdict = {
    status: outcome.status,
    score: outcome.status === "correct" ? 1 : 0,
    formatValid: formatValidFor({
      status: outcome.status,
      extraction,
      inFormat: fenced,
    }),
    explanation: `${outcome.explanation} [${found.rule}${
      found.reason ? `: ${found.reason}` : ""
    }]`,
    metrics,
  };
  if (outcome.errorClass !== undefined) verdict.errorClass = outcome.errorClass;
  return verdict;
}
