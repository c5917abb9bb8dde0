import assert from "node:assert/strict";
import pl from "nodejs-polars";
import {
  complexityHeatmap,
  languageChart,
  languageComparison,
  passAtKChart,
  robustnessChart,
  scoreBreakdownChart,
  weightingRankChart,
} from "../../../lib/suites/code/report.ts";
import { codeSections } from "../../../lib/suites/code/sections.ts";

/**
 * A synthetic code-suite frame: 3 models × 4 problems × 2 languages × 5
 * samples, with every verdict metric, and a weaker model failing more.
 */
function codeFrame(): pl.DataFrame {
  const models = ["sim-strong", "sim-average", "sim-weak"];
  const problems = [
    { problem: "two_sum", topic: "arrays", difficulty: "easy", cx: "O(n)" },
    {
      problem: "merge_intervals",
      topic: "intervals",
      difficulty: "medium",
      cx: "O(n log n)",
    },
    { problem: "lis", topic: "dp", difficulty: "hard", cx: "O(n log n)" },
    {
      problem: "search",
      topic: "binary search",
      difficulty: "easy",
      cx: "O(log n)",
    },
  ];
  const rows: Record<string, unknown>[] = [];
  models.forEach((model, m) => {
    problems.forEach((p, j) => {
      for (const language of ["python", "javascript"]) {
        for (let sample = 0; sample < 5; sample++) {
          // Deterministic pattern: weaker models and harder problems fail more.
          const correct = (sample + j + (language === "python" ? 0 : 1)) %
                  (m + 2) === 0 || m === 0 && sample < 4;
          const naive = !correct ? false : (sample + m) % 3 === 0;
          rows.push({
            model,
            suite: "code",
            template: "direct",
            sample,
            problem: p.problem,
            source: "bank",
            topic: p.topic,
            difficulty: p.difficulty,
            complexity: p.cx,
            language,
            status: correct ? "correct" : "wrong",
            correct,
            functional_pass_rate: correct ? 1 : 0.4,
            edge_pass_rate: correct ? 1 : 0.25,
            large_pass: correct && !naive,
            perf_ratio: correct && !naive ? 0.9 - 0.2 * m : null,
            complexity_measured: correct ? (naive ? "O(n^2)" : p.cx) : null,
            complexity_met: correct ? !naive : null,
            complexity_optimal: correct ? !naive : null,
          });
        }
      }
    });
  });
  return pl.DataFrame(rows);
}

Deno.test("codeSections() renders every section with charts and tables", () => {
  const sections = codeSections(codeFrame());
  assert.deepEqual(sections.map((s) => s.title), [
    "pass@k (unbiased, per problem)",
    "Accuracy by topic and difficulty",
    "Complexity: required × measured",
    "Python against JavaScript",
    "Robustness: edge cases and large inputs",
    "Weighted score and weighting sensitivity",
  ]);
  for (const s of sections) {
    const html = s.parts.join("\n");
    assert.ok(html.length > 200, `${s.title} is empty`);
    assert.doesNotMatch(html, /Not shown for these rows/, s.title);
    assert.match(html, /<svg/, `${s.title} has no chart`);
  }
  const score = sections.at(-1)!.parts.join("");
  assert.match(score, /kendall_tau/);
  assert.match(score, /max_rank_change/);
  assert.match(sections[0]!.parts[1]!, /pass@5/);
});

Deno.test("codeSections() says what a frame without code columns lacks", () => {
  const frame = pl.DataFrame({
    model: ["m"],
    suite: ["code"],
    status: ["correct"],
    correct: [true],
  });
  const sections = codeSections(frame);
  const passK = sections.find((s) => s.title.startsWith("pass@k"))!;
  assert.match(
    passK.parts[0]!,
    /Skipped: this part needs problem, and these rows have no problem/,
  );
  // No language column: that section is left out rather than broken.
  assert.equal(sections.some((s) => s.title.includes("JavaScript")), false);
});

Deno.test("passAtKChart() draws one point per model and k", () => {
  const html = passAtKChart(codeFrame()).html;
  assert.equal(html.match(/<circle/g)?.length, 3 * 5);
});

Deno.test("complexityHeatmap() has one cell per (required, measured) pair", () => {
  const html = complexityHeatmap(codeFrame()).html;
  const cells = html.split('aria-label="cell"')[1]!.split("</g>")[0]!;
  // required O(log n), O(n), O(n log n); measured each own class or O(n^2).
  assert.equal(cells.match(/<rect/g)?.length, 6);
});

Deno.test("languageComparison() and languageChart() pair the languages per model", () => {
  const frame = codeFrame();
  const table = languageComparison(frame);
  assert.deepEqual(table.columns, ["model", "javascript", "python", "gap"]);
  for (const r of table.toRecords()) {
    assert.ok(
      Math.abs(Number(r.gap) - (Number(r.javascript) - Number(r.python))) <
        1e-12,
    );
  }
  assert.equal(languageChart(frame).html.match(/<circle/g)?.length, 6);
});

Deno.test("robustnessChart() and scoreBreakdownChart() draw a bar per model and measure", () => {
  const frame = codeFrame();
  const bars = (html: string) =>
    html.split('aria-label="bar"')[1]!.split('aria-label="rule"')[0]!
      .match(/<rect/g)?.length;
  assert.equal(bars(robustnessChart(frame).html), 3 * 3);
  assert.equal(bars(scoreBreakdownChart(frame).html), 3 * 4);
});

Deno.test("weightingRankChart() draws a dot per model and weighting", () => {
  const html = weightingRankChart(codeFrame()).html;
  assert.equal(html.match(/<circle/g)?.length, 3 * 5);
});
