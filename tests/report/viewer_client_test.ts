// The viewer's page script, its parts that need no DOM: the payload's
// accessors, the state in the fragment, filters, sort, columns, groups and
// the numbers it prints. The DOM parts are driven by tests/browser/.
import assert from "node:assert/strict";
import type { ViewerPayload } from "../../lib/report/viewer/payload.ts";
import { openTable } from "../../lib/report/viewer/client/_table.ts";
import {
  blankState,
  fromHash,
  toHash,
} from "../../lib/report/viewer/client/_state.ts";
import {
  columns,
  filtered,
  groups,
  sorted,
} from "../../lib/report/viewer/client/_query.ts";
import { fmt, mcnemar } from "../../lib/report/viewer/client/_numbers.ts";

const payload = (p: Partial<ViewerPayload>): ViewerPayload => ({
  n: 0,
  total: 0,
  S: [],
  I: [],
  C: {},
  detail: [],
  spans: {},
  suites: [],
  ...p,
});

Deno.test("openTable() reads interned and plain columns, in natural order", () => {
  const t = openTable(payload({
    n: 2,
    S: ["a10", "a2"],
    I: ["model"],
    C: { model: [0, 1], sample: [0, null] },
  }));
  assert.equal(t.val("model", 1), "a2");
  assert.equal(t.val("sample", 1), null);
  assert.equal(t.val("absent", 0), null);
  assert.deepEqual(t.distinct("model"), ["a2", "a10"]);
  assert.equal(t.indexOfKey("x"), -1);
});

Deno.test("blankState() pairs over models when they differ, else the first axis", () => {
  assert.equal(blankState(["template"]).by, "template");
  assert.equal(blankState(["run", "model"]).by, "model");
  assert.equal(blankState([]).by, "model");
});

Deno.test("toHash() and fromHash() round-trip a state; other fragments are not the viewer's", () => {
  const s = { ...blankState(["model"]), q: "x y", f: { status: "!correct" } };
  assert.equal(toHash(s), "#explore?f.status=%21correct&q=x+y");
  assert.deepEqual(fromHash(toHash(s), ["model"]), s);
  assert.equal(fromHash("#other", ["model"]), null);
  const d = fromHash("#explore?view=disagree&by=template&open=k", ["model"]);
  assert.equal(d?.view, "disagree");
  assert.equal(d?.by, "template");
  assert.equal(d?.open, "k");
  // Only the three axes: an inherited property name is not one.
  assert.equal(fromHash("#explore?by=constructor", ["model"])?.by, "model");
});

Deno.test("filtered() applies filters and search; the disagreement view ignores the status filter", () => {
  const t = openTable(payload({
    n: 2,
    S: ["correct", "wrong", "Two"],
    I: ["status", "question"],
    C: { status: [0, 1], question: [2, 2] },
  }));
  const s = { ...blankState([]), f: { status: "!correct" }, q: "two" };
  assert.deepEqual(filtered(t, s, false).idx, [1]);
  assert.deepEqual(filtered(t, s, true).idx, [0, 1]);
  const bad = filtered(t, { ...s, q: "(", re: true }, false);
  assert.deepEqual(bad.idx, []);
  assert.match(bad.error, /^not a regular expression: /);
});

Deno.test("sorted() puts nulls last in both directions", () => {
  const t = openTable(payload({ n: 3, C: { latency_ms: [20, null, 3] } }));
  assert.deepEqual(sorted(t, [0, 1, 2], "latency_ms"), [2, 0, 1]);
  assert.deepEqual(sorted(t, [0, 1, 2], "-latency_ms"), [0, 2, 1]);
  assert.deepEqual(sorted(t, [2, 0, 1], ""), [2, 0, 1]);
});

Deno.test("columns() gives one suite's dims their own columns", () => {
  const t = openTable(payload({
    suites: [{ name: "s", dims: [{ col: "d:s:x", name: "x", label: "x" }] }],
  }));
  const one = columns(t, blankState([]), { runs: [], suiteNames: ["s"] });
  assert.ok(one.some(([c]) => c === "d:s:x"));
  assert.ok(!one.some(([c]) => c === "suite"));
  const two = columns(t, blankState([]), { runs: [], suiteNames: ["s", "u"] });
  assert.ok(two.some(([c]) => c === "dims"));
});

Deno.test("groups() finds the questions whose members' verdicts differ", () => {
  const t = openTable(payload({
    n: 3,
    S: ["a", "b", "correct", "wrong", "q1", "q2"],
    I: ["model", "status", "question_id"],
    C: { model: [0, 1, 0], status: [2, 3, 2], question_id: [4, 4, 5] },
  }));
  const g = groups(t, [0, 1, 2], "model");
  assert.equal(g.all.length, 1);
  assert.equal(g.differ.length, 1);
  assert.deepEqual([...g.differ[0]!.members.keys()], ["a", "b"]);
});

Deno.test("fmt() and mcnemar() print counts and the exact test", () => {
  assert.equal(fmt(1234567), "1,234,567");
  assert.equal(fmt(999), "999");
  assert.equal(mcnemar(0, 0), 1);
  assert.equal(mcnemar(5, 0), 0.0625);
});
