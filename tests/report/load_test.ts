import assert from "node:assert/strict";
import { join } from "node:path";
import { loadRuns, RunFormatError } from "../../lib/report/mod.ts";
import { fakeRows, writeFakeRun } from "./_fixture.ts";

async function withTemp(fn: (dir: string) => Promise<void>) {
  const dir = await Deno.makeTempDir();
  try {
    await fn(dir);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
}

Deno.test("loadRuns() makes a column of a dims key absent from the first thousand rows", async () => {
  await withTemp(async (tmp) => {
    const rows = fakeRows({ questions: 400, digitsFrom: 1500 });
    const dir = await writeFakeRun(tmp, "run", rows);
    const { frame, dims } = await loadRuns(dir, { warn: false });
    assert.equal(frame.height, rows.length);
    assert.ok(dims.includes("digits"), `dims were ${dims}`);
    const digits = frame.getColumn("digits").toArray();
    assert.equal(digits.slice(0, 1500).every((d) => d === null), true);
    assert.deepEqual(
      digits.slice(1500),
      rows.slice(1500).map((r) => r.dims.digits),
    );
    assert.equal(frame.getColumn("correct").dtype.variant, "Bool");
    assert.equal(frame.getColumn("latency_ms").dtype.variant, "Float64");
  });
});

Deno.test("loadRuns() prefixes a dims key that clashes with a result column", async () => {
  await withTemp(async (tmp) => {
    const rows = fakeRows({ questions: 2 });
    rows[0]!.dims.model = "clash";
    const dir = await writeFakeRun(tmp, "run", rows);
    const { frame, dims } = await loadRuns(dir, { warn: false });
    assert.ok(dims.includes("dim_model"));
    assert.equal(frame.getColumn("dim_model").get(0), "clash");
    assert.equal(frame.getColumn("model").get(0), rows[0]!.model);
  });
});

Deno.test("loadRuns() drops a torn last line and says so", async () => {
  await withTemp(async (tmp) => {
    const rows = fakeRows({ questions: 5 });
    const dir = await writeFakeRun(tmp, "run", rows);
    const path = join(dir, "results.jsonl");
    await Deno.writeTextFile(path, '{"key":"half', { append: true });
    const loaded = await loadRuns(dir, { warn: false });
    assert.equal(loaded.frame.height, rows.length);
    assert.equal(loaded.runs[0]?.torn, true);
    assert.match(
      loaded.warnings.join("\n"),
      /last line of .*results\.jsonl: it is torn/,
    );
    await assert.rejects(
      () => loadRuns(dir, { strict: true, warn: false }),
      SyntaxError,
    );
    // The file itself is left as it was.
    assert.match(await Deno.readTextFile(path), /"key":"half$/);
  });
});

Deno.test("loadRuns() accepts a complete last line without a final newline", async () => {
  await withTemp(async (tmp) => {
    const rows = fakeRows({ questions: 3 });
    const dir = await writeFakeRun(tmp, "run", rows);
    const path = join(dir, "results.jsonl");
    await Deno.writeTextFile(path, (await Deno.readTextFile(path)).trimEnd());
    const loaded = await loadRuns(dir, { warn: false });
    assert.equal(loaded.frame.height, rows.length);
    assert.equal(loaded.runs[0]?.torn, false);
  });
});

Deno.test("loadRuns() names a missing run folder in its message", async () => {
  await withTemp(async (tmp) => {
    const missing = join(tmp, "no-such-run");
    await assert.rejects(
      () => loadRuns(missing),
      (e: Error) =>
        e instanceof Deno.errors.NotFound &&
        /^Cannot load run .*no-such-run: no such run folder/.test(e.message),
    );
  });
});

Deno.test("loadRuns() says when a run folder has no results.jsonl", async () => {
  await withTemp(async (tmp) => {
    await Deno.mkdir(join(tmp, "empty"));
    await loadRuns(join(tmp, "empty"), { warn: false }).then(
      () => assert.fail("expected a rejection"),
      (e: Error) => assert.match(e.message, /has no results\.jsonl/),
    );
  });
});

Deno.test("loadRuns() names a broken line in the middle with a RunFormatError", async () => {
  await withTemp(async (tmp) => {
    const rows = fakeRows({ questions: 3 });
    const dir = await writeFakeRun(tmp, "run", rows);
    const path = join(dir, "results.jsonl");
    const lines = (await Deno.readTextFile(path)).split("\n");
    lines[2] = "{not json";
    await Deno.writeTextFile(path, lines.join("\n"));
    const error = await loadRuns(dir, { warn: false }).then(
      () => assert.fail("expected a rejection"),
      (e: unknown) => e,
    );
    assert.ok(error instanceof RunFormatError);
    assert.ok(error instanceof SyntaxError);
    assert.equal(error.name, "RunFormatError");
    assert.equal(error.path, path);
    assert.deepEqual(error.lines, [3]);
    assert.match(
      error.message,
      /^Cannot load .*results\.jsonl: line 3 is not a result row \(not JSON: .*\); run `deno task sweep --resume .*run` to set it aside and redo its key, or delete the line$/,
    );
  });
});

Deno.test("loadRuns() concatenates runs whose dims differ", async () => {
  await withTemp(async (tmp) => {
    const a = fakeRows({ questions: 4, run: "a" });
    const b = fakeRows({ questions: 3, run: "b" }).map((r) => ({
      ...r,
      suite: "ceval",
      dims: { subject: "physics" },
    }));
    const da = await writeFakeRun(tmp, "a", a);
    const db = await writeFakeRun(tmp, "b", b);
    const { frame, dims, runs } = await loadRuns([da, db], { warn: false });
    assert.equal(frame.height, a.length + b.length);
    assert.deepEqual(
      new Set(dims),
      new Set(["family", "level", "digits", "subject"]),
    );
    assert.deepEqual(runs.map((r) => r.rows), [a.length, b.length]);
    const subjects = frame.getColumn("subject").toArray();
    assert.equal(subjects.filter((s) => s === "physics").length, b.length);
  });
});

Deno.test("loadRuns() prices rows from the manifest's models", async () => {
  await withTemp(async (tmp) => {
    const rows = fakeRows({ questions: 3 });
    const dir = await writeFakeRun(tmp, "run", rows, {
      config: {
        models: [
          { name: "m-good", price: { input: 2, output: 8 } },
          { name: "m-bad" },
        ],
      },
    });
    const { frame } = await loadRuns(dir, { warn: false });
    const costs = frame.getColumn("cost").toArray();
    rows.forEach((r, i) => {
      if (r.model === "m-good") {
        const want = (r.prompt_tokens * 2 + r.completion_tokens * 8) / 1e6;
        assert.ok(Math.abs((costs[i] as number) - want) < 1e-15);
      } else {
        assert.equal(costs[i], null);
      }
    });
  });
});

Deno.test("loadRuns() loads an empty results.jsonl as an empty typed frame", async () => {
  await withTemp(async (tmp) => {
    const dir = await writeFakeRun(tmp, "run", []);
    const { frame, dims } = await loadRuns(dir, { warn: false });
    assert.equal(frame.height, 0);
    assert.deepEqual(dims, []);
    assert.ok(frame.columns.includes("correct"));
  });
});

Deno.test("loadRuns() reads its Parquet cache while the JSONL is unchanged and drops it after an append", async () => {
  await withTemp(async (tmp) => {
    const rows = fakeRows({ questions: 20, digitsFrom: 30 });
    const dir = await writeFakeRun(tmp, "run", rows);
    const first = await loadRuns(dir, { warn: false });
    const meta = JSON.parse(
      await Deno.readTextFile(join(dir, ".results.cache.json")),
    );
    assert.equal(
      meta.stamp.prefix,
      (await Deno.stat(join(dir, "results.jsonl"))).size,
    );
    const second = await loadRuns(dir, { warn: false });
    assert.deepEqual(second.dims, first.dims);
    assert.deepEqual(second.frame.toRecords(), first.frame.toRecords());
    // Proof the cache was read: make it disagree with the JSONL, keeping the stamp.
    const cacheFile = join(dir, ".results.cache.parquet");
    second.frame.head(3).writeParquet(cacheFile);
    assert.equal((await loadRuns(dir, { warn: false })).frame.height, 3);
    // An append changes the stamp, so the JSONL is read again.
    const extra = fakeRows({ questions: 1, seed: 99 }).map((r) => ({
      ...r,
      question_id: `${r.question_id}-x`,
      key: `${r.model}|${r.question_id}-x|${r.template}|${r.sample}`,
    }));
    await Deno.writeTextFile(
      join(dir, "results.jsonl"),
      extra.map((r) => JSON.stringify(r)).join("\n") + "\n",
      { append: true },
    );
    const third = await loadRuns(dir, { warn: false });
    assert.equal(third.frame.height, rows.length + extra.length);
    const uncached = await loadRuns(dir, { warn: false, cache: false });
    assert.equal(uncached.frame.height, third.frame.height);
  });
});

Deno.test("loadRuns() loads only the columns asked for, from the JSONL and from the cache", async () => {
  await withTemp(async (tmp) => {
    const dir = await writeFakeRun(tmp, "run", fakeRows({ questions: 5 }));
    const columns = ["model", "correct", "digits", "no_such_column"];
    const cold = await loadRuns(dir, { warn: false, columns });
    const warm = await loadRuns(dir, { warn: false, columns });
    assert.deepEqual(cold.frame.columns, [
      "model",
      "correct",
      "digits",
      "cost",
    ]);
    assert.deepEqual(warm.frame.columns, cold.frame.columns);
    assert.deepEqual(warm.frame.toRecords(), cold.frame.toRecords());
  });
});
