/**
 * Real roots of a polynomial with rational coefficients: exact where
 * rational, otherwise isolated by Sturm sequences and bisected on exact
 * rationals to the requested significant digits.
 *
 * Written by hand: no npm library pinned here finds roots exactly (mathjs'
 * `polynomialRoot` is floating point and stops at degree 3).
 *
 * @module
 */
import { type Fraction, fraction } from "./rational.ts";
import { decimalString, formatRational, roundRational } from "./rational.ts";
import {
  degree,
  evalPoly,
  lead,
  type Poly,
  signChanges,
  squareFree,
  sturmSequence,
  trim,
} from "./_poly.ts";

/** One distinct real root. */
export interface RealRoot {
  /** The root exactly, when it is rational; else null. */
  exact: Fraction | null;
  /** The root as text: `"3"`, `"-1/2"`, or a decimal with `digits` significant digits. */
  text: string;
  /** The root as a float, for display and tolerances. */
  approx: number;
  /** How many times it is a root. */
  multiplicity: number;
  /** An exact interval that holds it (equal ends when exact). */
  lower: Fraction;
  upper: Fraction;
}

/** Options for {@linkcode realRoots}. */
export interface RealRootsOptions {
  /**
   * Significant digits of irrational roots.
   * @default 15
   */
  digits?: number;
}

/**
 * Writes a rational with `digits` significant digits (rounded half away
 * from zero; trailing zeros dropped).
 *
 * @param value The rational.
 * @param digits Significant digits, 1 or more.
 * @returns E.g. `"1.41421356237310"` → `"1.4142135623731"`.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { fraction } from "./rational.ts";
 * import { toSignificant } from "./mod.ts";
 * assert.equal(toSignificant(fraction(2n).div(fraction(3n)), 4), "0.6667");
 * assert.equal(toSignificant(fraction(-12345n), 2), "-12345");
 * ```
 */
export function toSignificant(value: Fraction, digits: number): string {
  if (value.n === 0n) return "0";
  const intDigits = (value.n / value.d).toString().length;
  let places: number;
  if (value.n >= value.d) places = Math.max(0, digits - intDigits);
  else {
    // leading zeros after the point
    let zeros = 0;
    let t = value.n * 10n;
    while (t < value.d) {
      t *= 10n;
      zeros++;
    }
    places = zeros + digits;
  }
  return decimalString(roundRational(value, places), places);
}

function cauchyBound(p: Poly): Fraction {
  const l = lead(p).abs();
  let max = fraction(0n);
  for (let i = 0; i < p.length - 1; i++) {
    const v = p[i]!.abs().div(l);
    if (v.compare(max) > 0) max = v;
  }
  return max.add(fraction(1n)).ceil();
}

/** Denominators a rational root of p can have: divisors of the integer leading coefficient. */
function denominators(p: Poly): bigint[] {
  let l = 1n;
  const lcmOf = (a: bigint, b: bigint) => {
    let x = a, y = b;
    while (y) [x, y] = [y, x % y];
    return (a / x) * b;
  };
  for (const c of p) l = lcmOf(l, c.d);
  const an = lead(p).mul(fraction(l));
  let a = an.n;
  // primitive part: divide by the content
  let g = 0n;
  for (const c of p) {
    let x = c.mul(fraction(l)).n, y = g;
    while (y) [x, y] = [y, x % y];
    g = x;
  }
  if (g > 0n) a /= g;
  const out: bigint[] = [];
  for (let q = 1n; q * q <= a; q++) {
    if (a % q === 0n) {
      out.push(q);
      if (q * q !== a) out.push(a / q);
    }
  }
  return out.length ? out : [1n];
}

interface Isolated {
  lo: Fraction;
  hi: Fraction;
  exact: Fraction | null;
}

function isolate(
  p: Poly,
  seq: Poly[],
  lo: Fraction,
  hi: Fraction,
  out: Isolated[],
): void {
  // roots in (lo, hi]
  const count = signChanges(seq, lo) - signChanges(seq, hi);
  if (count === 0) return;
  if (evalPoly(p, hi).n === 0n) {
    out.push({ lo: hi, hi, exact: hi });
    if (count > 1) {
      isolate(p, seq, lo, hi.sub(hi.sub(lo).div(fraction(2n))), out);
      // roots in (mid, hi): recount without hi
      const mid = lo.add(hi).div(fraction(2n));
      const right = signChanges(seq, mid) - signChanges(seq, hi) - 1;
      if (right > 0) isolateOpen(p, seq, mid, hi, out);
    }
    return;
  }
  if (count === 1) {
    out.push({ lo, hi, exact: null });
    return;
  }
  const mid = lo.add(hi).div(fraction(2n));
  isolate(p, seq, lo, mid, out);
  isolate(p, seq, mid, hi, out);
}

/** Roots in (lo, hi) when hi is itself a root. */
function isolateOpen(
  p: Poly,
  seq: Poly[],
  lo: Fraction,
  hi: Fraction,
  out: Isolated[],
): void {
  const mid = lo.add(hi).div(fraction(2n));
  isolate(p, seq, lo, mid, out);
  const right = signChanges(seq, mid) - signChanges(seq, hi) - 1;
  if (right > 0) isolateOpen(p, seq, mid, hi, out);
}

function refine(
  p: Poly,
  box: Isolated,
  digits: number,
  dens: bigint[],
): Isolated {
  let { lo, hi } = box;
  const two = fraction(2n);
  const tol = fraction(10n ** BigInt(digits + 3));
  // f(hi) is never 0 here; one simple root lies in (lo, hi).
  const signHi = evalPoly(p, hi).s;
  for (let step = 0; step < 4000; step++) {
    const mag = lo.abs().compare(hi.abs()) > 0 ? lo.abs() : hi.abs();
    if (hi.sub(lo).mul(tol).compare(mag) <= 0) break;
    const mid = lo.add(hi).div(two);
    const v = evalPoly(p, mid);
    if (v.n === 0n) return { lo: mid, hi: mid, exact: mid };
    if (v.s === signHi) hi = mid;
    else lo = mid;
  }
  // A rational root p/q has q | leading coefficient; the box is now far
  // narrower than 1/q², so only the nearest such fraction can be it.
  for (const q of dens) {
    const fq = fraction(q);
    const cand = lo.add(hi).div(two).mul(fq).round().div(fq);
    if (
      cand.compare(lo) >= 0 && cand.compare(hi) <= 0 &&
      evalPoly(p, cand).n === 0n
    ) {
      return { lo: cand, hi: cand, exact: cand };
    }
  }
  return { lo, hi, exact: null };
}

/**
 * The distinct real roots of a polynomial, ascending, with multiplicities.
 * Rational roots are exact; others are given to `digits` significant digits
 * from an exact isolating interval.
 *
 * @param coefficients Lowest degree first, e.g. `[-2, 0, 1]` for `x² − 2`.
 * @param options Significant digits of irrational roots.
 * @returns The real roots (complex ones are left out).
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { fraction } from "./rational.ts";
 * import { realRoots } from "./mod.ts";
 * const roots = realRoots([-2n, 0n, 1n].map((c) => fraction(c)));
 * assert.deepEqual(roots.map((r) => r.text), ["-1.41421356237310", "1.41421356237310"].map((t) => t.replace(/0+$/, "")));
 * const cube = realRoots([-1n, 3n, -3n, 1n].map((c) => fraction(c))); // (x − 1)³
 * assert.equal(cube[0]!.text, "1");
 * assert.equal(cube[0]!.multiplicity, 3);
 * ```
 */
export function realRoots(
  coefficients: readonly Fraction[],
  options: RealRootsOptions = {},
): RealRoot[] {
  const { digits = 15 } = options;
  const p = trim([...coefficients]);
  const out: RealRoot[] = [];
  for (const [factor, multiplicity] of squareFree(p)) {
    if (degree(factor) < 1) continue;
    const seq = sturmSequence(factor);
    const bound = cauchyBound(factor);
    const boxes: Isolated[] = [];
    isolate(factor, seq, bound.neg(), bound, boxes);
    const dens = denominators(factor);
    for (const box of boxes) {
      const r = box.exact ? box : refine(factor, box, digits, dens);
      const mid = r.exact ?? r.lo.add(r.hi).div(fraction(2n));
      out.push({
        exact: r.exact,
        text: r.exact ? formatRational(r.exact) : toSignificant(mid, digits),
        approx: Number(mid.valueOf()),
        multiplicity,
        lower: r.lo,
        upper: r.hi,
      });
    }
  }
  return out.sort((a, b) => a.lower.compare(b.lower));
}
