import assert from "node:assert/strict";
import {
  ARITHMETIC_FAMILIES,
  generateArithmetic,
  llmmathQuestions,
} from "../../../lib/suites/arithmetic/mod.ts";
import { calculate } from "../../../lib/suites/arithmetic/calculator.ts";
import { formatRational, parseRational } from "../../../lib/math/rational.ts";

Deno.test("generateArithmetic() pins ids and texts for seed 42 across versions", () => {
  const qs = generateArithmetic({
    seed: 42,
    families: ["add", "mul", "expr", "word"],
    digits: [4],
    count: 2,
    ops: [3],
    language: "both",
  });
  const pinned = qs.map((q) => [q.id, q.text, q.answer.value]);
  assert.deepEqual(pinned[0], [
    "arithmetic/add/d4/s42/0/en",
    "What is 6352 + 9377?",
    "15729",
  ]);
  assert.deepEqual(pinned[1], [
    "arithmetic/add/d4/s42/0/zh",
    "计算 6352 + 9377。",
    "15729",
  ]);
  assert.deepEqual(pinned[4], [
    "arithmetic/mul/d4x4/s42/0/en",
    "What is 8029 × 7539?",
    "60530631",
  ]);
  assert.deepEqual(pinned[8], [
    "arithmetic/expr/d4o3/s42/0/en",
    "What is 909 - 309 - 8559 × 4?",
    "-33636",
  ]);
  assert.deepEqual(pinned[15], [
    "arithmetic/word/d4/s42/1/zh",
    "一辆汽车匀速行驶，9 小时行了 4806 千米。它的速度是每小时多少千米？",
    "534",
  ]);
  const [sub] = generateArithmetic({
    seed: 42,
    families: ["sub"],
    digits: [6],
    count: 1,
    carries: 3,
  });
  assert.equal(sub?.id, "arithmetic/sub/d6c3/s42/0/en");
  assert.equal(sub?.text, "What is 881743 - 769697?");
});

Deno.test("generateArithmetic() gives the same questions for the same seed and others for another", () => {
  const options = {
    seed: 9,
    families: ARITHMETIC_FAMILIES,
    digits: [3, 6],
    count: 3,
    language: "both" as const,
  };
  const a = generateArithmetic(options), b = generateArithmetic(options);
  assert.deepEqual(a, b);
  const c = generateArithmetic({ ...options, seed: 10 });
  assert.notDeepEqual(a.map((q) => q.text), c.map((q) => q.text));
  assert.equal(new Set(a.map((q) => q.id)).size, a.length, "ids are unique");
});

Deno.test("generateArithmetic() keeps a cell's questions when other families are added", () => {
  const alone = generateArithmetic({
    seed: 5,
    families: ["mul"],
    digits: [3],
    count: 4,
  });
  const mixed = generateArithmetic({
    seed: 5,
    families: ["add", "mul", "word"],
    digits: [2, 3],
    count: 4,
  }).filter((q) => q.dims.family === "mul" && q.dims.digits === 3);
  assert.deepEqual(mixed, alone);
});

Deno.test("generateArithmetic() pairs English and Chinese versions with the same numbers", () => {
  const qs = generateArithmetic({
    seed: 3,
    families: ARITHMETIC_FAMILIES,
    digits: [4],
    count: 2,
    language: "both",
  });
  for (let i = 0; i < qs.length; i += 2) {
    const en = qs[i], zh = qs[i + 1];
    assert.ok(en !== undefined && zh !== undefined);
    assert.equal(en.dims.language, "en");
    assert.equal(zh.dims.language, "zh");
    assert.equal(en.id.replace(/\/en$/, "/zh"), zh.id);
    assert.deepEqual(en.answer, zh.answer);
    const numbers = (t: string) =>
      (t.match(/\d+(\.\d+)?/g) ?? []).sort().join(",");
    if (en.dims.variant !== "discount") {
      assert.equal(numbers(en.text), numbers(zh.text), en.text);
    }
  }
});

Deno.test("generateArithmetic() answers are exact for every family (checked by an independent parser)", () => {
  const qs = generateArithmetic({
    seed: 11,
    families: ["add", "sub", "mul", "div", "decimal", "fraction", "expr"],
    digits: [1, 3, 7, 12],
    ops: [2, 5],
    count: 5,
  });
  assert.ok(qs.length > 100);
  for (const q of qs) {
    const text = q.text;
    const rounded = /Round to (\d+) decimal places/.exec(text);
    const expr = text
      .replace(/^What is /, "")
      .replace(/\? Round to \d+ decimal places\.$/, "")
      .replace(/\? Give the answer as a fraction in lowest terms\.$/, "")
      .replace(/\?$/, "");
    const exact = parseRational(calculate(expr));
    if (rounded === null) {
      assert.equal(formatRational(exact), q.answer.value, text);
    } else {
      const places = Number(rounded[1]);
      const got = parseRational(String(q.answer.value));
      const err = got.sub(exact).abs();
      const half = parseRational(`1/${2n * 10n ** BigInt(places)}`);
      assert.ok(
        err.compare(half) <= 0,
        `${text}: ${q.answer.value} is not rounded right`,
      );
    }
  }
});

Deno.test("generateArithmetic() percent answers match their statements", () => {
  const qs = generateArithmetic({
    seed: 2,
    families: ["percent"],
    digits: [2, 5],
    count: 20,
  });
  const variants = new Set(qs.map((q) => q.dims.variant));
  assert.deepEqual([...variants].sort(), ["change", "of", "ratio", "what"]);
  for (const q of qs) {
    const t = q.text;
    let expected: string;
    let m: RegExpExecArray | null;
    if ((m = /^What is (\d+)% of (\d+)\?$/.exec(t))) {
      expected = calculate(`${m[1]}% * ${m[2]}`);
    } else if ((m = /^([\d.]+) is what percent of (\d+)\?$/.exec(t))) {
      expected = calculate(`${m[1]} / ${m[2]} * 100`);
    } else if ((m = /^A price goes from (\d+) to ([\d.]+)\./.exec(t))) {
      expected = calculate(`(${m[2]} - ${m[1]}) / ${m[1]} * 100`);
    } else if ((m = /^Write the ratio (\d+) : (\d+) as/.exec(t))) {
      expected = calculate(`${m[1]} / ${m[2]}`);
    } else throw new Error(`unexpected text ${t}`);
    assert.equal(formatRational(parseRational(expected)), q.answer.value, t);
  }
});

/** Independent carry count: column sums on strings. */
function carries(a: string, b: string, op: "+" | "-"): number {
  let c = 0, n = 0;
  for (let i = 1; i <= a.length; i++) {
    const x = Number(a[a.length - i]), y = Number(b[b.length - i] ?? "0");
    if (op === "+") c = x + y + c >= 10 ? 1 : 0;
    else c = x - c - y < 0 ? 1 : 0;
    n += c;
  }
  return n;
}

Deno.test("generateArithmetic() makes exactly the asked carries and borrows", () => {
  for (const digits of [1, 2, 5, 10, 20]) {
    for (let k = 0; k <= digits; k++) {
      const qs = generateArithmetic({
        seed: k,
        families: ["add", "sub"],
        digits: [digits],
        count: 3,
        carries: k,
      });
      for (const q of qs) {
        const { a, b, op } = q.payload as {
          a: string;
          b: string;
          op: "+" | "-";
        };
        assert.equal(a.length, digits);
        assert.equal(b.length, digits);
        const want = op === "+" ? k : Math.min(k, digits - 1);
        assert.equal(carries(a, b, op), want, `${q.text} (${op}, ${k})`);
        assert.equal(q.dims.carries, want);
        assert.ok(BigInt(String(q.answer.value)) >= 0n);
      }
    }
  }
});

Deno.test("generateArithmetic() honours operand digit counts up to 20 and 10×10 products", () => {
  const qs = generateArithmetic({
    seed: 1,
    families: ["add", "mul"],
    digits: [20],
    mulDigits: [[10, 10], [3, 7]],
    count: 2,
  });
  for (const q of qs) {
    const { a, b } = q.payload as { a: string; b: string };
    if (q.dims.family === "add") {
      assert.equal(a.length, 20);
      assert.equal(b.length, 20);
    } else {
      assert.equal(a.length, q.dims.digits_a);
      assert.equal(b.length, q.dims.digits_b);
      assert.equal(q.answer.value, (BigInt(a) * BigInt(b)).toString());
    }
  }
  assert.deepEqual(
    [
      ...new Set(
        qs.filter((q) => q.dims.family === "mul").map((q) => q.dims.level),
      ),
    ],
    ["d10x10", "d3x7"],
  );
  assert.throws(
    () => generateArithmetic({ seed: 1, digits: [21] }),
    (e: unknown) =>
      e instanceof RangeError && /Cannot generate arithmetic/.test(e.message),
  );
});

Deno.test("generateArithmetic() records flat dims for analysis", () => {
  const qs = generateArithmetic({
    seed: 4,
    families: ARITHMETIC_FAMILIES,
    digits: [3],
    count: 2,
    language: "zh",
  });
  for (const q of qs) {
    for (
      const key of ["family", "digits", "carries", "ops", "language", "level"]
    ) {
      assert.ok(key in q.dims, `${q.id} lacks ${key}`);
    }
    for (const v of Object.values(q.dims)) {
      assert.ok(
        v === null || ["string", "number", "boolean"].includes(typeof v),
      );
    }
    assert.equal(q.dims.language, "zh");
    assert.match(q.answer.value as string, /^-?\d+(\/\d+)?$/);
  }
  const expr = qs.filter((q) => q.dims.family === "expr");
  assert.deepEqual([...new Set(expr.map((q) => q.dims.ops))], [2, 3, 4, 5]);
});

Deno.test("generateArithmetic() word problems cover every template in both languages", () => {
  const qs = generateArithmetic({
    seed: 8,
    families: ["word"],
    digits: [2, 3],
    count: 30,
    language: "both",
  });
  const variants = new Set(qs.map((q) => q.dims.variant));
  assert.deepEqual([...variants].sort(), [
    "change",
    "discount",
    "distance",
    "inventory",
    "speed",
    "unit_price",
  ]);
  for (const q of qs) {
    if (q.dims.language === "zh") assert.match(q.text, /[\u4e00-\u9fff]/);
    else assert.doesNotMatch(q.text, /[\u4e00-\u9fff]/);
  }
  const change = qs.find((q) =>
    q.dims.variant === "change" && q.dims.language === "en"
  );
  const m = /buys (\d+) \w+ at (\d+) yuan each and pays with (\d+) yuan/.exec(
    change?.text ?? "",
  );
  assert.ok(m !== null);
  assert.equal(
    change?.answer.value,
    (BigInt(m[3]!) - BigInt(m[1]!) * BigInt(m[2]!)).toString(),
  );
});

Deno.test("llmmathQuestions() holds the seven items with exact products", () => {
  const qs = llmmathQuestions();
  assert.deepEqual(
    qs.map((q) => q.id.split("/").pop()),
    [
      "12x12",
      "123x456",
      "1234x5678",
      "12345x6789",
      "123456x789012",
      "1234567x8901234",
      "987654321x123456789",
    ],
  );
  assert.equal(qs[6]?.answer.value, "121932631112635269");
  assert.equal(qs[0]?.answer.value, "144");
  assert.deepEqual(qs.map((q) => q.dims.digits), [2, 3, 4, 5, 6, 7, 9]);
});
