import assert from "node:assert/strict";
import { compareNumeric } from "../../lib/judge/mod.ts";

Deno.test("compareNumeric() matches equal rationals exactly, whatever the form", () => {
  assert.equal(compareNumeric("3/4", "0.75").equal, true);
  assert.equal(compareNumeric("3/4", "6/8").equal, true);
  assert.equal(
    compareNumeric("121932631112635269", "121932631112635269").equal,
    true,
  );
});

Deno.test("compareNumeric() is exact for integer keys by default", () => {
  const r = compareNumeric("121932631112635269", "121932631112635270");
  assert.equal(r.equal, false);
  assert.ok(r.relError > 0);
});

Deno.test("compareNumeric() applies a relative tolerance to non-integer keys", () => {
  assert.equal(compareNumeric("1/3", "0.333333333333").equal, true);
  assert.equal(compareNumeric("1/3", "0.3333").equal, false);
  assert.equal(
    compareNumeric("1/3", "0.3333", { tolerance: { rel: 1e-3 } }).equal,
    true,
  );
});

Deno.test("compareNumeric() demands exactness for a reply written as a fraction", () => {
  assert.equal(
    compareNumeric("1/3", "333333333333/1000000000000", {
      replyIsFraction: true,
    }).equal,
    false,
  );
});

Deno.test("compareNumeric() applies absolute and relative tolerances when given", () => {
  assert.equal(
    compareNumeric("100", "100.4", { tolerance: { abs: 0.5 } }).equal,
    true,
  );
  assert.equal(
    compareNumeric("100", "100.6", { tolerance: { abs: 0.5 } }).equal,
    false,
  );
  assert.equal(
    compareNumeric("0", "0.001", { tolerance: { abs: 0.01 } }).equal,
    true,
  );
  assert.equal(
    compareNumeric("1000", "1009", { tolerance: { rel: 0.01 } }).equal,
    true,
  );
});

Deno.test("compareNumeric() reports the relative error", () => {
  assert.equal(compareNumeric("200", "150").relError, 0.25);
  assert.equal(compareNumeric("0", "2").relError, 2);
  assert.throws(() => compareNumeric("x", "1"), SyntaxError);
});
