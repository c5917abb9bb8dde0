import assert from "node:assert/strict";
import { join } from "node:path";
import pl from "nodejs-polars";
import { loadCeval } from "../../../lib/suites/ceval/mod.ts";

const BUNDLED = "data/ceval";
const HEADER_DEV = "id,question,A,B,C,D,answer,explanation";

async function withTemp(fn: (dir: string) => Promise<void>): Promise<void> {
  const dir = await Deno.makeTempDir({ prefix: "ceval_loader_" });
  try {
    await fn(dir);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
}

async function write(path: string, text: string): Promise<void> {
  await Deno.mkdir(join(path, ".."), { recursive: true });
  await Deno.writeTextFile(path, text);
}

Deno.test("loadCeval() reads the official CSV layout with subject facts on every record", async () => {
  const val = await loadCeval(BUNDLED, { split: "val" });
  const subjects = [...new Set(val.map((r) => r.subject.key))];
  assert.ok(subjects.length >= 6, subjects.join(","));
  const categories = new Set(val.map((r) => r.subject.category));
  assert.deepEqual(
    categories,
    new Set(["STEM", "Social Science", "Humanities", "Other"]),
  );
  assert.ok(val.some((r) => r.subject.hard));
  for (const r of val) {
    assert.match(r.answer ?? "", /^[ABCD]$/);
    assert.ok(r.question.length > 0);
    assert.ok(Object.values(r.choices).every((c) => c.length > 0));
    assert.equal(r.split, "val");
  }
});

Deno.test("loadCeval() keeps dev rows in file order with their explanations", async () => {
  const dev = await loadCeval(BUNDLED, {
    split: "dev",
    subjects: ["civil_servant"],
  });
  assert.deepEqual(dev.map((r) => r.id), ["0", "1", "2", "3", "4"]);
  assert.ok(dev.every((r) => r.explanation?.startsWith("1. ")));
  assert.match(dev[0]!.question, /2, 4, 8, 16/);
  assert.match(dev[0]!.explanation!, /\n/);
});

Deno.test("loadCeval() reads test files with and without the answer column", async () => {
  const test = await loadCeval(BUNDLED, { split: "test" });
  const withheld = test.filter((r) => r.answer === null);
  const given = test.filter((r) => r.answer !== null);
  assert.ok(withheld.length > 0 && given.length > 0);
  assert.equal(new Set(withheld.map((r) => r.subject.key)).size, 1);
  assert.notEqual(withheld[0]!.subject.key, given[0]!.subject.key);
});

Deno.test("loadCeval() handles a BOM and quoted fields holding commas and line breaks", async () => {
  await withTemp(async (dir) => {
    await write(
      join(dir, "dev", "logic_dev.csv"),
      `\uFEFF${HEADER_DEV}\r\n7,"若 p, 则 q；\n非 q。",甲,"乙, 丙",丁,戊,B,"第一行\n第二行"\r\n`,
    );
    const [r] = await loadCeval(dir, { split: "dev" });
    assert.equal(r!.id, "7");
    assert.equal(r!.question, "若 p, 则 q；\n非 q。");
    assert.equal(r!.choices.B, "乙, 丙");
    assert.equal(r!.explanation, "第一行\n第二行");
    assert.equal(r!.subject.nameZh, "逻辑学");
  });
});

Deno.test("loadCeval() names the file and row of a missing option", async () => {
  await withTemp(async (dir) => {
    const file = join(dir, "val", "law_val.csv");
    await write(
      file,
      "id,question,A,B,C,D,answer\n0,问题一,a,b,c,d,A\n1,问题二,a,b,,d,B\n",
    );
    await assert.rejects(
      () => loadCeval(dir, { split: "val" }),
      (e: Error) =>
        e instanceof SyntaxError && e.message.includes(file) &&
        e.message.includes("row 2") && e.message.includes("option C"),
    );
  });
});

Deno.test("loadCeval() names the file and row of an answer outside A-D", async () => {
  await withTemp(async (dir) => {
    const file = join(dir, "val", "law_val.csv");
    await write(file, "id,question,A,B,C,D,answer\n0,问题,a,b,c,d,E\n");
    await assert.rejects(
      () => loadCeval(dir, { split: "val" }),
      (e: Error) =>
        e instanceof SyntaxError && e.message.includes(file) &&
        e.message.includes("row 1") && e.message.includes('"E"'),
    );
  });
});

Deno.test("loadCeval() requires answers outside the test split", async () => {
  await withTemp(async (dir) => {
    await write(
      join(dir, "val", "law_val.csv"),
      "id,question,A,B,C,D,answer\n0,问题,a,b,c,d,A\n1,问题,a,b,c,d,\n",
    );
    await assert.rejects(
      () => loadCeval(dir, { split: "val" }),
      /row 2: the answer is missing/,
    );
  });
});

Deno.test("loadCeval() names a missing answer column, with the columns found, before any row", async () => {
  await withTemp(async (dir) => {
    const file = join(dir, "val", "law_val.csv");
    await write(file, "id,question,A,B,C,D\n0,问题,a,b,c,d\n");
    await assert.rejects(
      () => loadCeval(dir, { split: "val" }),
      (e: Error) => {
        assert.ok(e instanceof SyntaxError);
        assert.ok(e.message.includes(`${file} has no "answer" column`));
        assert.match(e.message, /\(its header: id,question,A,B,C,D\); add it/);
        assert.doesNotMatch(e.message, /row 1/);
        return true;
      },
    );
    // The test split may leave the column out.
    await write(
      join(dir, "test", "law_test.csv"),
      "id,question,A,B,C,D\n0,问题,a,b,c,d\n",
    );
    const [r] = await loadCeval(dir, { split: "test" });
    assert.equal(r!.answer, null);
  });
});

Deno.test("loadCeval() names every missing column of a header-only CSV and of parquet", async () => {
  await withTemp(async (dir) => {
    await write(join(dir, "val", "law_val.csv"), "id,question,A,B,answer\n");
    await assert.rejects(
      () => loadCeval(dir, { split: "val" }),
      /law_val\.csv has no "C", "D" columns \(its header: id,question,A,B,answer\); add them/,
    );
  });
  await withTemp(async (dir) => {
    await Deno.mkdir(join(dir, "law"), { recursive: true });
    pl.DataFrame({
      id: [0],
      question: ["问题"],
      A: ["a"],
      B: ["b"],
      C: ["c"],
      D: ["d"],
    }).writeParquet(join(dir, "law", "val-00000-of-00001.parquet"));
    await assert.rejects(
      () => loadCeval(dir, { split: "val" }),
      /val-00000-of-00001\.parquet has no "answer" column/,
    );
  });
});

Deno.test("loadCeval() reads the Hugging Face parquet layout written by Polars", async () => {
  await withTemp(async (dir) => {
    await Deno.mkdir(join(dir, "college_physics"), { recursive: true });
    pl.DataFrame({
      id: [0, 1],
      question: ["光速约为____", "1 + 1 = ____"],
      A: ["3×10^8 m/s", "1"],
      B: ["3×10^5 m/s", "2"],
      C: ["340 m/s", "3"],
      D: ["1 m/s", "4"],
      answer: ["A", "B"],
      explanation: ["", ""],
    }).writeParquet(
      join(dir, "college_physics", "val-00000-of-00001.parquet"),
    );
    const recs = await loadCeval(dir, { split: "val" });
    assert.equal(recs.length, 2);
    assert.deepEqual(recs.map((r) => r.answer), ["A", "B"]);
    assert.equal(recs[1]!.choices.D, "4");
    assert.equal(recs[0]!.id, "0");
    assert.equal(recs[0]!.subject.hard, true);
    assert.equal(recs[0]!.explanation, null);
    assert.match(recs[0]!.source.file, /\.parquet$/);
  });
});

Deno.test("loadCeval() reads the per-subject JSON layout with choices objects", async () => {
  await withTemp(async (dir) => {
    await write(
      join(dir, "marxism", "test.json"),
      "\uFEFF" + JSON.stringify([
        {
          id: 3,
          question: "问题",
          choices: { A: "甲", B: "乙", C: "丙", D: "丁" },
        },
      ]),
    );
    await write(
      join(dir, "marxism", "dev.json"),
      JSON.stringify([{
        id: 0,
        question: "问",
        choices: { A: "1", B: "2", C: "3" },
        answer: "A",
      }]),
    );
    const [r] = await loadCeval(dir, { split: "test", layout: "json" });
    assert.equal(r!.answer, null);
    assert.equal(r!.choices.C, "丙");
    assert.equal(r!.subject.category, "Social Science");
    await assert.rejects(
      () => loadCeval(dir, { split: "dev" }),
      /dev\.json row 1: option D is missing/,
    );
  });
});

Deno.test("loadCeval() rejects unknown subjects and missing files with a clear message", async () => {
  await assert.rejects(
    () => loadCeval(BUNDLED, { split: "val", subjects: ["astrology"] }),
    (e: Error) =>
      e instanceof RangeError && /unknown subject "astrology"/.test(e.message),
  );
  await assert.rejects(
    () => loadCeval(BUNDLED, { split: "val", subjects: ["college_physics"] }),
    /no csv file for subject "college_physics"/,
  );
  await withTemp(async (dir) => {
    await assert.rejects(
      () => loadCeval(dir, { split: "val" }),
      Deno.errors.NotFound,
    );
  });
});
