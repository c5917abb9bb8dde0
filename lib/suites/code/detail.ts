/**
 * What the report's sample viewer shows of a code row: the sandbox's
 * verdict and the candidate's stderr, the tests (input, expected output
 * and, for the first failing ones, the returned value or error), the measured complexity with its timings, and the program's
 * span in the reply.
 *
 * @module
 */
import type {
  DetailPart,
  DetailValue,
  SampleDetail,
  SampleRow,
} from "../../report/viewer/mod.ts";
import { type CodeProblem, loadBank } from "./bank/mod.ts";

let bank: Promise<Map<string, CodeProblem>> | undefined;
/** The shipped problems by id, loaded once. */
function problems(): Promise<Map<string, CodeProblem>> {
  return bank ??= loadBank().then((all) => new Map(all.map((p) => [p.id, p])))
    .catch(() => new Map());
}

/** A metric as a detail value. */
const m = (row: SampleRow, name: string): DetailValue =>
  row.metrics[name] ?? null;

/** Milliseconds rounded for reading. */
const ms = (v: DetailValue) =>
  typeof v === "number" ? Math.round(v * 100) / 100 : v;

/**
 * The code suite's sample detail.
 *
 * @param row The row.
 * @returns Sandbox, tests, complexity and timing parts; the program's span.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { codeDetail } from "./detail.ts";
 * const fence = "`".repeat(3);
 * const d = await codeDetail({
 *   response: `Here:\n${fence}js\nfunction f(){}\n${fence}`, expected: "[true,false]",
 *   explanation: "1 of 2 tests fail (first: test 1) [fence_only: the `js` block at 6–31 (javascript)]",
 *   dims: { problem: "balanced_brackets", source: "bank", complexity: "O(n)" },
 *   metrics: { sandbox_status: "ok", complexity_measured: "O(n)", large_ms: 1.234,
 *     failing_tests: JSON.stringify([{ test: 1, returned: "true" }]) },
 * });
 * assert.deepEqual(d.span, [6, 31]);
 * const tests = d.parts.find((p) => p.title === "Tests");
 * assert.ok(tests && tests.kind === "table");
 * assert.equal(tests.rows[1]![4], "true"); // returned
 * assert.equal(tests.rows[1]![5], "first failing");
 * ```
 */
export async function codeDetail(row: SampleRow): Promise<SampleDetail> {
  const explanation = typeof row.explanation === "string"
    ? row.explanation
    : "";
  const parts: DetailPart[] = [{
    kind: "fields",
    title: "Sandbox",
    fields: [
      ["language", m(row, "code_language") ?? row.dims.language ?? null],
      ["backend", m(row, "sandbox_backend")],
      ["isolation", m(row, "sandbox_isolation")],
      ["status", m(row, "sandbox_status")],
      ["tests passed (all)", m(row, "tests_passed")],
      ["functional pass rate", m(row, "functional_pass_rate")],
      ["edge pass rate", m(row, "edge_pass_rate")],
      ["stderr", m(row, "sandbox_stderr")],
    ],
  }];
  // The first failing tests' returned values or errors (the judge keeps 5).
  const returned = new Map<number, string>();
  try {
    const list = JSON.parse(String(m(row, "failing_tests") ?? "[]"));
    for (const f of Array.isArray(list) ? list : []) {
      returned.set(
        Number(f.test),
        typeof f.error === "string" ? `error: ${f.error}` : String(f.returned),
      );
    }
  } catch { /* a row from before the judge kept them */ }
  let expected: unknown[] = [];
  try {
    const v = JSON.parse(String(row.expected ?? "[]"));
    if (Array.isArray(v)) expected = v;
  } catch { /* a HumanEval key is not a list */ }
  const failing = Number(/first: test (\d+)/.exec(explanation)?.[1] ?? -1);
  const problem = row.dims.source === "bank"
    ? (await problems()).get(String(row.dims.problem))
    : undefined;
  const n = Math.max(expected.length, problem?.tests.length ?? 0);
  if (n > 0) {
    parts.push({
      kind: "table",
      title: "Tests",
      columns: ["#", "kind", "input", "expected", "returned", ""],
      rows: Array.from({ length: n }, (_, i) => {
        const t = problem?.tests[i];
        return [
          i,
          t?.kind ?? null,
          t ? JSON.stringify(t.args) : null,
          i < expected.length ? JSON.stringify(expected[i]) : null,
          returned.get(i) ?? null,
          i === failing ? "first failing" : returned.has(i) ? "failing" : "",
        ];
      }),
      code: true,
    });
  }
  parts.push({
    kind: "fields",
    title: "Complexity and timings",
    fields: [
      ["declared", row.dims.complexity ?? null],
      ["measured", m(row, "complexity_measured")],
      ["met", m(row, "complexity_met")],
      ["fit", m(row, "complexity_reason")],
      ["large input passed", m(row, "large_pass")],
      ["large input (ms)", ms(m(row, "large_ms"))],
      ["reference on it (ms)", ms(m(row, "reference_large_ms"))],
      ["perf ratio", m(row, "perf_ratio")],
      ["judging tests (ms)", ms(m(row, "time_tests_ms"))],
      ["judging large (ms)", ms(m(row, "time_large_ms"))],
      ["judging complexity (ms)", ms(m(row, "time_complexity_ms"))],
      ["judge cached", m(row, "judge_cached")],
    ],
  });
  const at = /block at (\d+)[–-](\d+)/.exec(explanation);
  return at ? { parts, span: [Number(at[1]), Number(at[2])] } : { parts };
}
