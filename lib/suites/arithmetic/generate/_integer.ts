/**
 * Integer families: addition and subtraction (with chosen carries or
 * borrows), multiplication, and division (exact, or rounded decimal).
 *
 * @module
 */
import { fraction } from "../../../math/rational.ts";
import { roundRational } from "../../../math/rational.ts";
import type { Draft, Level } from "./_draft.ts";
import type { Rng } from "../../../math/rng.ts";

/** Digits of a non-negative integer string, least significant first. */
function columns(value: string): number[] {
  return [...value].reverse().map(Number);
}

/**
 * Counts the columns of `a + b` that carry (a and b non-negative integer
 * strings).
 */
export function countCarries(a: string, b: string): number {
  const x = columns(a), y = columns(b);
  let carry = 0, count = 0;
  for (let i = 0; i < Math.max(x.length, y.length); i++) {
    const s = (x[i] ?? 0) + (y[i] ?? 0) + carry;
    carry = s >= 10 ? 1 : 0;
    count += carry;
  }
  return count;
}

/** Counts the columns of `a - b` (a ≥ b ≥ 0) that borrow. */
export function countBorrows(a: string, b: string): number {
  const x = columns(a), y = columns(b);
  let borrow = 0, count = 0;
  for (let i = 0; i < x.length; i++) {
    const d = (x[i] ?? 0) - borrow - (y[i] ?? 0);
    borrow = d < 0 ? 1 : 0;
    count += borrow;
  }
  return count;
}

/** Picks `k` distinct column indexes out of `0..n-1`. */
function chooseColumns(rng: Rng, n: number, k: number): Set<number> {
  const all = Array.from({ length: n }, (_, i) => i);
  for (let i = 0; i < k; i++) {
    const j = rng.int(i, n - 1);
    [all[i], all[j]] = [all[j] as number, all[i] as number];
  }
  return new Set(all.slice(0, k));
}

/** Builds two n-digit operands column by column so that exactly the chosen columns carry (add) or borrow (sub). */
function operandsWithCarries(
  rng: Rng,
  n: number,
  k: number,
  op: "add" | "sub",
): [string, string] {
  // The top column of a subtraction must not borrow (a ≥ b).
  const eligible = op === "add" ? n : n - 1;
  const wanted = chooseColumns(rng, eligible, Math.min(k, eligible));
  const a: number[] = [], b: number[] = [];
  let carry = 0;
  for (let i = 0; i < n; i++) {
    const top = i === n - 1;
    const want = wanted.has(i);
    for (;;) {
      const x = rng.int(top ? 1 : 0, 9), y = rng.int(top ? 1 : 0, 9);
      const out = op === "add" ? x + y + carry >= 10 : x - carry < y;
      if (out === want) {
        a.push(x);
        b.push(y);
        carry = out ? 1 : 0;
        break;
      }
    }
  }
  return [a.reverse().join(""), b.reverse().join("")];
}

/** `a + b` with n-digit operands. */
export function addition(rng: Rng, level: Level): Draft {
  const n = level.digits;
  let a: string, b: string;
  if (level.carries === undefined) {
    a = rng.digits(n);
    b = rng.digits(n);
  } else {
    [a, b] = operandsWithCarries(rng, n, level.carries, "add");
  }
  return {
    text: { en: `What is ${a} + ${b}?`, zh: `计算 ${a} + ${b}。` },
    answer: fraction(BigInt(a) + BigInt(b)),
    dims: { digits: n, carries: countCarries(a, b) },
    payload: { op: "+", a, b },
  };
}

/** `a - b` with n-digit operands, a ≥ b. */
export function subtraction(rng: Rng, level: Level): Draft {
  const n = level.digits;
  let a: string, b: string;
  if (level.carries === undefined) {
    a = rng.digits(n);
    b = rng.digits(n);
    if (BigInt(a) < BigInt(b)) [a, b] = [b, a];
  } else {
    [a, b] = operandsWithCarries(rng, n, level.carries, "sub");
  }
  return {
    text: { en: `What is ${a} - ${b}?`, zh: `计算 ${a} - ${b}。` },
    answer: fraction(BigInt(a) - BigInt(b)),
    dims: { digits: n, carries: countBorrows(a, b) },
    payload: { op: "-", a, b },
  };
}

/** `a × b` with digits × digitsB operands. */
export function multiplication(rng: Rng, level: Level): Draft {
  const da = level.digits, db = level.digitsB ?? level.digits;
  const a = rng.digits(da), b = rng.digits(db);
  return {
    text: { en: `What is ${a} × ${b}?`, zh: `计算 ${a} × ${b}。` },
    answer: fraction(BigInt(a) * BigInt(b)),
    dims: { digits: Math.max(da, db), digits_a: da, digits_b: db },
    payload: { op: "×", a, b },
  };
}

/** `a ÷ b`: an exact quotient of `digits` digits, or a rounded decimal. */
export function division(rng: Rng, level: Level): Draft {
  const d = level.digits;
  const db = Math.max(1, Math.ceil(d / 2));
  if (level.division !== "decimal") {
    let b: string;
    do b = rng.digits(db); while (b === "1");
    const q = rng.digits(d);
    const a = (BigInt(q) * BigInt(b)).toString();
    return {
      text: { en: `What is ${a} ÷ ${b}?`, zh: `计算 ${a} ÷ ${b}。` },
      answer: fraction(BigInt(q)),
      dims: { digits: d, digits_a: a.length, digits_b: db, precision: null },
      payload: { op: "÷", a, b },
    };
  }
  const p = level.precision ?? 2;
  let a: string, b: string;
  do {
    a = rng.digits(d);
    b = rng.digits(db);
  } while (b === "1" || BigInt(a) % BigInt(b) === 0n);
  const exact = fraction(BigInt(a)).div(fraction(BigInt(b)));
  return {
    text: {
      en: `What is ${a} ÷ ${b}? Round to ${p} decimal places.`,
      zh: `计算 ${a} ÷ ${b}，结果保留 ${p} 位小数。`,
    },
    answer: roundRational(exact, p),
    dims: { digits: d, digits_a: d, digits_b: db, precision: p },
    payload: { op: "÷", a, b, precision: p },
  };
}
