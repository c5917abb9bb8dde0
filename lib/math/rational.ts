/**
 * Exact rationals for answer keys and comparisons, on fraction.js (BigInt
 * inside; the same class mathjs uses for its fractions, without loading
 * mathjs). Never floating point.
 *
 * @module
 */
import { Fraction } from "fraction.js";

export { Fraction };

/**
 * Makes an exact fraction, as mathjs' `fraction()` does: from a BigInt, a
 * string (`"3"`, `"-1.25"`, `"7/8"`), a finite number, a numerator and a
 * denominator, or a fraction (returned as is; fractions are immutable).
 *
 * @param value The value, or the numerator when `denominator` is given.
 * @param denominator The denominator.
 * @returns The fraction in lowest terms.
 * @throws {Error} when a number is not finite or a string is not a number
 *   (fraction.js' own errors).
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { formatRational, fraction } from "./rational.ts";
 * assert.equal(formatRational(fraction("0.75").add(fraction(1n, 4n))), "1");
 * assert.equal(formatRational(fraction(3, 6)), "1/2");
 * ```
 */
export function fraction(
  value: Fraction | bigint | number | string,
  denominator?: bigint | number,
): Fraction {
  if (denominator !== undefined) {
    return new Fraction(value as bigint | number, denominator);
  }
  if (value instanceof Fraction) return value;
  if (typeof value === "number" && !Number.isFinite(value)) {
    throw new Error(`${value} cannot be represented as a fraction`);
  }
  return new Fraction(value);
}

/**
 * Parses an exact rational from `"n"`, `"p/q"`, a decimal (`"-1.25"`) or a
 * BigInt.
 *
 * @param value The rational as text (no separators) or a BigInt.
 * @returns The exact fraction.
 * @throws {SyntaxError} when the text is not a rational.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { formatRational, parseRational } from "./rational.ts";
 * assert.equal(formatRational(parseRational("6/8")), "3/4");
 * assert.equal(formatRational(parseRational("-1.25")), "-5/4");
 * ```
 */
export function parseRational(value: string | bigint): Fraction {
  if (typeof value === "bigint") return fraction(value);
  const text = value.trim();
  if (!/^[-+]?(\d+(\.\d+)?|\.\d+)(\/[-+]?\d+)?$/.test(text)) {
    throw new SyntaxError(`Cannot parse rational: "${value}"`);
  }
  const slash = text.indexOf("/");
  if (slash < 0) return fraction(text);
  const den = fraction(text.slice(slash + 1));
  if (den.n === 0n) {
    throw new SyntaxError(
      `Cannot parse rational: zero denominator in "${value}"`,
    );
  }
  return fraction(text.slice(0, slash)).div(den);
}

/**
 * Writes a fraction in lowest terms as `"n"` or `"p/q"` (sign on the
 * numerator).
 *
 * @param value The fraction.
 * @returns `"42"`, `"-3/4"`.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { formatRational, parseRational } from "./rational.ts";
 * assert.equal(formatRational(parseRational(10n ** 30n)), "1" + "0".repeat(30));
 * ```
 */
export function formatRational(value: Fraction): string {
  const sign = value.s < 0n && value.n !== 0n ? "-" : "";
  return value.d === 1n ? `${sign}${value.n}` : `${sign}${value.n}/${value.d}`;
}

/**
 * Writes a fraction as a decimal, exactly when it terminates, else rounded
 * half away from zero to `places` decimals.
 *
 * @param value The fraction.
 * @param places Decimals to keep when it does not terminate.
 * @returns E.g. `"1.25"`, `"0.33"`.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { decimalString, parseRational } from "./rational.ts";
 * assert.equal(decimalString(parseRational("5/4"), 2), "1.25");
 * assert.equal(decimalString(parseRational("-2/3"), 2), "-0.67");
 * ```
 */
export function decimalString(value: Fraction, places: number): string {
  const negative = value.s < 0n && value.n !== 0n;
  let d = value.d;
  while (d % 2n === 0n) d /= 2n;
  while (d % 5n === 0n) d /= 5n;
  let scale = 0;
  if (d === 1n) {
    // Terminating: find the exact number of decimals.
    while ((value.n * 10n ** BigInt(scale)) % value.d !== 0n) scale++;
  } else {
    scale = places;
  }
  const factor = 10n ** BigInt(scale);
  const scaled = value.n * factor;
  let q = scaled / value.d;
  if ((scaled % value.d) * 2n >= value.d) q += 1n;
  const digits = q.toString().padStart(scale + 1, "0");
  const body = scale === 0
    ? digits
    : `${digits.slice(0, -scale)}.${digits.slice(-scale)}`;
  return (negative && q !== 0n ? "-" : "") + body;
}

/**
 * Rounds a fraction half away from zero to `places` decimals, exactly.
 *
 * @param value The fraction.
 * @param places Decimals to keep (0 or more).
 * @returns The rounded fraction.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { formatRational, parseRational, roundRational } from "./rational.ts";
 * assert.equal(formatRational(roundRational(parseRational("100/7"), 2)), "1429/100");
 * ```
 */
export function roundRational(value: Fraction, places: number): Fraction {
  const factor = 10n ** BigInt(places);
  const scaled = value.n * factor;
  let q = scaled / value.d;
  if ((scaled % value.d) * 2n >= value.d) q += 1n;
  return fraction(value.s < 0n ? -q : q).div(fraction(factor));
}
