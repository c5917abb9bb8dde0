/**
 * Percentage and ratio family: "15% of 200", "80 is what percent of 320",
 * percent change, and a ratio written as a fraction.
 *
 * @module
 */
import { fraction } from "../../../math/rational.ts";
import { decimalString } from "../../../math/rational.ts";
import type { Draft, Level } from "./_draft.ts";
import type { Rng } from "../../../math/rng.ts";

/** A percentage or ratio question. */
export function percentages(rng: Rng, level: Level): Draft {
  const d = level.digits;
  const variant = rng.pick(["of", "what", "change", "ratio"] as const);
  const n = rng.digits(d);
  const hundred = fraction(100n);
  switch (variant) {
    case "of": {
      const p = rng.int(1, 99);
      return {
        text: { en: `What is ${p}% of ${n}?`, zh: `${n} 的 ${p}% 是多少？` },
        answer: fraction(BigInt(n)).mul(fraction(BigInt(p))).div(hundred),
        dims: { variant },
        payload: { op: "%of", a: String(p), b: n },
      };
    }
    case "what": {
      const p = rng.int(1, 99);
      const part = decimalString(
        fraction(BigInt(n)).mul(fraction(BigInt(p))).div(hundred),
        10,
      );
      return {
        text: {
          en: `${part} is what percent of ${n}?`,
          zh: `${part} 是 ${n} 的百分之几？`,
        },
        answer: fraction(BigInt(p)),
        dims: { variant },
        payload: { op: "%what", a: part, b: n },
      };
    }
    case "change": {
      const p = rng.int(1, 90) * (rng.next() < 0.5 ? -1 : 1);
      const to = decimalString(
        fraction(BigInt(n)).mul(fraction(BigInt(100 + p))).div(hundred),
        10,
      );
      return {
        text: {
          en:
            `A price goes from ${n} to ${to}. What is the percent change? (Use a negative number for a decrease.)`,
          zh: `价格从 ${n} 变为 ${to}，变化的百分比是多少？（下降用负数表示）`,
        },
        answer: fraction(BigInt(p)),
        dims: { variant },
        payload: { op: "%change", a: n, b: to },
      };
    }
    case "ratio": {
      const g = rng.int(2, 10 ** Math.min(d, 3));
      const x = rng.int(1, 20), y = rng.int(1, 20);
      const a = String(g * x), b = String(g * y);
      return {
        text: {
          en: `Write the ratio ${a} : ${b} as a fraction in lowest terms.`,
          zh: `把比 ${a} : ${b} 化成最简分数。`,
        },
        answer: fraction(BigInt(a)).div(fraction(BigInt(b))),
        dims: { variant },
        payload: { op: ":", a, b },
      };
    }
  }
}
