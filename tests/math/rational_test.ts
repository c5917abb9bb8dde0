import assert from "node:assert/strict";
import {
  decimalString,
  formatRational,
  parseRational,
  roundRational,
} from "../../lib/math/mod.ts";

Deno.test("parseRational() reads integers, decimals and fractions exactly", () => {
  assert.equal(formatRational(parseRational("0.1")), "1/10");
  assert.equal(formatRational(parseRational("-12/8")), "-3/2");
  assert.equal(
    formatRational(parseRational(12345678901234567890n)),
    "12345678901234567890",
  );
  assert.equal(
    formatRational(parseRational("99999999999999999999.5")),
    "199999999999999999999/2",
  );
  assert.equal(formatRational(parseRational("0")), "0");
  assert.equal(formatRational(parseRational("-0")), "0");
});

Deno.test("parseRational() rejects non-rationals with SyntaxError", () => {
  for (const bad of ["", "1,000", "1/0", "abc", "1e3", "1/2/3"]) {
    assert.throws(() => parseRational(bad), SyntaxError, bad);
  }
});

Deno.test("roundRational() and decimalString() round half away from zero", () => {
  assert.equal(
    formatRational(roundRational(parseRational("1/8"), 2)),
    "13/100",
  );
  assert.equal(
    formatRational(roundRational(parseRational("-1/8"), 2)),
    "-13/100",
  );
  assert.equal(decimalString(parseRational("1/3"), 3), "0.333");
  assert.equal(decimalString(parseRational("2/3"), 0), "1");
  assert.equal(decimalString(parseRational("-1/40"), 1), "-0.025");
  assert.equal(decimalString(parseRational("1234"), 2), "1234");
});
