import assert from "node:assert/strict";
import {
  createReporter,
  formatProgressLine,
  type SweepProgress,
} from "../../lib/runner/mod.ts";

const at = (done: number, elapsedSeconds: number): SweepProgress => ({
  done,
  total: 100,
  skipped: 0,
  errors: 1,
  errorsByKind: { rate_limit: 1 },
  rowsPerSecond: done / elapsedSeconds,
  etaSeconds: (100 - done) / (done / elapsedSeconds),
  elapsedSeconds,
});

Deno.test("createReporter('lines') prints at most one line per 5 s and a final line", async () => {
  const lines: string[] = [];
  const reporter = await createReporter("lines", (line) => lines.push(line));
  reporter.update(at(10, 1));
  reporter.update(at(20, 2));
  reporter.update(at(60, 6.5));
  reporter.stop(at(100, 9));
  assert.equal(lines.length, 3);
  assert.match(lines[0]!, /^\[sweep\] 10\/100/);
  assert.match(lines[1]!, /^\[sweep\] 60\/100/);
  assert.match(lines[2]!, /^\[sweep\] done: 100\/100/);
  assert.match(lines[2]!, /rate_limit 1/);
});

Deno.test("formatProgressLine() counts resumed rows as stored and shows the ETA", () => {
  const line = formatProgressLine({ ...at(30, 3), skipped: 20 });
  assert.match(line, /^50\/100 \(50\.0%\) 10\.0 rows\/s, ETA 7s/);
});

Deno.test("runSweep() reports the judging phase while replies are in and rows are still scored", async () => {
  const { runSweep } = await import("../../lib/runner/mod.ts");
  const { phaseOf } = await import("../../lib/runner/progress.ts");
  const { SweepConfigSchema } = await import("../../lib/config/schema.ts");
  const out = await Deno.makeTempDir();
  try {
    const questions = [0, 1, 2].map((i) => ({
      id: `q${i}`,
      suite: "slow",
      text: "1+1",
      answer: { kind: "rational" as const, value: "2" },
      dims: {},
    }));
    const { defineSuite } = await import("../../lib/suites/define.ts");
    const suite = defineSuite({
      name: "slow",
      description: "",
      questions: () => questions,
      templates: [{
        id: "direct",
        description: "",
        render: (q) => [{ role: "user" as const, content: q.text }],
      }],
      extract: () => ({ value: "2", rule: "all", span: null, candidates: 1 }),
      // Scoring takes a while after the reply, as the code suite's sandbox does.
      score: async () => {
        await new Promise((r) => setTimeout(r, 400));
        return { status: "correct" as const, score: 1, formatValid: true };
      },
    });
    const config = SweepConfigSchema.parse({
      outputDir: out,
      cache: false,
      models: [{ name: "m", provider: "sim" }],
      suites: [{ name: "slow" }],
    });
    const phases: string[] = [];
    await runSweep(config, {
      suites: [suite as never],
      progress: (p) => phases.push(phaseOf(p)),
      createProvider: (m) => ({
        name: m.name,
        complete: () =>
          Promise.resolve({
            text: "2",
            reasoning: null,
            finishReason: "stop" as const,
            usage: { promptTokens: 1, completionTokens: 1 },
            latencyMs: 0,
            attempts: 1,
          }),
      }),
    });
    assert.ok(phases.includes("judging, 3 rows left"), phases.join(" | "));
    assert.equal(phases.at(-1), "");
  } finally {
    await Deno.remove(out, { recursive: true });
  }
});
