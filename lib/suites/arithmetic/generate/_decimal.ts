/**
 * Decimal family: `a op b` with decimal operands of `digits` significant
 * digits and 1–3 decimals each (op is +, - or ×).
 *
 * @module
 */
import { fraction } from "../../../math/rational.ts";
import type { Draft, Level } from "./_draft.ts";
import type { Rng } from "../../../math/rng.ts";

/** A decimal string with `digits` digits, `places` of them after the point. */
function decimalOperand(rng: Rng, digits: number, places: number): string {
  const body = rng.digits(digits, digits > places);
  const p = Math.min(places, digits);
  const intPart = body.slice(0, digits - p) || "0";
  let frac = body.slice(digits - p);
  if (frac.endsWith("0")) frac = frac.slice(0, -1) + String(rng.int(1, 9));
  return `${intPart}.${frac}`;
}

/** A decimal operation. */
export function decimals(rng: Rng, level: Level): Draft {
  const d = level.digits;
  const op = rng.pick(["+", "-", "×"] as const);
  let a = decimalOperand(rng, d, rng.int(1, Math.min(3, d)));
  let b = decimalOperand(rng, d, rng.int(1, Math.min(3, d)));
  if (op === "-" && fraction(a).compare(fraction(b)) < 0) [a, b] = [b, a];
  const x = fraction(a), y = fraction(b);
  const answer = op === "+" ? x.add(y) : op === "-" ? x.sub(y) : x.mul(y);
  return {
    text: { en: `What is ${a} ${op} ${b}?`, zh: `计算 ${a} ${op} ${b}。` },
    answer,
    dims: { variant: op },
    payload: { op, a, b },
  };
}
