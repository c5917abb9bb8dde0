/**
 * The question-and-answer suite reads a user's file in each format, turns
 * every other column into a dim, judges each answer type as written, and
 * names the file, the line and the column when a row cannot be used.
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import pl from "nodejs-polars";
import { qaSuite } from "../../../lib/suites/qa/mod.ts";
import type { Completion } from "../../../lib/types.ts";
import { scoreWith } from "../../_score.ts";

async function withDir(fn: (dir: string) => Promise<void>): Promise<void> {
  const dir = await Deno.makeTempDir();
  try {
    await fn(dir);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
}

const reply = (text: string): Completion => ({
  text,
  reasoning: null,
  finishReason: "stop",
  usage: { promptTokens: 1, completionTokens: 1 },
  latencyMs: 1,
  attempts: 1,
});

/** The questions of `params` with the dataset `file` written as `content`. */
async function questions(
  dir: string,
  file: string,
  content: string | Uint8Array,
  params: Record<string, unknown> = {},
) {
  const path = join(dir, file);
  if (typeof content === "string") await Deno.writeTextFile(path, content);
  else await Deno.writeFile(path, content);
  return await qaSuite.questions({
    seed: 0,
    params: { dataset: file, ...params },
    baseDir: dir,
  });
}

/** Judges a reply to a question as the runner would. */
async function judge(
  q: Awaited<ReturnType<typeof questions>>[number],
  text: string,
) {
  const c = reply(text);
  const params = { dataset: "unused.csv" };
  const e = await qaSuite.extract(q, c, { params });
  return { e, v: await scoreWith(qaSuite, q, c, e, params) };
}

Deno.test("qa reads CSV, JSONL, JSON and parquet into the same questions, every other column a dim", () =>
  withDir(async (dir) => {
    const csv = await questions(
      dir,
      "q.csv",
      "\uFEFFid,question,answer,category,level\r\nt1,What is the total?,440.55,money,2\r\n",
    );
    const jsonl = await questions(
      dir,
      "q.jsonl",
      '{"id":"t1","question":"What is the total?","answer":"440.55","category":"money","level":2}\n',
    );
    const json = await questions(
      dir,
      "q.json",
      JSON.stringify({
        data: [{
          id: "t1",
          question: "What is the total?",
          answer: 440.55,
          category: "money",
          level: 2,
        }],
      }),
    );
    const frame = pl.DataFrame({
      id: ["t1"],
      question: ["What is the total?"],
      answer: ["440.55"],
      category: ["money"],
      level: [2],
    });
    const buffer = frame.writeParquet();
    const parquet = await questions(dir, "q.parquet", new Uint8Array(buffer));
    for (const got of [csv, jsonl, json, parquet]) {
      assert.equal(got.length, 1);
      assert.equal(got[0]!.text, "What is the total?");
      assert.deepEqual(got[0]!.answer, { kind: "rational", value: "8811/20" });
      assert.deepEqual(got[0]!.dims, {
        category: "money",
        level: 2,
        answer_type: "number",
      });
      assert.equal(got[0]!.id.endsWith("/t1"), true);
    }
  }));

Deno.test("qa judges a number as written: exact decimals and fractions, a tolerance when declared, explained in the dataset's own writing", () =>
  withDir(async (dir) => {
    const [q] = await questions(
      dir,
      "q.csv",
      "question,answer\nTotal?,440.55\n",
    );
    assert.equal(
      (await judge(q!, "The total is $440.55.")).v.status,
      "correct",
    );
    assert.equal((await judge(q!, "8811/20")).v.status, "correct");
    const wrong = await judge(q!, "440.5");
    assert.equal(wrong.v.status, "wrong");
    assert.equal(wrong.v.explanation, "expected 440.55, got 440.5");
    const [loose] = await questions(
      dir,
      "r.csv",
      "question,answer\nTotal?,440.55\n",
      {
        tolerance: { abs: 0.1 },
      },
    );
    assert.equal((await judge(loose!, "440.5")).v.status, "correct");
  }));

Deno.test("qa judges choices (letters any case, an answer given as option text), exact strings and patterns", () =>
  withDir(async (dir) => {
    const choices = await questions(
      dir,
      "c.csv",
      "question,A,B,C,D,answer\nWhich is a noble gas?,Oxygen,Neon,Iron,Sodium,b\nWhich is a metal?,Neon,Argon,Iron,Helium,Iron\n",
      { columns: { choices: ["A", "B", "C", "D"] } },
    );
    assert.deepEqual(choices.map((q) => q.answer.value), ["B", "C"]);
    assert.match(
      qaSuite.templates.direct!.render(choices[0]!)[0]!.content,
      /Which is a noble gas\?\nA\. Oxygen\nB\. Neon\nC\. Iron\nD\. Sodium\n\nAnswer with the letter/,
    );
    assert.equal((await judge(choices[0]!, "答案：b")).v.status, "correct");
    assert.equal(
      (await judge(choices[1]!, "The answer is (B).")).v.status,
      "wrong",
    );
    const [exact] = await questions(
      dir,
      "e.csv",
      "question,answer\nCapital of France?,Paris\n",
    );
    assert.deepEqual(exact!.dims, { answer_type: "exact" });
    assert.equal(
      (await judge(exact!, "Let me think.\nAnswer: **paris**.")).v.status,
      "correct",
    );
    assert.equal((await judge(exact!, "Lyon")).v.status, "wrong");
    const [pattern] = await questions(
      dir,
      "p.csv",
      'question,answer\nA prime above 10?,"^(11|13|17|19)$"\n',
      {
        answer: "regex",
      },
    );
    assert.equal((await judge(pattern!, "Answer: 13")).v.status, "correct");
    assert.equal((await judge(pattern!, "Answer: 15")).v.status, "wrong");
  }));

Deno.test("qa names the file, the line and the column of a row it cannot use", () =>
  withDir(async (dir) => {
    const cases: [
      string,
      string | Uint8Array,
      Record<string, unknown>,
      RegExp,
    ][] = [
      [
        "a.csv",
        "q,a\nx,1\n",
        {},
        /a\.csv: it has no "question" column \(the question\); its columns are q, a; name the question column/,
      ],
      [
        "b.csv",
        "question,answer\nx,1\ny,two\n",
        { answer: "number" },
        /b\.csv line 3: the answer "two" is not a number .*"answer": "exact"/,
      ],
      [
        "c.csv",
        "id,question,answer\nk,x,1\nk,y,2\n",
        {},
        /c\.csv line 3: the id "k" is also on line 2/,
      ],
      [
        "d.jsonl",
        '{"question":"x","answer":"1"}\n{oops}\n',
        {},
        /d\.jsonl line 2: not JSON/,
      ],
      [
        "e.csv",
        new Uint8Array([
          ...new TextEncoder().encode("question,answer\nx,1\ny,"),
          0xff,
          0x0a,
        ]),
        {},
        /e\.csv: line 3, byte \d+ is not UTF-8/,
      ],
      [
        "f.csv",
        "question,answer\nx,\n",
        {},
        /f\.csv line 2: the "answer" column \(the answer\) is empty/,
      ],
      [
        "g.txt",
        "question,answer\nx,1\n",
        {},
        /g\.txt: its extension is not \.csv/,
      ],
      [
        "h.csv",
        "question,A,B,answer\nx,p,q,C\n",
        { columns: { choices: ["A", "B"] } },
        /h\.csv line 2: the answer "C" is neither an option letter \(A to B\)/,
      ],
    ];
    for (const [file, content, params, pattern] of cases) {
      await assert.rejects(
        questions(dir, file, content, params),
        (e: unknown) =>
          e instanceof Error && /InputError$/.test(e.name) &&
          pattern.test(e.message),
        file,
      );
    }
  }));
