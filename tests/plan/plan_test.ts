import assert from "node:assert/strict";
import { join } from "node:path";
import { parseConfig } from "../../lib/config/mod.ts";
import { planSweep, planText } from "../../lib/plan/mod.ts";
import { runSweep, SweepInputError } from "../../lib/runner/mod.ts";
import { readResults } from "../../lib/store/mod.ts";
import { SUITES } from "../../lib/suites/mod.ts";
import type { ResultRow } from "../../lib/types.ts";

function smallConfig(outputDir: string, models?: unknown[]) {
  return parseConfig(
    {
      name: "plan-test",
      outputDir,
      cache: false,
      samples: 2,
      max_tokens: 300,
      models: models ?? [
        { name: "sim-strong", provider: "sim" },
        { name: "sim-weak", provider: "sim", concurrency: 4 },
      ],
      suites: [
        {
          name: "arithmetic",
          params: { families: ["add", "mul"], digits: [2, 3], count: 2 },
          templates: ["direct", "cot"],
        },
        {
          name: "linalg",
          params: {
            source: "generated",
            tasks: ["trace"],
            sizes: [2],
            count: 2,
          },
        },
      ],
    },
    "inline",
    { suites: SUITES },
  );
}

const groupOf = (r: { model: string; suite: string; template: string }) =>
  `${r.model}|${r.suite}|${r.template}`;

async function listDir(dir: string): Promise<string[]> {
  const names: string[] = [];
  for await (const e of Deno.readDir(dir)) names.push(e.name);
  return names.sort();
}

Deno.test("planSweep() plans the rows a sweep writes, creates nothing, then measures output tokens from that run", async () => {
  const outputDir = await Deno.makeTempDir();
  try {
    const config = smallConfig(outputDir);
    const before = await planSweep(config, { suites: SUITES });
    // 2 models × (8 arithmetic questions × 2 templates + 2 linalg × 1) × 2 samples.
    assert.equal(before.totals.requests, 2 * (8 * 2 + 2) * 2);
    assert.deepEqual(await listDir(outputDir), [], "the plan wrote nothing");
    assert.ok(before.rows.every((r) => r.outputSource === "heuristic"));
    assert.ok(before.rows.every((r) => r.latencySource === "sim"));
    assert.equal(before.totals.cost, null);
    assert.ok(before.totals.inputTokens > before.totals.requests * 10);
    assert.equal(
      before.totals.outputTokensMax,
      before.totals.requests * 300,
    );

    const result = await runSweep(config, { suites: SUITES, progress: "none" });
    const rows: ResultRow[] = [];
    for await (const row of readResults(join(result.runDir, "results.jsonl"))) {
      rows.push(row);
    }
    assert.equal(rows.length, before.totals.requests);
    const stored = new Map<string, ResultRow[]>();
    for (const row of rows) {
      stored.set(groupOf(row), [...stored.get(groupOf(row)) ?? [], row]);
    }
    assert.deepEqual(
      new Map(before.rows.map((r) => [groupOf(r), r.requests])),
      new Map([...stored].map(([k, v]) => [k, v.length])),
    );

    // A second plan finds the run in outputDir and measures from it.
    const after = await planSweep(config, { suites: SUITES });
    assert.equal(after.totals.requests, before.totals.requests);
    assert.equal(after.totals.inputTokens, before.totals.inputTokens);
    for (const planned of after.rows) {
      const group = stored.get(groupOf(planned))!;
      const ok = group.filter((r) => r.error_kind === null);
      const mean = ok.reduce((n, r) => n + r.completion_tokens, 0) /
        ok.length;
      assert.equal(planned.outputSource, "measured", groupOf(planned));
      assert.equal(
        planned.outputTokens,
        Math.round(mean * planned.requests),
        groupOf(planned),
      );
      assert.equal(planned.latencySource, "measured");
      const latencies = ok.map((r) => r.latency_ms).sort((a, b) => a - b);
      const mid = latencies.length >> 1;
      const median = latencies.length % 2 === 1
        ? latencies[mid]!
        : (latencies[mid - 1]! + latencies[mid]!) / 2;
      assert.equal(planned.latencyMs, median);
    }
    assert.match(planText(after), /measured = mean completion_tokens/);

    // The precision section: 50% before any run, then each model's
    // accuracy in the run it measured, over its scored rows.
    for (const s of before.precision.suites) {
      assert.ok(
        s.models.every((m) => m.source === "assumed" && m.accuracy === 0.5),
      );
    }
    for (const s of after.precision.suites) {
      for (const m of s.models) {
        const scored = rows.filter((r) =>
          r.model === m.model && r.suite === s.suite && r.error_kind === null &&
          r.status !== "unscored"
        );
        assert.equal(m.source, "measured");
        assert.equal(
          m.accuracy,
          scored.filter((r) => r.correct).length / scored.length,
          `${m.model} ${s.suite}`,
        );
        assert.equal(
          m.rows,
          rows.filter((r) => r.model === m.model && r.suite === s.suite).length,
        );
      }
    }
    assert.match(planText(after), /^Precision and power: /m);
    // The discordant share: the run's pairs of models that split on a
    // question, over the pairs that both answered it.
    for (const s of after.precision.suites) {
      const byItem = new Map<string, boolean[]>();
      for (const r of rows) {
        if (r.suite !== s.suite || r.error_kind !== null) continue;
        if (r.status === "unscored") continue;
        const item = `${r.question_id}|${r.template}|${r.sample}`;
        byItem.set(item, [...byItem.get(item) ?? [], r.correct]);
      }
      let differ = 0, both = 0;
      for (const outcomes of byItem.values()) {
        for (let i = 0; i < outcomes.length; i++) {
          for (let j = i + 1; j < outcomes.length; j++) {
            both++;
            if (outcomes[i] !== outcomes[j]) differ++;
          }
        }
      }
      if (differ === 0) {
        assert.equal(s.discordantSource, "independent errors", s.suite);
      } else {
        assert.equal(s.discordantSource, "measured", s.suite);
        assert.equal(s.discordant, differ / both, s.suite);
      }
    }
    assert.ok(
      after.precision.suites.some((s) => s.discordantSource === "measured"),
    );

    // --plan-from names the run; a folder that is not a run is refused.
    const from = await planSweep(config, {
      suites: SUITES,
      from: [result.runDir],
    });
    assert.deepEqual(
      from.rows.map((r) => r.outputTokens),
      after.rows.map((r) => r.outputTokens),
    );
    await assert.rejects(
      planSweep(config, { suites: SUITES, from: [join(outputDir, "nope")] }),
      SweepInputError,
    );
    // Only the run folder the sweep made: planning added nothing.
    assert.deepEqual(await listDir(outputDir), [
      result.runDir.slice(result.runDir.lastIndexOf("/") + 1),
    ]);

    // Same name, another model behind it: the run does not measure it.
    const other = smallConfig(outputDir, [
      { name: "sim-strong", provider: "sim", model: "sim-average" },
    ]);
    const unmeasured = await planSweep(other, { suites: SUITES });
    assert.ok(unmeasured.rows.every((r) => r.outputSource === "heuristic"));
    const off = await planSweep(config, { suites: SUITES, measure: false });
    assert.ok(off.rows.every((r) => r.outputSource === "heuristic"));
  } finally {
    await Deno.remove(outputDir, { recursive: true });
  }
});

Deno.test("planSweep() splits by shard and honours limit like the sweep", async () => {
  const config = smallConfig("/nonexistent-plan-output");
  const all = await planSweep(config, { suites: SUITES, measure: false });
  const one = await planSweep(config, {
    suites: SUITES,
    measure: false,
    shard: { index: 1, count: 2 },
  });
  const two = await planSweep(config, {
    suites: SUITES,
    measure: false,
    shard: { index: 2, count: 2 },
  });
  assert.equal(one.totals.requests + two.totals.requests, all.totals.requests);
  assert.equal(
    one.totals.inputTokens + two.totals.inputTokens,
    all.totals.inputTokens,
  );
  const limited = await planSweep(config, {
    suites: SUITES,
    measure: false,
    limit: 1,
  });
  // 2 models × (1 arithmetic question × 2 templates + 1 linalg) × 2 samples.
  assert.equal(limited.totals.requests, 2 * 3 * 2);
});

Deno.test("planSweep() prices and times an OpenAI model under its limits", async () => {
  const config = smallConfig("/nonexistent-plan-output", [{
    name: "mini",
    model: "gpt-4o-mini",
    provider: "openai",
    baseURL: "https://api.openai.com/v1",
    concurrency: 100,
    rpm: 30,
    price: { input: 0.15, output: 0.6 },
  }]);
  const plan = await planSweep(config, { suites: SUITES, measure: false });
  assert.equal(plan.models[0]!.encoding.encoding, "o200k_base");
  assert.equal(plan.totals.requests, (8 * 2 + 2) * 2);
  for (const row of plan.rows) {
    assert.equal(row.bound, "rpm");
    assert.equal(row.latencySource, "assumed");
    // 30 RPM = one request every 2 s.
    assert.equal(row.wallSeconds, row.requests * 2);
    const online = (row.inputTokens * 0.15 + row.outputTokens * 0.6) / 1e6;
    assert.ok(Math.abs(row.cost!.online - online) < 1e-12);
    assert.ok(Math.abs(row.cost!.batch - online / 2) < 1e-12);
  }
  assert.equal(plan.totals.wallSeconds, plan.totals.requests * 2);
  assert.match(planText(plan), /o200k_base \(gpt-4o-mini's own\)/);
});
