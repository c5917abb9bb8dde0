/**
 * One rule decides which rows are scored (`isScored` in
 * lib/judge/status.ts): the frame filter of the report (`scoredRows`),
 * `summarize`, the closing table's tally and C-Eval's tables keep exactly
 * the rows it accepts, for every status with a key, without one, and
 * with none recorded.
 */
import assert from "node:assert/strict";
import pl from "nodejs-polars";
import { isScored, STATUSES } from "../../lib/judge/status.ts";
import { scoredRows, summarize, SummaryTally } from "../../lib/report/mod.ts";
import { cevalScored } from "../../lib/suites/ceval/mod.ts";

/** Every kind of row: each status (and none) × a key, an empty one, none. */
function everyKind() {
  const rows = [];
  for (const status of [...STATUSES, null]) {
    for (const expected of ["B", "", null]) {
      rows.push({
        id: `${status}|${expected}`,
        suite: "ceval",
        model: "m",
        status,
        expected,
        correct: status === "correct",
      });
    }
  }
  return rows;
}

Deno.test("scoredRows() keeps exactly the rows isScored() accepts", () => {
  const rows = everyKind();
  const frame = pl.DataFrame(rows);
  const kept = scoredRows(frame).getColumn("id").toArray();
  const want = rows.filter((r) => isScored(r)).map((r) => r.id);
  assert.deepEqual(kept, want);
  // The rule's two exclusions: an unscored row, and a failed request of a
  // question without a key; a failed request of a keyed question counts.
  assert.ok(!kept.includes("unscored|B"));
  assert.ok(!kept.includes("error|"));
  assert.ok(kept.includes("error|B"));
  assert.ok(kept.includes("error|null"));
});

Deno.test("summarize(), the tally and cevalScored() count the rows isScored() accepts", async () => {
  const rows = everyKind();
  const frame = pl.DataFrame(rows);
  const want = rows.filter((r) => isScored(r));
  const [line] = summarize(frame, ["model"]).toRecords();
  assert.equal(line!.n, want.length);
  assert.equal(line!.correct, want.filter((r) => r.correct).length);
  const tally = new SummaryTally(["model"]);
  for (const r of rows) {
    tally.add(
      {
        ...r,
        status: r.status ?? undefined,
        expected: r.expected ?? undefined,
        format_valid: true,
      } as unknown as Parameters<SummaryTally["add"]>[0],
    );
  }
  const [counted] = await tally.lines();
  assert.equal(counted!.n, want.length);
  assert.equal(counted!.correct, line!.correct);
  // Every stored row is stored, and every error row an error row.
  assert.deepEqual(tally.stored()[0], {
    keys: ["m"],
    stored: rows.length,
    errors: rows.filter((r) => r.status === "error").length,
  });
  assert.equal(cevalScored(frame).height, want.length);
});
