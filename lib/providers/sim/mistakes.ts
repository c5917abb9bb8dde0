/**
 * How the sim gets an arithmetic answer wrong. Kept apart from the skills
 * so the arithmetic suite's error forensics can be tested against the same
 * mistakes the sim makes.
 *
 * Values are integers (BigInt); a decimal result is passed scaled by a
 * power of ten and scaled back by the caller.
 *
 * @module
 */
import { intBetween, pick, pickWeighted, type Uniform } from "./rng.ts";

/** Every kind of mistake the sim makes. */
export const MISTAKE_KINDS = [
  "carry_slip",
  "wrong_digit",
  "transposed_digits",
  "dropped_digit",
  "extra_digit",
  "sign_error",
  "place_value",
  "operand_echo",
  "partial_product",
  "near_miss",
] as const;

/** One of {@linkcode MISTAKE_KINDS}. */
export type MistakeKind = typeof MISTAKE_KINDS[number];

/** A binary operation whose result goes wrong. */
export interface MistakeContext {
  /** The operation. */
  op: "+" | "-" | "*" | "/" | "^";
  /** Left operand, when it is an integer (carries and echoes need it). */
  left?: bigint;
  /** Right operand, when it is an integer. */
  right?: bigint;
  /** The true result (scaled to an integer by the caller). */
  correct: bigint;
}

/** A mistake made: its kind and the wrong value (never the true one). */
export interface Mistake {
  /** What kind of slip it is (a carry dropped, a digit swapped...). */
  kind: MistakeKind;
  /** The wrong result. */
  value: bigint;
}

const abs = (x: bigint): bigint => x < 0n ? -x : x;
const digitsOf = (x: bigint): string => abs(x).toString();

/**
 * Powers of ten that receive a carry (addition) or give a borrow
 * (subtraction) when the operation is done digit by digit on |operands|.
 *
 * @param operation `op`, `"+"` or `"-"` (others give no positions), and
 *   its `left` and `right` operands.
 * @returns Exponents k such that a carry/borrow moves across 10^k.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { carryPositions } from "./mod.ts";
 *
 * assert.deepEqual(carryPositions({ op: "+", left: 58n, right: 67n }), [1, 2]); // 8+7, 5+6+1
 * assert.deepEqual(carryPositions({ op: "-", left: 52n, right: 17n }), [1]); // 2-7 borrows
 * ```
 */
export function carryPositions(
  { op, left, right }: {
    op: MistakeContext["op"];
    left: bigint;
    right: bigint;
  },
): number[] {
  if (op !== "+" && op !== "-") return [];
  let a = abs(left), b = abs(right);
  // Subtraction of a larger magnitude: the model computes |b| - |a|.
  if (op === "-" && b > a) [a, b] = [b, a];
  const sa = a.toString(), sb = b.toString();
  const n = Math.max(sa.length, sb.length);
  const out: number[] = [];
  let carry = 0;
  for (let k = 0; k < n; k++) {
    const da = Number(sa[sa.length - 1 - k] ?? "0");
    const db = Number(sb[sb.length - 1 - k] ?? "0");
    if (op === "+") {
      carry = da + db + carry >= 10 ? 1 : 0;
    } else {
      carry = da - db - carry < 0 ? 1 : 0;
    }
    if (carry) out.push(k + 1);
  }
  return out;
}

/** Which kinds apply to a context, with weights by operation. */
function weightsFor(ctx: MistakeContext): Partial<Record<MistakeKind, number>> {
  const len = digitsOf(ctx.correct).length;
  const hasInts = ctx.left !== undefined && ctx.right !== undefined;
  const carries = hasInts
    ? carryPositions({ op: ctx.op, left: ctx.left!, right: ctx.right! }).length
    : 0;
  const w: Partial<Record<MistakeKind, number>> = {
    wrong_digit: 20,
    transposed_digits: len >= 2 ? 8 : 0,
    dropped_digit: len >= 3 ? 5 : 0,
    extra_digit: len >= 2 ? 3 : 0,
    near_miss: 10,
    place_value: 2,
    operand_echo: hasInts ? 1 : 0,
  };
  switch (ctx.op) {
    case "+":
      w.carry_slip = carries ? 40 : 0;
      break;
    case "-":
      w.carry_slip = carries ? 35 : 0;
      w.sign_error = ctx.correct < 0n ? 20 : 4;
      break;
    case "*":
      w.wrong_digit = 28;
      w.carry_slip = len >= 3 ? 18 : 0;
      w.dropped_digit = len >= 4 ? 8 : 0;
      w.extra_digit = len >= 4 ? 4 : 0;
      w.place_value = 5;
      w.partial_product = hasInts && digitsOf(ctx.right!).length >= 2 ? 6 : 0;
      w.operand_echo = hasInts ? 2 : 0;
      break;
    case "/":
      w.place_value = 12;
      w.near_miss = 25;
      break;
    case "^":
      w.near_miss = 20;
      break;
  }
  return w;
}

/**
 * Chooses the kind of mistake to make on one operation. Addition and
 * subtraction mostly slip a carry or borrow; multiplication mostly gets a
 * middle digit wrong; division mostly misses nearby or by a power of ten.
 *
 * @param ctx The operation.
 * @param rng A seeded generator.
 * @returns A kind that applies to this context.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { chooseMistake, MISTAKE_KINDS } from "./mod.ts";
 *
 * let s = 1;
 * const rng = () => ((s = (s * 16807) % 2147483647) / 2147483647);
 * const kind = chooseMistake({ op: "+", left: 58n, right: 67n, correct: 125n }, rng);
 * assert.ok(MISTAKE_KINDS.includes(kind));
 * assert.notEqual(kind, "partial_product"); // only products have those
 * ```
 */
export function chooseMistake(ctx: MistakeContext, rng: Uniform): MistakeKind {
  return pickWeighted(rng, weightsFor(ctx));
}

/** A digit position (from the left) biased to the middle for products. */
function position(rng: Uniform, len: number, interior: boolean): number {
  if (len <= 2 || !interior) return intBetween(rng, 0, len - 1);
  return intBetween(rng, 1, len - 2);
}

function withDigits(sign: bigint, text: string): bigint {
  const v = BigInt(text.replace(/^0+(?=\d)/, "") || "0");
  return sign < 0n ? -v : v;
}

function wrongDigit(ctx: MistakeContext, rng: Uniform): bigint {
  const s = digitsOf(ctx.correct);
  const i = position(rng, s.length, ctx.op === "*" || ctx.op === "/");
  const old = Number(s[i]);
  let d = intBetween(rng, 0, 8);
  if (d >= old) d++;
  if (i === 0 && d === 0 && s.length > 1) d = old === 1 ? 2 : 1;
  return withDigits(ctx.correct, s.slice(0, i) + d + s.slice(i + 1));
}

/**
 * Makes one mistake of the given kind. Falls back to a near miss when the
 * kind does not change the value (e.g. transposing "11").
 *
 * @param kind The kind of mistake.
 * @param ctx The operation.
 * @param options `rng`, a seeded generator.
 * @returns A wrong value, never equal to `ctx.correct`.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { applyMistake } from "./mod.ts";
 *
 * const rng = () => 0.5;
 * const ctx = { op: "+" as const, left: 58n, right: 67n, correct: 125n };
 * const slip = applyMistake("carry_slip", ctx, { rng });
 * assert.ok([25n, 115n, 135n, 225n].includes(slip));
 * assert.equal(applyMistake("sign_error", ctx, { rng }), -125n);
 * ```
 */
export function applyMistake(
  kind: MistakeKind,
  ctx: MistakeContext,
  { rng }: { rng: Uniform },
): bigint {
  const value = applyRaw(kind, ctx, rng);
  if (value !== ctx.correct) return value;
  return ctx.correct + (rng() < 0.5 ? -1n : 1n);
}

function applyRaw(
  kind: MistakeKind,
  ctx: MistakeContext,
  rng: Uniform,
): bigint {
  const c = ctx.correct;
  const s = digitsOf(c);
  switch (kind) {
    case "carry_slip": {
      const carries = ctx.left !== undefined && ctx.right !== undefined
        ? carryPositions({ op: ctx.op, left: ctx.left, right: ctx.right })
        : [];
      const k = carries.length
        ? pick(rng, carries)
        : intBetween(rng, 1, Math.max(1, s.length - 2));
      const step = 10n ** BigInt(k);
      // A forgotten carry loses 10^k in magnitude; a doubled one adds it.
      const sign = c < 0n ? -1n : 1n;
      if (ctx.op === "-") return c + sign * step * (rng() < 0.8 ? 1n : -1n);
      return c + sign * step * (rng() < 0.8 ? -1n : 1n);
    }
    case "wrong_digit":
      return wrongDigit(ctx, rng);
    case "transposed_digits": {
      const pairs: number[] = [];
      for (let i = 0; i + 1 < s.length; i++) {
        if (s[i] !== s[i + 1] && !(i === 0 && s[1] === "0")) pairs.push(i);
      }
      if (!pairs.length) return wrongDigit(ctx, rng);
      const i = pick(rng, pairs);
      return withDigits(c, s.slice(0, i) + s[i + 1] + s[i] + s.slice(i + 2));
    }
    case "dropped_digit": {
      if (s.length < 2) return wrongDigit(ctx, rng);
      const i = position(rng, s.length, true);
      return withDigits(c, s.slice(0, i) + s.slice(i + 1));
    }
    case "extra_digit": {
      const i = position(rng, s.length, true);
      return withDigits(c, s.slice(0, i + 1) + s[i] + s.slice(i + 1));
    }
    case "sign_error":
      return c === 0n ? wrongDigit(ctx, rng) : -c;
    case "place_value":
      return c % 10n === 0n && c !== 0n && rng() < 0.5 ? c / 10n : c * 10n;
    case "operand_echo": {
      const options = [ctx.left, ctx.right].filter((x): x is bigint =>
        x !== undefined && x !== c
      );
      return options.length ? pick(rng, options) : wrongDigit(ctx, rng);
    }
    case "partial_product": {
      if (ctx.op !== "*" || ctx.left === undefined || ctx.right === undefined) {
        return wrongDigit(ctx, rng);
      }
      // One row of the long multiplication, or the sum missing one row.
      const r = digitsOf(ctx.right);
      const k = intBetween(rng, 0, r.length - 1);
      const row = ctx.left * BigInt(r[r.length - 1 - k]!) * 10n ** BigInt(k) *
        (ctx.right < 0n ? -1n : 1n);
      return rng() < 0.5 || row === 0n ? c - row : row;
    }
    case "near_miss": {
      const d = BigInt(rng() < 0.6 ? 1 : intBetween(rng, 2, 9));
      return rng() < 0.5 ? c - d : c + d;
    }
  }
}

/**
 * Chooses and makes a mistake in one go.
 *
 * @param ctx The operation.
 * @param rng A seeded generator.
 * @returns The kind chosen and the wrong value.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { makeMistake } from "./mod.ts";
 *
 * let s = 7;
 * const rng = () => ((s = (s * 16807) % 2147483647) / 2147483647);
 * const m = makeMistake({ op: "*", left: 123n, right: 456n, correct: 56088n }, rng);
 * assert.notEqual(m.value, 56088n);
 * ```
 */
export function makeMistake(ctx: MistakeContext, rng: Uniform): Mistake {
  const kind = chooseMistake(ctx, rng);
  return { kind, value: applyMistake(kind, ctx, { rng }) };
}
