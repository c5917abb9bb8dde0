import assert from "node:assert/strict";
import {
  CORPUS_FILES,
  type CorpusKind,
  measureCorpus,
  readCorpus,
  splitOf,
} from "./corpus.ts";

const DIR = new URL("./corpus", import.meta.url).pathname;
/** At least this many lines per file, and a third of them per half. */
const MINIMUM: Record<CorpusKind, number> = {
  number: 300,
  choice: 300,
  code: 60,
};

Deno.test("the extraction corpus: every line parses, has its fields, a unique id and the half its id fixes", async () => {
  const ids = new Set<string>();
  for (const kind of Object.keys(CORPUS_FILES) as CorpusKind[]) {
    const lines = await readCorpus(DIR, kind);
    assert.ok(lines !== null, `${kind}.jsonl is missing`);
    assert.ok(lines.length >= MINIMUM[kind], `${kind}: ${lines.length} lines`);
    for (const line of lines) {
      assert.ok(!ids.has(line.id), `${line.id} twice`);
      ids.add(line.id);
      assert.equal(line.split, await splitOf(line.id), line.id);
      assert.ok(typeof line.reply === "string" && line.reply !== "", line.id);
      assert.ok(typeof line.why === "string" && line.why !== "", line.id);
      assert.ok(Array.isArray(line.style) && line.style.length > 0, line.id);
      const e = line.expected as Record<string, unknown>;
      const keys = Object.keys(e).sort().join(",");
      if (kind === "code") {
        assert.ok(keys === "contains,excludes" || keys === "none", line.id);
        for (const s of (e.contains as string[] | undefined) ?? []) {
          assert.ok(
            line.reply.includes(s),
            `${line.id}: ${s} not in the reply`,
          );
        }
      } else {
        assert.ok(["value", "none", "ambiguous"].includes(keys), line.id);
      }
      if (kind === "number" && "value" in e) {
        assert.match(String(e.value), /^-?\d+(\/\d+)?$/, line.id);
      }
      if (kind === "choice") {
        assert.deepEqual(
          Object.keys(line.question.choices as object).sort(),
          ["A", "B", "C", "D"],
          line.id,
        );
      }
    }
    for (const half of ["dev", "heldout"] as const) {
      const n = lines.filter((l) => l.split === half).length;
      assert.ok(
        n >= lines.length / 3,
        `${kind} ${half}: ${n} of ${lines.length}`,
      );
    }
  }
});

Deno.test("measureCorpus() runs each suite's extraction over both halves of every file", async () => {
  const { results, missing } = await measureCorpus(DIR);
  assert.deepEqual(missing, []);
  assert.equal(results.length, 6);
  for (const r of results) {
    assert.ok(r.total > 0 && r.correct <= r.total, `${r.kind} ${r.split}`);
    assert.equal(r.misses.length, r.total - r.correct);
  }
  // A reply the grader reads as an answer, and the harness agrees.
  const number = results.find((r) => r.kind === "number" && r.split === "dev")!;
  assert.ok(number.correct > 0);
});
