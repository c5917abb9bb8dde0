/**
 * Exact numbers for the sim: fraction.js fractions (BigInt inside)
 * and how they are written.
 *
 * @module
 */
import { Fraction } from "fraction.js";

export { Fraction };

const INTEGER = /^-?\d+$/;

/**
 * Parses "1234", "-3.25", "7/8" exactly. Uses the Fraction class
 * directly: a dispatcher such as mathjs' typed `fraction()` costs several µs
 * per call.
 */
export function exact(text: string): Fraction {
  return INTEGER.test(text)
    ? new Fraction(BigInt(text), 1n)
    : new Fraction(text);
}

/** An integer BigInt as a fraction. */
export function fromBigInt(n: bigint): Fraction {
  return new Fraction(n, 1n);
}

/** Whether a fraction is an integer. */
export function isInteger(f: Fraction): boolean {
  return f.d === 1n;
}

/** The signed numerator of an integer fraction. */
export function toBigInt(f: Fraction): bigint {
  return f.s * f.n;
}

function terminatingPlaces(d: bigint): number | null {
  let twos = 0, fives = 0;
  while (d % 2n === 0n) {
    d /= 2n;
    twos++;
  }
  while (d % 5n === 0n) {
    d /= 5n;
    fives++;
  }
  return d === 1n ? Math.max(twos, fives) : null;
}

/**
 * How many decimals to write `f` with: its exact places when it
 * terminates within `maxPlaces`, else `maxPlaces` (rounded).
 */
export function placesFor(f: Fraction, maxPlaces: number): number {
  const exactPlaces = terminatingPlaces(f.d);
  return exactPlaces !== null && exactPlaces <= maxPlaces
    ? exactPlaces
    : maxPlaces;
}

/** `f` × 10^places, rounded half away from zero, as a signed BigInt. */
export function scaled(f: Fraction, places: number): bigint {
  const num = f.n * 10n ** BigInt(places);
  const q = num / f.d, r = num % f.d;
  const rounded = 2n * r >= f.d ? q + 1n : q;
  return f.s * rounded;
}

/** Writes a scaled integer with `places` decimals, trailing zeros trimmed. */
export function writeScaled(value: bigint, places: number): string {
  const neg = value < 0n;
  let digits = (neg ? -value : value).toString();
  if (places > 0) {
    digits = digits.padStart(places + 1, "0");
    const int = digits.slice(0, -places);
    const frac = digits.slice(-places).replace(/0+$/, "");
    digits = frac ? `${int}.${frac}` : int;
  }
  return (neg && digits !== "0" ? "-" : "") + digits;
}

/** Writes `f` as a decimal (exact if it terminates within `maxPlaces`). */
export function writeDecimal(f: Fraction, maxPlaces = 6): string {
  const places = placesFor(f, maxPlaces);
  return writeScaled(scaled(f, places), places);
}

/** Writes `f` as "a/b" (or "a" for integers). */
export function writeFraction(f: Fraction): string {
  const sign = f.s < 0n && f.n !== 0n ? "-" : "";
  return f.d === 1n ? `${sign}${f.n}` : `${sign}${f.n}/${f.d}`;
}

/** Inserts thousands separators into the integer part: "1234567.5" → "1,234,567.5". */
export function groupThousands(text: string, sep = ","): string {
  return text.replace(
    /^(-?)(\d+)/,
    (_m, sign: string, int: string) =>
      sign + int.replace(/\B(?=(\d{3})+(?!\d))/g, sep),
  );
}
