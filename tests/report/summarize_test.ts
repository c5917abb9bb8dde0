import assert from "node:assert/strict";
import pl from "nodejs-polars";
import {
  allWrong,
  compareModels,
  compareTemplates,
  loadRuns,
  mcnemarExact,
  summarize,
  wilsonInterval,
} from "../../lib/report/mod.ts";
import { fakeRows, writeFakeRun } from "./_fixture.ts";
import type { ResultRow } from "../../lib/types.ts";

async function loaded(rows: ResultRow[], manifest?: Record<string, unknown>) {
  const tmp = await Deno.makeTempDir();
  try {
    return await loadRuns(await writeFakeRun(tmp, "run", rows, manifest), {
      warn: false,
    });
  } finally {
    await Deno.remove(tmp, { recursive: true });
  }
}

/** Nearest-rank quantile as Polars' default ("nearest") computes it. */
function nearest(sorted: number[], q: number): number {
  return sorted[Math.round(q * (sorted.length - 1))]!;
}

Deno.test("summarize() agrees with a plain loop on every statistic by model and family", async () => {
  const rows = fakeRows({ questions: 90, seed: 3 });
  const { frame } = await loaded(rows, {
    config: {
      models: [{ name: "m-good", price: { input: 1, output: 4 } }, {
        name: "m-bad",
      }],
    },
  });
  const got = summarize(frame, ["model", "family"]).toRecords();
  const groups = new Map<string, ResultRow[]>();
  for (const r of rows) {
    const k = `${r.model}/${r.dims.family}`;
    groups.set(k, [...(groups.get(k) ?? []), r]);
  }
  assert.equal(got.length, groups.size);
  for (const g of got) {
    const rs = groups.get(`${g.model}/${g.family}`)!;
    const n = rs.length;
    const k = rs.filter((r) => r.correct).length;
    const ci = wilsonInterval(k, n);
    const lat = rs.map((r) => r.latency_ms).sort((a, b) => a - b);
    assert.equal(g.n, n);
    assert.equal(g.correct, k);
    assert.equal(g.accuracy, k / n);
    assert.ok(Math.abs((g.acc_lo as number) - ci.lo) < 1e-12);
    assert.ok(Math.abs((g.acc_hi as number) - ci.hi) < 1e-12);
    assert.equal(
      g.parse_error_rate,
      rs.filter((r) => r.status === "parse_error").length / n,
    );
    assert.equal(
      g.error_rate,
      rs.filter((r) => r.status === "error").length / n,
    );
    assert.equal(
      g.format_valid_rate,
      rs.filter((r) => r.format_valid).length / n,
    );
    assert.ok(
      Math.abs(
        (g.latency_mean as number) - lat.reduce((s, x) => s + x, 0) / n,
      ) < 1e-9,
    );
    assert.equal(g.latency_p50, nearest(lat, 0.5));
    assert.equal(g.latency_p95, nearest(lat, 0.95));
    assert.equal(g.tokens_in, rs.reduce((s, r) => s + r.prompt_tokens, 0));
    assert.equal(g.tokens_out, rs.reduce((s, r) => s + r.completion_tokens, 0));
    if (g.model === "m-good") {
      const cost = rs.reduce(
        (s, r) => s + (r.prompt_tokens + 4 * r.completion_tokens) / 1e6,
        0,
      );
      assert.ok(Math.abs((g.cost as number) - cost) < 1e-12);
    } else {
      assert.equal(g.cost, null);
    }
  }
});

Deno.test("summarize() groups by a dims column that only late rows have", async () => {
  const rows = fakeRows({ questions: 60, digitsFrom: 100 });
  const { frame } = await loaded(rows);
  const got = summarize(frame, ["digits"]).toRecords();
  const nulls = got.find((g) => g.digits === null);
  assert.equal(nulls?.n, 100);
  assert.equal(got.reduce((s, g) => s + (g.n as number), 0), rows.length);
});

Deno.test("summarize() names an unknown grouping column", async () => {
  const { frame } = await loaded(fakeRows({ questions: 2 }));
  assert.throws(
    () => summarize(frame, ["nope"]),
    /Cannot summarize by "nope": no such column/,
  );
});

Deno.test("compareModels() pairs rows by question, template and sample", async () => {
  const rows = fakeRows({ questions: 50, seed: 5 });
  const { frame } = await loaded(rows);
  const r = compareModels(frame, ["m-good", "m-bad"], {
    seed: 3,
    resamples: 400,
  });
  const byKey = new Map(
    rows.map((x) => [`${x.model}|${x.question_id}|${x.template}`, x.correct]),
  );
  let onlyA = 0, onlyB = 0, pairs = 0;
  for (const x of rows.filter((x) => x.model === "m-good")) {
    const other = byKey.get(`m-bad|${x.question_id}|${x.template}`)!;
    pairs++;
    if (x.correct && !other) onlyA++;
    if (!x.correct && other) onlyB++;
  }
  assert.equal(r.pairs, pairs);
  assert.equal(r.onlyA, onlyA);
  assert.equal(r.onlyB, onlyB);
  assert.equal(r.mcnemarP, mcnemarExact(onlyA, onlyB));
  assert.ok(Math.abs(r.bootstrap.diff - (onlyA - onlyB) / pairs) < 1e-12);
  assert.ok(
    r.bootstrap.lo <= r.bootstrap.diff && r.bootstrap.diff <= r.bootstrap.hi,
  );
  assert.throws(
    () => compareModels(frame, ["m-good", "absent"]),
    /share no question/,
  );
});

Deno.test("compareTemplates() reports accuracy gained against extra tokens per model", async () => {
  const rows = fakeRows({ questions: 40, seed: 9 });
  const { frame } = await loaded(rows);
  const got = compareTemplates(frame, ["direct", "cot"]).toRecords();
  assert.deepEqual(got.map((g) => g.model), ["m-bad", "m-good"]);
  for (const g of got) {
    const mine = rows.filter((r) => r.model === g.model);
    const acc = (t: string) => {
      const rs = mine.filter((r) => r.template === t);
      return rs.filter((r) => r.correct).length / rs.length;
    };
    const tok = (t: string) => {
      const rs = mine.filter((r) => r.template === t);
      return rs.reduce((s, r) => s + r.completion_tokens, 0) / rs.length;
    };
    assert.ok(
      Math.abs((g.gain as number) - (acc("cot") - acc("direct"))) < 1e-12,
    );
    assert.ok(
      Math.abs((g.extra_tokens as number) - (tok("cot") - tok("direct"))) <
        1e-9,
    );
    assert.equal(g.pairs, 40);
  }
});

Deno.test("allWrong() lists exactly the questions no model answered right", async () => {
  const rows = fakeRows({ questions: 60, seed: 11 });
  const { frame } = await loaded(rows);
  const got = allWrong(frame).toRecords();
  const right = new Set(
    rows.filter((r) => r.correct).map((r) => r.question_id),
  );
  const want = new Set(
    rows.map((r) => r.question_id).filter((q) => !right.has(q)),
  );
  assert.ok(want.size > 0, "the fixture should have some all-wrong questions");
  assert.deepEqual(new Set(got.map((g) => g.question_id)), want);
  for (const g of got) assert.equal(g.models, 2);
});

Deno.test("summarize() leaves unscored rows out and counts failed requests as not correct", () => {
  const frame = pl.DataFrame({
    model: ["m", "m", "m", "m", "m"],
    status: ["correct", "wrong", "error", "unscored", "unscored"],
    correct: [true, false, false, false, false],
  });
  const [row] = summarize(frame, ["model"]).toRecords();
  assert.equal(row?.n, 3);
  assert.equal(row?.correct, 1);
  assert.ok(Math.abs(Number(row?.accuracy) - 1 / 3) < 1e-12);
  assert.ok(Math.abs(Number(row?.error_rate) - 1 / 3) < 1e-12);
});
