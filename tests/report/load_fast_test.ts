import assert from "node:assert/strict";
import { join } from "node:path";
import pl from "nodejs-polars";
import {
  type DataFrame,
  loadRuns,
  RESULT_SCHEMA,
  RunFormatError,
} from "../../lib/report/mod.ts";
import {
  RESULTS_COPY_FILE,
  RESULTS_COPY_INDEX,
  ResultsWriter,
  rewriteResults,
  verifiedCopy,
} from "../../lib/store/mod.ts";
import type { ResultRow } from "../../lib/types.ts";
import { fakeRows } from "./_fixture.ts";

async function withTemp(fn: (dir: string) => Promise<void>) {
  const dir = await Deno.makeTempDir();
  try {
    await fn(dir);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
}

/**
 * A few hundred rows with what loading must get right: dims that differ by
 * suite (one key appearing late, one clashing with a row column, one always
 * null), metrics of every type, failed requests, and texts with quotes,
 * commas, newlines, CRs, non-ASCII and the empty string.
 */
function nastyRows(): ResultRow[] {
  const rows = fakeRows({ questions: 60, digitsFrom: 150 });
  rows.forEach((r, i) => {
    if (i % 5 === 0) {
      r.suite = "ceval";
      r.dims = { subject: "物理", hard: i % 2 === 0, ops: null };
    } else {
      r.dims.ops = null;
    }
    if (i === 7) r.dims.model = "clash";
    if (i % 4 === 0) {
      r.metrics = {
        stage: i % 3,
        label: i % 8 === 0 ? "carry" : null,
        ok: i % 2 === 0,
        ratio: i / 7,
      };
    }
    if (i % 6 === 0) {
      r.response = `He said "no", then\nwrote, a CR\r\nand 中文 ${i}`;
      r.reasoning = "";
    }
    if (r.status === "error") {
      r.response = "";
      r.extracted = null;
      r.error_message = 'HTTP 500: "upstream", retry';
    }
    if (i % 9 === 0) r.transcript = JSON.stringify([{ role: "tool", c: i }]);
  });
  return rows;
}

async function writeRun(
  parent: string,
  rows: ResultRow[],
  name = "run",
): Promise<string> {
  const dir = join(parent, name);
  await Deno.mkdir(dir, { recursive: true });
  await Deno.writeTextFile(
    join(dir, "manifest.json"),
    JSON.stringify({ run: rows[0]?.run ?? name, config: { models: [] } }),
  );
  const writer = await ResultsWriter.open(join(dir, "results.jsonl"));
  for (const r of rows) writer.append(r);
  await writer.close();
  return dir;
}

/** What loading did before: Polars infers every type over every line. */
function inferredFrame(path: string): DataFrame {
  let frame = pl.scanJson(path, { inferSchemaLength: null }).collectSync();
  frame = frame.withColumns(
    ...Object.entries(RESULT_SCHEMA)
      .filter(([name]) => frame.columns.includes(name))
      .map(([name, type]) => pl.col(name).cast(type)),
  );
  for (const [column, prefix] of [["dims", "dim_"], ["metrics", "metric_"]]) {
    const fields = (frame.getColumn(column!).dtype as unknown as {
      fields: { name: string }[];
    }).fields;
    const taken = new Set(frame.columns);
    const names = fields.map(({ name }) =>
      taken.has(name) ? `${prefix}${name}` : name
    );
    frame = frame.withColumns(pl.col(column!).struct.renameFields(names))
      .unnest(column!);
  }
  return frame;
}

function assertSameFrame(actual: DataFrame, expected: DataFrame) {
  const columns = expected.columns;
  assert.deepEqual([...actual.columns].sort(), [...columns].sort());
  const a = actual.select(...columns);
  for (const c of columns) {
    assert.equal(
      String(a.getColumn(c).dtype),
      String(expected.getColumn(c).dtype),
      `dtype of ${c}`,
    );
  }
  assert.deepEqual(a.toRecords(), expected.toRecords());
}

Deno.test("loadRuns() gives the same frame from the CSV copy, the schema read and the old inferred read", async () => {
  await withTemp(async (tmp) => {
    const rows = nastyRows();
    const dir = await writeRun(tmp, rows);
    const path = join(dir, "results.jsonl");
    assert.equal((await verifiedCopy(path))?.rows, rows.length);
    const old = inferredFrame(path).withColumns(
      pl.lit(null).cast(pl.Float64).alias("cost"),
    );
    const fromCopy = await loadRuns(dir, { warn: false });
    const fromJsonl = await loadRuns(dir, { warn: false, cache: false });
    assertSameFrame(fromCopy.frame, old);
    assertSameFrame(fromJsonl.frame, old);
    // Dims in order of first appearance; the clash is prefixed; metrics
    // are columns but not dims.
    assert.deepEqual(fromCopy.dims, [
      "subject",
      "hard",
      "ops",
      "family",
      "level",
      "dim_model",
      "digits",
    ]);
    assert.deepEqual(fromJsonl.dims, fromCopy.dims);
    assert.equal(String(fromCopy.frame.getColumn("ops").dtype.variant), "Null");
    assert.equal(
      String(fromCopy.frame.getColumn("ratio").dtype.variant),
      "Float64",
    );
    assert.equal(
      String(fromCopy.frame.getColumn("stage").dtype.variant),
      "Int64",
    );
    const response = fromCopy.frame.getColumn("response").toArray();
    assert.equal(response[0], rows[0]!.response);
    assert.equal(fromCopy.frame.getColumn("reasoning").get(0), "");
    const errors = fromCopy.frame.filter(pl.col("status").eq(pl.lit("error")));
    assert.ok(errors.height > 0);
    assert.deepEqual(
      [...new Set(errors.getColumn("error_message").toArray())],
      ['HTTP 500: "upstream", retry'],
    );
  });
});

Deno.test("loadRuns() reads the copy plus the JSONL lines written after it, and only the columns asked for", async () => {
  await withTemp(async (tmp) => {
    const rows = nastyRows();
    const dir = await writeRun(tmp, rows.slice(0, 100));
    const path = join(dir, "results.jsonl");
    // Rows the copy does not hold (another writer, a hand edit).
    await Deno.writeTextFile(
      path,
      rows.slice(100).map((r) => JSON.stringify(r) + "\n").join(""),
      { append: true },
    );
    assert.equal((await verifiedCopy(path))?.rows, 100);
    const mixed = await loadRuns(dir, { warn: false });
    const plain = await loadRuns(dir, { warn: false, cache: false });
    assertSameFrame(mixed.frame, plain.frame);
    assert.equal(mixed.frame.height, rows.length);
    const columns = ["model", "suite", "correct", "digits", "ratio"];
    const some = await loadRuns(dir, { warn: false, columns });
    assert.deepEqual(some.frame.columns, [...columns, "cost"]);
    assertSameFrame(some.frame, plain.frame.select(...columns, "cost"));
  });
});

Deno.test("ResultsWriter catches the copy up on reopen, and rewriteResults rebuilds it", async () => {
  await withTemp(async (tmp) => {
    const rows = nastyRows();
    const dir = await writeRun(tmp, rows.slice(0, 50));
    const path = join(dir, "results.jsonl");
    // A crash mid-write of the copy leaves a torn CSV row past the index.
    await Deno.writeTextFile(join(dir, RESULTS_COPY_FILE), '"torn', {
      append: true,
    });
    assert.equal(
      (await loadRuns(dir, { warn: false, cache: false })).frame.height,
      50,
    );
    assert.equal((await loadRuns(dir, { warn: false })).frame.height, 50);
    // Lines appended behind the writer's back, then a resume appends more.
    await Deno.writeTextFile(
      path,
      rows.slice(50, 70).map((r) => JSON.stringify(r) + "\n").join(""),
      { append: true },
    );
    const writer = await ResultsWriter.open(path);
    for (const r of rows.slice(70)) writer.append(r);
    await writer.close();
    assert.equal((await verifiedCopy(path))?.rows, rows.length);
    assertSameFrame(
      (await loadRuns(dir, { warn: false })).frame,
      (await loadRuns(dir, { warn: false, cache: false })).frame,
    );
    // A rewrite (resume's set-aside) rebuilds the copy for the new file...
    const kept = rows.slice(0, 10).map((r) => JSON.stringify(r));
    await rewriteResults(path, kept);
    assert.equal((await verifiedCopy(path))?.rows, 10);
    assertSameFrame(
      (await loadRuns(dir, { warn: false })).frame,
      (await loadRuns(dir, { warn: false, cache: false })).frame,
    );
    // ...which the next writer finds up to date.
    const index = await Deno.readTextFile(join(dir, RESULTS_COPY_INDEX));
    await (await ResultsWriter.open(path)).close();
    assert.equal((await verifiedCopy(path))?.rows, 10);
    assert.deepEqual(
      JSON.parse(await Deno.readTextFile(join(dir, RESULTS_COPY_INDEX))),
      JSON.parse(index),
    );
  });
});

Deno.test("loadRuns() ignores a copy that no longer matches results.jsonl", async () => {
  await withTemp(async (tmp) => {
    const rows = nastyRows();
    const dir = await writeRun(tmp, rows);
    const path = join(dir, "results.jsonl");
    // Rewritten in place (same file), with other rows: the copy's keys no
    // longer match the JSONL's, so the JSONL is read.
    const other = rows.slice(0, 30).reverse();
    await Deno.writeTextFile(
      path,
      other.map((r) => JSON.stringify(r) + "\n").join(""),
    );
    assert.equal(await verifiedCopy(path), null);
    const { frame } = await loadRuns(dir, { warn: false });
    assert.deepEqual(
      frame.getColumn("key").toArray(),
      other.map((r) => r.key),
    );
  });
});

Deno.test("loadRuns() names every line that is not a row, in the copy's tail too, and skips a torn last line", async () => {
  await withTemp(async (tmp) => {
    const rows = nastyRows().slice(0, 20);
    for (const withCopy of [false, true]) {
      const name = withCopy ? "copy" : "plain";
      const dir = withCopy
        ? await writeRun(tmp, rows.slice(0, 4), name)
        : join(tmp, name);
      await Deno.mkdir(dir, { recursive: true });
      const path = join(dir, "results.jsonl");
      const lines = rows.map((r) => JSON.stringify(r));
      lines[5] = "xx garbage";
      lines[7] = "42";
      lines[9] = '{"foo": 1}';
      const text = lines.slice(withCopy ? 4 : 0).join("\n") +
        '\n{"key": "torn';
      await Deno.writeTextFile(path, text, { append: withCopy });
      const error = await loadRuns(dir, { warn: false }).then(
        () => assert.fail("expected a rejection"),
        (e: unknown) => e,
      );
      assert.ok(error instanceof RunFormatError, String(error));
      assert.deepEqual(error.lines, [6, 8, 10]);
      assert.equal(error.path, path);
      assert.match(
        error.message,
        /^Cannot load .*results\.jsonl: lines 6, 8, 10 are not result rows \(line 6: not JSON: .*; line 8: JSON number, not an object; line 10: a JSON object without a string "key"\); delete or fix the lines/,
      );
    }
  });
});

Deno.test("loadRuns() infers the types when a value does not fit the declared schema", async () => {
  await withTemp(async (tmp) => {
    const rows = nastyRows().slice(0, 30);
    // A provider that reports fractional token counts.
    (rows[3] as unknown as { prompt_tokens: number }).prompt_tokens = 12.5;
    const dir = await writeRun(tmp, rows);
    for (const cache of [true, false]) {
      const { frame } = await loadRuns(dir, { warn: false, cache });
      assert.equal(frame.height, rows.length);
      assert.deepEqual(
        frame.getColumn("key").toArray(),
        rows.map((r) => r.key),
      );
      assert.ok(frame.columns.includes("subject"));
    }
  });
});
