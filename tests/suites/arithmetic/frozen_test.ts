import assert from "node:assert/strict";
import { join } from "node:path";
import {
  ARITHMETIC_FAMILIES,
  freezeQuestions,
  generateArithmetic,
  llmmathQuestions,
  loadFrozen,
} from "../../../lib/suites/arithmetic/mod.ts";

async function withDir(fn: (dir: string) => Promise<void>): Promise<void> {
  const dir = await Deno.makeTempDir({ prefix: "frozen_test_" });
  try {
    await fn(dir);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
}

Deno.test("freezeQuestions() and loadFrozen() round-trip a question set", async () => {
  await withDir(async (dir) => {
    const qs = generateArithmetic({
      seed: 1,
      families: ["add", "fraction", "word"],
      digits: [3],
      count: 3,
      language: "both",
    });
    const path = join(dir, "set.jsonl");
    await freezeQuestions(qs, path);
    const text = await Deno.readTextFile(path);
    assert.equal(text.trimEnd().split("\n").length, qs.length);
    assert.deepEqual(await loadFrozen(path), qs);
  });
});

Deno.test("loadFrozen() skips blank lines", async () => {
  await withDir(async (dir) => {
    const qs = generateArithmetic({
      seed: 1,
      families: ["add"],
      digits: [2],
      count: 2,
    });
    const path = join(dir, "set.jsonl");
    await Deno.writeTextFile(
      path,
      `\n${JSON.stringify(qs[0])}\n\n${JSON.stringify(qs[1])}\n\n`,
    );
    assert.deepEqual(await loadFrozen(path), qs);
  });
});

Deno.test("loadFrozen() names the file, line and problem of a malformed line", async () => {
  await withDir(async (dir) => {
    const [q] = generateArithmetic({
      seed: 1,
      families: ["add"],
      digits: [2],
      count: 1,
    });
    const good = JSON.stringify(q);
    const cases: [string, RegExp, new (...a: never[]) => Error][] = [
      [`${good}\n{"id": "x",`, /set\.jsonl line 2: not JSON/, SyntaxError],
      [
        `${good}\n${JSON.stringify({ ...q, id: "y", text: undefined })}`,
        /set\.jsonl line 2 at "text"/,
        TypeError,
      ],
      [
        `${
          JSON.stringify({ ...q, answer: { kind: "rational", value: "0.5" } })
        }`,
        /set\.jsonl line 1 at "answer\.value": expected an exact rational/,
        TypeError,
      ],
      [`${good}\n\n${good}`, /set\.jsonl line 3: duplicate id/, TypeError],
      [
        `${JSON.stringify({ ...q, dims: { family: ["add"] } })}`,
        /set\.jsonl line 1 at "dims\.family"/,
        TypeError,
      ],
    ];
    for (const [body, pattern, type] of cases) {
      const path = join(dir, "set.jsonl");
      await Deno.writeTextFile(path, body);
      await assert.rejects(
        loadFrozen(path),
        (e: unknown) =>
          e instanceof type && pattern.test((e as Error).message) &&
          (e as Error).message.startsWith("Cannot load frozen questions: "),
        pattern.source,
      );
    }
  });
});

Deno.test("loadFrozen() rejects a missing file", async () => {
  await assert.rejects(
    loadFrozen("/nonexistent/dir/set.jsonl"),
    Deno.errors.NotFound,
  );
});

Deno.test("data/arithmetic/frozen.jsonl still equals what the generator makes (seed 0)", async () => {
  const path = new URL(
    "../../../data/arithmetic/frozen.jsonl",
    import.meta.url,
  );
  const shipped = await loadFrozen(path.pathname);
  const fresh = generateArithmetic({
    seed: 0,
    families: ARITHMETIC_FAMILIES,
    digits: [2, 4],
    count: 3,
    language: "both",
  });
  assert.equal(shipped.length, 156);
  assert.deepEqual(fresh, shipped);
});

Deno.test("data/arithmetic/llmmath.jsonl holds the seven llmmath items", async () => {
  const path = new URL(
    "../../../data/arithmetic/llmmath.jsonl",
    import.meta.url,
  );
  assert.deepEqual(await loadFrozen(path.pathname), llmmathQuestions());
});
