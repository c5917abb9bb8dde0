import assert from "node:assert/strict";
import {
  applyMistake,
  carryPositions,
  chooseMistake,
  MISTAKE_KINDS,
  type MistakeContext,
  type MistakeKind,
} from "../../../lib/providers/sim/mod.ts";
import { ask, lcg, nDigits } from "./_helpers.ts";

/**
 * An independent forensic classifier: every way `wrong` can be explained
 * as a slip on `correct` (empty when it looks like no real mistake).
 */
function explanations(
  correct: bigint,
  wrong: bigint,
  a: bigint,
  b: bigint,
  op: string,
): Set<string> {
  const out = new Set<string>();
  const diff = wrong > correct ? wrong - correct : correct - wrong;
  if (diff <= 9n) out.add("near_miss");
  const diffText = diff.toString();
  if (/^10*$/.test(diffText) && diff >= 10n) out.add("carry_slip");
  if (wrong === -correct) out.add("sign_error");
  if (wrong === correct * 10n || correct === wrong * 10n) {
    out.add("place_value");
  }
  if (wrong === a || wrong === b) out.add("operand_echo");
  const c = (correct < 0n ? -correct : correct).toString();
  const w = (wrong < 0n ? -wrong : wrong).toString();
  if ((correct < 0n) === (wrong < 0n)) {
    if (c.length === w.length) {
      const at: number[] = [];
      for (let i = 0; i < c.length; i++) if (c[i] !== w[i]) at.push(i);
      if (at.length === 1) out.add("wrong_digit");
      if (
        at.length === 2 && at[1] === at[0]! + 1 && c[at[0]!] === w[at[1]!] &&
        c[at[1]!] === w[at[0]!]
      ) out.add("transposed_digits");
    }
    const [long, short] = c.length > w.length ? [c, w] : [w, c];
    if (long.length === short.length + 1) {
      for (let i = 0; i < long.length; i++) {
        if (long.slice(0, i) + long.slice(i + 1) === short) {
          out.add(long === w ? "extra_digit" : "dropped_digit");
          break;
        }
      }
    }
  }
  if (op === "*") {
    const digits = b.toString();
    for (let k = 0; k < digits.length; k++) {
      const row = a * BigInt(digits[digits.length - 1 - k]!) * 10n ** BigInt(k);
      if (wrong === row || wrong === correct - row) out.add("partial_product");
    }
  }
  return out;
}

function context(op: "+" | "-" | "*", a: bigint, b: bigint): MistakeContext {
  const correct = op === "+" ? a + b : op === "-" ? a - b : a * b;
  return { op, left: a, right: b, correct };
}

Deno.test("applyMistake() never returns the true value and each kind is recognisable", () => {
  const rand = lcg(9);
  const misfits: string[] = [];
  for (const kind of MISTAKE_KINDS) {
    for (let i = 0; i < 200; i++) {
      const op = (["+", "-", "*"] as const)[i % 3]!;
      const a = nDigits(rand, 2 + (i % 6)),
        b = nDigits(rand, 2 + ((i >> 1) % 6));
      const ctx = context(op, a, b);
      const wrong = applyMistake(kind, ctx, { rng: rand });
      assert.notEqual(wrong, ctx.correct);
      const found = explanations(ctx.correct, wrong, a, b, op);
      // A kind that cannot apply falls back to a wrong digit or a near miss.
      const fallback = found.has("wrong_digit") || found.has("near_miss");
      if (!found.has(kind) && !fallback) {
        misfits.push(`${kind}: ${a} ${op} ${b} = ${ctx.correct}, got ${wrong}`);
      }
    }
  }
  assert.deepEqual(misfits, []);
});

Deno.test("chooseMistake() mostly slips carries in sums and digits in products", () => {
  const rand = lcg(3);
  const counts = (op: "+" | "*") => {
    const c: Partial<Record<MistakeKind, number>> = {};
    for (let i = 0; i < 1000; i++) {
      const kind = chooseMistake(context(op, 58967n, 67845n), rand);
      c[kind] = (c[kind] ?? 0) + 1;
    }
    return c;
  };
  const sum = counts("+"), product = counts("*");
  assert.ok((sum.carry_slip ?? 0) > 300, JSON.stringify(sum));
  assert.equal(sum.partial_product, undefined);
  assert.ok(
    (product.wrong_digit ?? 0) > (product.carry_slip ?? 0),
    JSON.stringify(product),
  );
});

Deno.test("carryPositions() finds carries and borrows column by column", () => {
  assert.deepEqual(carryPositions({ op: "+", left: 999n, right: 1n }), [
    1,
    2,
    3,
  ]);
  assert.deepEqual(carryPositions({ op: "+", left: 123n, right: 456n }), []);
  assert.deepEqual(carryPositions({ op: "-", left: 1000n, right: 1n }), [
    1,
    2,
    3,
  ]);
  assert.deepEqual(carryPositions({ op: "*", left: 99n, right: 99n }), []);
});

Deno.test("simChat() wrong answers differ from the right ones in a classifiable way", () => {
  const rand = lcg(2024);
  const classes: Record<string, number> = {};
  let wrongCount = 0;
  const unexplained: string[] = [];
  for (let i = 0; i < 600; i++) {
    const op = i % 2 ? "*" : "+";
    const n = op === "*" ? 3 + (i % 5) : 12 + (i % 8);
    const a = nDigits(rand, n), b = nDigits(rand, n);
    const correct = op === "*" ? a * b : a + b;
    const text = ask(
      "sim-average",
      `What is ${a} ${op} ${b}? Output only the number.`,
      { seed: i },
    ).choice.message.content ?? "";
    const m = /^-?\d+$/.exec(
      text.replace(/,/g, "").trim().replace(/^The answer is |\.$/g, ""),
    );
    if (!m) continue; // refusal or prose
    const value = BigInt(m[0]);
    if (value === correct) continue;
    wrongCount++;
    const found = explanations(correct, value, a, b, op);
    for (const k of found) classes[k] = (classes[k] ?? 0) + 1;
    if (!found.size) {
      unexplained.push(`${a} ${op} ${b} = ${correct}, got ${value}`);
    }
  }
  console.log(
    `${wrongCount} wrong answers of 600; classes: ${JSON.stringify(classes)}`,
  );
  assert.ok(wrongCount > 50);
  assert.deepEqual(unexplained, []);
});
