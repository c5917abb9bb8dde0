import assert from "node:assert/strict";
import { parse } from "csv-parse/sync";
import {
  readFinishedKeys,
  readResults,
  repairResults,
  RESULTS_COPY_FILE,
  resultsEnd,
  ResultsWriter,
  rewriteResults,
  verifiedCopy,
} from "../../lib/store/mod.ts";
import { RESULT_COLUMNS, type ResultRow } from "../../lib/types.ts";

const row = (key: string) => ({ key, model: "m" }) as unknown as ResultRow;

Deno.test("ResultsWriter.append() writes every row of concurrent appends exactly once", async () => {
  const dir = await Deno.makeTempDir();
  const path = `${dir}/results.jsonl`;
  const writer = await ResultsWriter.open(path);
  const keys = Array.from({ length: 5000 }, (_, i) => `k${i}`);
  await Promise.all(keys.map(async (k, i) => {
    if (i % 7 === 0) await Promise.resolve();
    writer.append(row(k));
  }));
  await writer.close();
  const got: string[] = [];
  for await (const r of readResults(path)) got.push(r.key);
  assert.equal(got.length, keys.length);
  assert.deepEqual(new Set(got), new Set(keys));
  await Deno.remove(dir, { recursive: true });
});

Deno.test("ResultsWriter.append() appends to an existing file", async () => {
  const dir = await Deno.makeTempDir();
  const path = `${dir}/results.jsonl`;
  for (const k of ["a", "b"]) {
    const w = await ResultsWriter.open(path);
    w.append(row(k));
    await w.close();
  }
  assert.deepEqual([...await readFinishedKeys(path)], ["a", "b"]);
  await Deno.remove(dir, { recursive: true });
});

Deno.test("readResults() skips a torn last line but rejects a broken middle line", async () => {
  const dir = await Deno.makeTempDir();
  const path = `${dir}/r.jsonl`;
  await Deno.writeTextFile(path, '{"key":"a"}\n{"key":"b"}\n{"key":"c", "mo');
  const keys: string[] = [];
  for await (const r of readResults(path)) keys.push(r.key);
  assert.deepEqual(keys, ["a", "b"]);

  await Deno.writeTextFile(path, '{"key":"a"}\nnot json\n{"key":"c"}\n');
  await assert.rejects(async () => {
    for await (const _ of readResults(path)) { /* drain */ }
  }, SyntaxError);
  const bad: number[] = [];
  const kept: string[] = [];
  for await (const r of readResults(path, { onBadLine: (n) => bad.push(n) })) {
    kept.push(r.key);
  }
  assert.deepEqual(bad, [2]);
  assert.deepEqual(kept, ["a", "c"]);
  await Deno.remove(dir, { recursive: true });
});

Deno.test("readResults() reads lines split across read chunks", async () => {
  const dir = await Deno.makeTempDir();
  const path = `${dir}/r.jsonl`;
  const long = "x".repeat(100_000);
  const lines = Array.from(
    { length: 5 },
    (_, i) => JSON.stringify({ key: `k${i}`, pad: long }),
  );
  await Deno.writeTextFile(path, lines.join("\n") + "\n");
  const keys: string[] = [];
  for await (const r of readResults(path)) keys.push(r.key);
  assert.deepEqual(keys, ["k0", "k1", "k2", "k3", "k4"]);
  await Deno.remove(dir, { recursive: true });
});

Deno.test("readResults() yields nothing for a missing file", async () => {
  const keys: string[] = [];
  for await (const r of readResults("/nonexistent/results.jsonl")) {
    keys.push(r.key);
  }
  assert.deepEqual(keys, []);
});

Deno.test("repairResults() cuts only a torn tail, ends a complete last row with its newline, and leaves a clean file alone", async () => {
  const dir = await Deno.makeTempDir();
  const path = `${dir}/r.jsonl`;
  const none = { newline: false, torn: null };
  await Deno.writeTextFile(path, '{"key":"a"}\n');
  assert.deepEqual(await repairResults(path), none);
  await Deno.writeTextFile(path, '{"key":"a"}\n{"key":"b"}\n{"ke');
  assert.deepEqual(await repairResults(path), { newline: false, torn: '{"ke' });
  assert.equal(await Deno.readTextFile(path), '{"key":"a"}\n{"key":"b"}\n');
  await Deno.writeTextFile(path, '{"key":"a"}\n{"key":"b"}');
  assert.deepEqual(await repairResults(path), { newline: true, torn: null });
  assert.equal(await Deno.readTextFile(path), '{"key":"a"}\n{"key":"b"}\n');
  // JSON that is not a row is torn, like text that is not JSON.
  await Deno.writeTextFile(path, '{"key":"a"}\n{"nokey":1}');
  assert.deepEqual(await repairResults(path), {
    newline: false,
    torn: '{"nokey":1}',
  });
  await Deno.writeTextFile(path, "no newline at all");
  assert.equal((await repairResults(path)).torn, "no newline at all");
  assert.equal(await Deno.readTextFile(path), "");
  assert.deepEqual(await repairResults(`${dir}/missing.jsonl`), none);
  // A torn line longer than the scan block.
  await Deno.writeTextFile(path, '{"key":"a"}\n' + "y".repeat(200_000));
  assert.equal((await repairResults(path)).torn?.length, 200_000);
  assert.equal(await Deno.readTextFile(path), '{"key":"a"}\n');
  await Deno.remove(dir, { recursive: true });
});

Deno.test("the store, the report loader and resume agree on the end of results.jsonl", async () => {
  const dir = await Deno.makeTempDir();
  const path = `${dir}/r.jsonl`;
  for (
    const [tail, kept] of [
      ['{"key":"c"}', ["a", "b", "c"]],
      ['{"key":"c","x":', ["a", "b"]],
      ["[1]", ["a", "b"]],
      ["", ["a", "b"]],
    ] as const
  ) {
    await Deno.writeTextFile(path, '{"key":"a"}\n{"key":"b"}\n' + tail);
    const read: string[] = [];
    for await (const r of readResults(path)) read.push(r.key);
    assert.deepEqual(read, kept, tail);
    const end = await resultsEnd(path);
    assert.equal(end.torn !== null, kept.length === 2 && tail !== "", tail);
    await repairResults(path);
    assert.deepEqual([...await readFinishedKeys(path)], kept, tail);
    assert.ok((await Deno.readTextFile(path)).endsWith("\n"), tail);
  }
  await Deno.remove(dir, { recursive: true });
});

Deno.test("ResultsWriter's CSV copy has one column per RESULT_COLUMNS entry, then _extra", async () => {
  assert.equal(new Set(RESULT_COLUMNS).size, RESULT_COLUMNS.length);
  const dir = await Deno.makeTempDir();
  const path = `${dir}/results.jsonl`;
  // Every field a distinct value, so a column out of place shows.
  const full = Object.fromEntries(
    RESULT_COLUMNS.map((c, i) => [c, `v${i}`]),
  ) as unknown as ResultRow;
  const writer = await ResultsWriter.open(path);
  writer.append(full);
  writer.append({ ...full, key: "k2", later: 1 } as ResultRow);
  await writer.close();
  const [header, ...rows] = parse(
    await Deno.readTextFile(`${dir}/${RESULTS_COPY_FILE}`),
  ) as string[][];
  assert.deepEqual(header, [...RESULT_COLUMNS, "_extra"]);
  assert.deepEqual(rows[0], [...RESULT_COLUMNS.map((_, i) => `v${i}`), ""]);
  assert.deepEqual(rows[1]?.slice(0, 1), ["k2"]);
  assert.deepEqual(rows[1]?.at(-1), '{"later":1}');
  await Deno.remove(dir, { recursive: true });
});

Deno.test("ResultsWriter.open() copies existing rows past blank lines, and keeps no copy after a torn line", async () => {
  const dir = await Deno.makeTempDir();
  const path = `${dir}/results.jsonl`;
  const copyOf = async () =>
    (parse(
      await Deno.readTextFile(`${dir}/${RESULTS_COPY_FILE}`),
    ) as string[][])
      .slice(1).map((r) => r[0]);
  await Deno.writeTextFile(path, '{"key":"a"}\n\n{"key":"b"}\n');
  await (await ResultsWriter.open(path)).close();
  assert.deepEqual(await copyOf(), ["a", "b"]);
  assert.equal((await verifiedCopy(path))?.jsonlEnd, 25);

  await Deno.writeTextFile(path, '{"key":"a"}\n{"key":"b"}\n{"ke');
  await (await ResultsWriter.open(path)).close();
  assert.equal(await verifiedCopy(path), null);
  await Deno.remove(dir, { recursive: true });
});

Deno.test("rewriteResults() rebuilds the CSV copy to match the new rows, and on a failed write leaves the file and its copy byte-identical", async () => {
  const dir = await Deno.makeTempDir();
  const path = `${dir}/results.jsonl`;
  const rows = ["a", "b", "c"].map((key) => ({ key, dims: {} }) as never);
  const writer = await ResultsWriter.open(path);
  for (const row of rows) writer.append(row);
  await writer.close();
  const files = async () => {
    const out: [string, string][] = [];
    for await (const e of Deno.readDir(dir)) {
      if (e.isFile) {
        out.push([e.name, await Deno.readTextFile(`${dir}/${e.name}`)]);
      }
    }
    return out.sort((x, y) => x[0].localeCompare(y[0]));
  };

  // The temporary file cannot be written (a folder is in its place).
  const before = await files();
  await Deno.mkdir(`${path}.tmp`);
  await assert.rejects(rewriteResults(path, ['{"key":"z"}']));
  assert.deepEqual(await files(), before);
  await Deno.remove(`${path}.tmp`);

  // A rewrite: the copy is what a fresh writer keeps for the new rows.
  await rewriteResults(path, [
    '{"key":"c","dims":{}}',
    '{"key":"a","dims":{}}',
  ]);
  const fresh = await Deno.makeTempDir();
  const other = await ResultsWriter.open(`${fresh}/results.jsonl`);
  other.append({ key: "c", dims: {} } as never);
  other.append({ key: "a", dims: {} } as never);
  await other.close();
  assert.equal(
    await Deno.readTextFile(`${dir}/${RESULTS_COPY_FILE}`),
    await Deno.readTextFile(`${fresh}/${RESULTS_COPY_FILE}`),
  );
  const index = await verifiedCopy(path);
  assert.deepEqual(
    [index?.rows, index?.firstKey, index?.lastKey, index?.jsonlEnd],
    [2, "c", "a", (await Deno.stat(path)).size],
  );
  await Deno.remove(fresh, { recursive: true });
  await Deno.remove(dir, { recursive: true });
});
