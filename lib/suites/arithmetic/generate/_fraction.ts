/**
 * Fraction family: `p/q op r/s` with an exact rational answer in lowest
 * terms (op is +, -, × or ÷).
 *
 * @module
 */
import { fraction } from "../../../math/rational.ts";
import type { Draft, Level } from "./_draft.ts";
import type { Rng } from "../../../math/rng.ts";

/** A proper fraction with a denominator of up to `digits` digits (at most 3). */
function properFraction(rng: Rng, digits: number): [number, number] {
  const den = rng.int(2, 10 ** Math.min(digits, 3) - 1);
  return [rng.int(1, den - 1), den];
}

/** A fraction operation. */
export function fractions(rng: Rng, level: Level): Draft {
  const op = rng.pick(["+", "-", "×", "÷"] as const);
  let [p, q] = properFraction(rng, level.digits);
  let [r, s] = properFraction(rng, level.digits);
  if (op === "-" && p * s < r * q) [p, q, r, s] = [r, s, p, q];
  const x = fraction(BigInt(p)).div(fraction(BigInt(q)));
  const y = fraction(BigInt(r)).div(fraction(BigInt(s)));
  const answer = op === "+"
    ? x.add(y)
    : op === "-"
    ? x.sub(y)
    : op === "×"
    ? x.mul(y)
    : x.div(y);
  const wrap = op === "×" || op === "÷";
  const a = wrap ? `(${p}/${q})` : `${p}/${q}`;
  const b = wrap ? `(${r}/${s})` : `${r}/${s}`;
  return {
    text: {
      en:
        `What is ${a} ${op} ${b}? Give the answer as a fraction in lowest terms.`,
      zh: `计算 ${a} ${op} ${b}，结果写成最简分数。`,
    },
    answer,
    dims: { variant: op },
    payload: { op, a: `${p}/${q}`, b: `${r}/${s}` },
  };
}
