import assert from "node:assert/strict";
import {
  classifyNumericError,
  NUMERIC_ERROR_CLASSES,
} from "../../../lib/suites/arithmetic/mod.ts";

const add = (a: string, b: string) => ({ payload: { op: "+", a, b } });
const sub = (a: string, b: string) => ({ payload: { op: "-", a, b } });
const mul = (a: string, b: string) => ({ payload: { op: "×", a, b } });

Deno.test("classifyNumericError() finds a sign error (same magnitude)", () => {
  assert.equal(
    classifyNumericError("-4556", "4556", { question: sub("4821", "9377") })
      .errorClass,
    "sign",
  );
  assert.equal(classifyNumericError("3/4", "-3/4").errorClass, "sign");
  assert.notEqual(classifyNumericError("0", "0").errorClass, "sign");
});

Deno.test("classifyNumericError() finds a place-value slip (off by 10^k)", () => {
  assert.equal(
    classifyNumericError("56088", "560880", { question: mul("123", "456") })
      .errorClass,
    "place_value",
  );
  assert.equal(
    classifyNumericError("56088", "5608.8").errorClass,
    "place_value",
  );
  assert.equal(classifyNumericError("1/8", "1/800").errorClass, "place_value");
});

Deno.test("classifyNumericError() finds a carry slip only at a carrying column in a sum", () => {
  // 58 + 67: column 0 carries into column 1, column 1 into column 2.
  assert.equal(
    classifyNumericError("125", "115", { question: add("58", "67") })
      .errorClass,
    "carry",
  );
  assert.equal(
    classifyNumericError("125", "25", { question: add("58", "67") }).errorClass,
    "carry",
  );
  // 12 + 34 = 46 has no carries: +10 is a wrong digit, not a carry slip.
  assert.equal(
    classifyNumericError("46", "56", { question: add("12", "34") }).errorClass,
    "digit",
  );
});

Deno.test("classifyNumericError() finds a borrow slip in a difference", () => {
  // 52 - 17: column 0 borrows from column 1 -> forgetting it gives 45.
  assert.equal(
    classifyNumericError("35", "45", { question: sub("52", "17") }).errorClass,
    "carry",
  );
});

Deno.test("classifyNumericError() counts ±10^k in a product as a carry slip", () => {
  assert.equal(
    classifyNumericError("56088", "57088", { question: mul("123", "456") })
      .errorClass,
    "carry",
  );
});

Deno.test("classifyNumericError() finds a single wrong digit", () => {
  assert.equal(classifyNumericError("56088", "56588").errorClass, "digit");
  assert.equal(classifyNumericError("12.5", "12.7").errorClass, "digit");
});

Deno.test("classifyNumericError() finds transposed adjacent digits", () => {
  assert.equal(
    classifyNumericError("56088", "50688").errorClass,
    "transposition",
  );
  assert.equal(
    classifyNumericError("1234", "1324").errorClass,
    "transposition",
  );
});

Deno.test("classifyNumericError() finds dropped and extra digits", () => {
  assert.equal(
    classifyNumericError("56088", "5688").errorClass,
    "dropped_digit",
  );
  assert.equal(
    classifyNumericError("56088", "560388").errorClass,
    "extra_digit",
  );
});

Deno.test("classifyNumericError() finds an operand echo and a partial product", () => {
  assert.equal(
    classifyNumericError("56088", "456", { question: mul("123", "456") })
      .errorClass,
    "operand_echo",
  );
  // 123 × 6 = 738, a partial product of 123 × 456.
  assert.equal(
    classifyNumericError("56088", "738", { question: mul("123", "456") })
      .errorClass,
    "operand_echo",
  );
  // 123 × 5 shifted: 6150.
  assert.equal(
    classifyNumericError("56088", "6150", { question: mul("123", "456") })
      .errorClass,
    "operand_echo",
  );
  // Word-problem quantities count as operands too.
  const word = {
    payload: { op: "word", qty: "6", price: "486", paid: "10000" },
  };
  assert.equal(
    classifyNumericError("7084", "10000", { question: word }).errorClass,
    "operand_echo",
  );
});

Deno.test("classifyNumericError() finds a near miss (relative error under 1%)", () => {
  const r = classifyNumericError("121932631112635269", "121932631000000000");
  assert.equal(r.errorClass, "near_miss");
  assert.ok(r.relError > 0 && r.relError < 0.01);
});

Deno.test("classifyNumericError() falls back to other, with the relative error", () => {
  const r = classifyNumericError("100", "250");
  assert.equal(r.errorClass, "other");
  assert.equal(r.relError, 1.5);
  assert.equal(classifyNumericError("0", "7").relError, 7);
});

Deno.test("classifyNumericError() covers every class in its list", () => {
  const seen = new Set([
    classifyNumericError("-5", "5").errorClass,
    classifyNumericError("56088", "456", { question: mul("123", "456") })
      .errorClass,
    classifyNumericError("56088", "560880").errorClass,
    classifyNumericError("125", "115", { question: add("58", "67") })
      .errorClass,
    classifyNumericError("1234", "1324").errorClass,
    classifyNumericError("56088", "56588").errorClass,
    classifyNumericError("56088", "5688").errorClass,
    classifyNumericError("56088", "560388").errorClass,
    classifyNumericError("100000", "100537").errorClass,
    classifyNumericError("100", "250").errorClass,
  ]);
  assert.deepEqual([...seen].sort(), [...NUMERIC_ERROR_CLASSES].sort());
});

Deno.test("classifyNumericError() throws SyntaxError on a non-rational", () => {
  assert.throws(() => classifyNumericError("1", "abc"), SyntaxError);
});
