/**
 * A judge model named in a suite's params may be of a provider kind the
 * swept models do not use (an endpoint judging a sim sweep). The sweep
 * loads provider kinds lazily, so the judge's kind loads on its first
 * call; many rows asking at once must all get it.
 */
import assert from "node:assert/strict";
import { parseConfig } from "../../lib/config/mod.ts";
import { runSweep } from "../../lib/runner/mod.ts";
import type { Suite } from "../../lib/suites/types.ts";
import { wrapRuns } from "../_score.ts";
import type { ResultRow } from "../../lib/types.ts";
import { toySuite } from "../fixtures/toy_suite.ts";
import { chatReply } from "../fixtures/chat_reply.ts";

/** An OpenAI-compatible judge that answers "fine" after a short wait. */
function startJudge() {
  let calls = 0;
  const server = Deno.serve(
    { hostname: "127.0.0.1", port: 0, onListen: () => {} },
    async (req) => {
      if (new URL(req.url).pathname.endsWith("/models")) {
        return Response.json({ object: "list", data: [{ id: "judge" }] });
      }
      calls++;
      await req.body?.cancel();
      await new Promise((resolve) => setTimeout(resolve, 5));
      return chatReply("fine");
    },
  );
  return {
    url: `http://127.0.0.1:${server.addr.port}/v1`,
    calls: () => calls,
    close: () => server.shutdown(),
  };
}

Deno.test("runSweep() loads an endpoint judge's provider for a sim sweep, for every concurrent first call", async () => {
  const judge = startJudge();
  const out = await Deno.makeTempDir();
  try {
    const judgeModel = parseConfig(
      {
        models: [{ name: "judge", provider: "openai", baseURL: judge.url }],
        suites: [{ name: "toy" }],
      },
      "judge",
      { suites: [toySuite] },
    ).models[0]!;
    // The toy suite, asking the judge about every row.
    const judged: Suite = wrapRuns(toySuite, (run) => ({
      score: async (judged, context) => {
        const verdict = await run.score(judged, context);
        const reply = await context.complete(judgeModel, {
          templateId: "judge",
          messages: [{ role: "user", content: "Is this fine?" }],
          params: { temperature: 0, max_tokens: 5 },
        });
        return {
          ...verdict,
          metrics: { judge: reply.error?.message ?? reply.text },
        };
      },
    })) as Suite;
    const config = parseConfig(
      {
        outputDir: out,
        cache: false,
        concurrency: 16,
        models: [{ name: "sim-strong", provider: "sim", concurrency: 16 }],
        suites: [{ name: "toy", params: { count: 20 } }],
      },
      "judge-kind",
      { suites: [judged] },
    );
    const result = await runSweep(config, {
      suites: [judged],
      progress: "none",
    });
    assert.equal(result.done, 40);
    const rows = (await Deno.readTextFile(`${result.runDir}/results.jsonl`))
      .trim().split("\n").map((line) => JSON.parse(line) as ResultRow);
    assert.deepEqual(
      rows.filter((r) => r.metrics["judge"] !== "fine").map((r) =>
        `${r.key}: ${r.metrics["judge"]}`
      ),
      [],
    );
    assert.equal(judge.calls(), 40);
  } finally {
    await judge.close();
    await Deno.remove(out, { recursive: true });
  }
});
