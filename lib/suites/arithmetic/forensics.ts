/**
 * Error forensics for wrong numeric answers: what kind of slip it was.
 *
 * @module
 */
import { fraction } from "../../math/rational.ts";
import { type Fraction, parseRational } from "../../math/rational.ts";

/** The error classes, most specific first. */
export const NUMERIC_ERROR_CLASSES = [
  "sign",
  "operand_echo",
  "place_value",
  "carry",
  "transposition",
  "digit",
  "dropped_digit",
  "extra_digit",
  "near_miss",
  "other",
] as const;

/** One numeric error class. */
export type NumericErrorClass = typeof NUMERIC_ERROR_CLASSES[number];

/** The outcome of {@linkcode classifyNumericError}. */
export interface NumericErrorReport {
  /** The class from {@linkcode NUMERIC_ERROR_CLASSES} that fits the wrong answer. */
  errorClass: NumericErrorClass;
  /** |got − expected| / |expected| (|got − expected| when expected is 0). */
  relError: number;
}

/** What forensics reads from a question: its payload (operands, operator). */
export interface ForensicsQuestion {
  /** The question's payload: operands and operator. */
  payload?: Record<string, unknown>;
}

const NUMERIC_TEXT = /^-?\d+(\.\d+)?(\/\d+)?$/;

/** Numbers named in the payload (operands, quantities). */
function payloadNumbers(payload: Record<string, unknown>): Fraction[] {
  const out: Fraction[] = [];
  for (const [key, v] of Object.entries(payload)) {
    if (key === "precision" || typeof v !== "string") continue;
    const text = v.replace(/[()]/g, "");
    if (NUMERIC_TEXT.test(text)) out.push(parseRational(text));
  }
  return out;
}

/** Partial products of a × b: a × each digit of b (shifted or not), and b × each digit of a. */
function partialProducts(a: string, b: string): bigint[] {
  const out: bigint[] = [];
  const add = (x: string, y: string) => {
    const digits = [...y].reverse();
    digits.forEach((d, i) => {
      if (d === "0") return;
      const p = BigInt(x) * BigInt(d);
      out.push(p, p * 10n ** BigInt(i));
    });
  };
  add(a, b);
  add(b, a);
  return out;
}

/** Columns k (≥ 1) that receive a carry (add) or a borrow (sub). */
function carryColumns(a: string, b: string, op: string): Set<number> {
  const x = [...a].reverse().map(Number), y = [...b].reverse().map(Number);
  const out = new Set<number>();
  let c = 0;
  for (let i = 0; i < Math.max(x.length, y.length); i++) {
    const s = op === "+"
      ? (x[i] ?? 0) + (y[i] ?? 0) + c
      : (x[i] ?? 0) - c - (y[i] ?? 0);
    c = op === "+" ? (s >= 10 ? 1 : 0) : (s < 0 ? 1 : 0);
    if (c === 1) out.add(i + 1);
  }
  return out;
}

/** Power k ≥ 0 if `value` is exactly 10^k, else -1. */
function powerOfTen(value: Fraction): number {
  if (value.d !== 1n || value.n === 0n) return -1;
  const s = value.n.toString();
  return /^10*$/.test(s) ? s.length - 1 : -1;
}

/** Scales two non-negative terminating decimals to integer digit strings. */
function digitStrings(e: Fraction, g: Fraction): [string, string] | null {
  for (let s = 0; s <= 12; s++) {
    const f = fraction(10n ** BigInt(s));
    const x = e.abs().mul(f), y = g.abs().mul(f);
    if (x.d === 1n && y.d === 1n) return [x.n.toString(), y.n.toString()];
  }
  return null;
}

function digitClass(x: string, y: string): NumericErrorClass | null {
  if (x.length === y.length) {
    const diff: number[] = [];
    for (let i = 0; i < x.length; i++) if (x[i] !== y[i]) diff.push(i);
    if (diff.length === 1) return "digit";
    const [i, j] = diff;
    if (
      diff.length === 2 && i !== undefined && j !== undefined && j === i + 1 &&
      x[i] === y[j] && x[j] === y[i]
    ) return "transposition";
    return null;
  }
  const [long, short] = x.length > y.length ? [x, y] : [y, x];
  if (long.length !== short.length + 1) return null;
  for (let i = 0; i < long.length; i++) {
    if (long.slice(0, i) + long.slice(i + 1) === short) {
      return y.length < x.length ? "dropped_digit" : "extra_digit";
    }
  }
  return null;
}

/**
 * Classifies a wrong numeric answer: sign error (same magnitude), operand
 * echo (an operand, a quantity from the question, or a partial product),
 * place-value slip (off by a factor of 10^k), carry or borrow slip (off by
 * ±10^k at a column that carries; any column for products and compound
 * questions), transposed adjacent digits, a single wrong digit, a dropped or
 * extra digit, a near miss (relative error under 1%), or other.
 *
 * @param expected The key, `"n"` or `"p/q"`.
 * @param got The wrong answer as an exact rational.
 * @param options `question`, whose `payload` holds `a`, `b`, `op`.
 *   @default none (no operands to compare with)
 * @returns The class and the relative error.
 * @throws {SyntaxError} when either value is not a rational.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { classifyNumericError } from "./forensics.ts";
 * assert.equal(classifyNumericError("-56", "56").errorClass, "sign");
 * assert.equal(classifyNumericError("1234", "1243").errorClass, "transposition");
 * const q = { payload: { op: "+", a: "58", b: "67" } };
 * assert.equal(classifyNumericError("125", "115", { question: q }).errorClass, "carry");
 * ```
 */
export function classifyNumericError(
  expected: string,
  got: string,
  { question = {} }: { question?: ForensicsQuestion } = {},
): NumericErrorReport {
  const e = parseRational(expected), g = parseRational(got);
  const diff = g.sub(e);
  const relError = e.n === 0n
    ? Number(diff.abs().valueOf())
    : Number(diff.abs().div(e.abs()).valueOf());
  const report = (errorClass: NumericErrorClass) => ({ errorClass, relError });
  if (e.n !== 0n && g.equals(e.neg())) return report("sign");

  const payload = question.payload ?? {};
  const op = typeof payload.op === "string" ? payload.op : "";
  const a = typeof payload.a === "string" ? payload.a : "";
  const b = typeof payload.b === "string" ? payload.b : "";
  const echoes = payloadNumbers(payload);
  if (op === "×" && /^\d+$/.test(a) && /^\d+$/.test(b)) {
    for (const p of partialProducts(a, b)) echoes.push(fraction(p));
  }
  if (echoes.some((x) => x.equals(g))) return report("operand_echo");

  if (e.n !== 0n && g.n !== 0n && g.s === e.s) {
    const ratio = g.div(e);
    if (powerOfTen(ratio) > 0 || powerOfTen(ratio.inverse()) > 0) {
      return report("place_value");
    }
  }

  const k = powerOfTen(diff.abs());
  if (k >= 1) {
    const integers = /^\d+$/.test(a) && /^\d+$/.test(b);
    if ((op === "+" || op === "-") && integers) {
      if (carryColumns(a, b, op).has(k)) return report("carry");
    } else if (op !== "" && op !== "+" && op !== "-") return report("carry");
  }

  if (g.s === e.s || g.n === 0n || e.n === 0n) {
    const strings = digitStrings(e, g);
    if (strings !== null) {
      const c = digitClass(strings[0], strings[1]);
      if (c !== null) return report(c);
    }
  }
  if (relError < 0.01) return report("near_miss");
  return report("other");
}
