/**
 * The optional extraction judge, with the sim playing it: asked only for
 * replies the rules could not read (ambiguous, or no answer found), its
 * answer read by the suite's own extraction; the row keeps the rules'
 * outcome and the judge's, and the report says how often it agreed with
 * an ambiguous reply's candidates. Off by default.
 */
import assert from "node:assert/strict";
import { runSweep } from "../../lib/runner/mod.ts";
import { SweepConfigSchema } from "../../lib/config/schema.ts";
import { loadProviderFactory } from "../../lib/providers/load.ts";
import { loadSuites } from "../../lib/suites/registry.ts";
import { loadRuns, renderReport } from "../../lib/report/mod.ts";
import type { Completion } from "../../lib/types.ts";

/** Replies by question index: ambiguous, unread, plain. */
const REPLIES = [
  "Let me think. It is 23 or 24.", // ambiguous: the judge picks
  "Hmm, I am not sure how to do this one.", // no number: judge says none
  "The answer is 77.", // read by the rules: the judge is not asked
];

Deno.test("the extraction judge is asked only for unread replies, and the row keeps both outcomes", async () => {
  const out = await Deno.makeTempDir();
  try {
    const suites = await loadSuites(["arithmetic"]);
    const sim = await loadProviderFactory(["sim"]);
    const asked: string[] = [];
    let n = 0;
    const config = SweepConfigSchema.parse({
      outputDir: out,
      cache: false,
      models: [{ name: "m", provider: "sim" }],
      suites: [{
        name: "arithmetic",
        params: { families: ["add"], digits: [2], count: 3 },
      }],
      extractionJudge: { name: "judge", provider: "sim", model: "sim-strong" },
    });
    const { runDir } = await runSweep(config, {
      suites,
      progress: "none",
      createProvider: (model, sweep, options) => {
        if (model.name === "judge") {
          const judge = sim(model, sweep, options);
          return {
            name: judge.name,
            complete: (prompt, opts) => {
              asked.push(prompt.messages.at(-1)!.content);
              return judge.complete(prompt, opts);
            },
          };
        }
        return {
          name: model.name,
          complete: (): Promise<Completion> =>
            Promise.resolve({
              text: REPLIES[n++ % 3]!,
              reasoning: null,
              finishReason: "stop",
              usage: { promptTokens: 1, completionTokens: 1 },
              latencyMs: 0,
              attempts: 1,
            }),
        };
      },
    });
    const rows = (await Deno.readTextFile(`${runDir}/results.jsonl`)).trim()
      .split("\n").map((l) => JSON.parse(l));
    const by = (text: string) => rows.find((r) => r.response === text)!;
    assert.equal(asked.length, 2, "asked about the two unread replies only");
    const ambiguous = by(REPLIES[0]!);
    assert.equal(ambiguous.extract_rule, "judge");
    assert.equal(ambiguous.extracted, "24");
    assert.deepEqual(
      [
        ambiguous.metrics.rule_extract,
        ambiguous.metrics.judge_answer,
        ambiguous.metrics.judge_agrees,
      ],
      ["ambiguous: 23 | 24", "24", true],
    );
    const unread = by(REPLIES[1]!);
    assert.equal(unread.extract_rule, "none");
    assert.equal(unread.metrics.judge_answer, "none");
    assert.equal(unread.status, "parse_error");
    const plain = by(REPLIES[2]!);
    assert.equal(plain.extract_rule, "answer_marker");
    assert.equal(plain.metrics.judge_answer, undefined);
    const page = await renderReport(await loadRuns(runDir, { warn: false }));
    assert.match(
      page,
      /m: 1 replies ambiguous to the rules; the extraction judge was asked about 2 unread replies and answered 1 \(decided by it: 1\); on ambiguous replies it chose one of the candidates in 1 of 1\./,
    );
  } finally {
    await Deno.remove(out, { recursive: true });
  }
});
