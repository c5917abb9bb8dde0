/**
 * Dense polynomials over exact rationals, lowest degree first. Private
 * helpers for the characteristic polynomial and root finding.
 *
 * Written by hand: mathjs' polynomial support (`rationalize`, `polynomialRoot`)
 * works on expression trees and floats up to degree 3; Sturm sequences need
 * exact division with remainder and gcds over the rationals.
 *
 * @module
 */
import { type Fraction, fraction } from "./rational.ts";

/** Coefficients, lowest degree first, no trailing zeros (zero polynomial: []). */
export type Poly = Fraction[];

export const ZERO = fraction(0n);
export const ONE = fraction(1n);

export function trim(p: Poly): Poly {
  let k = p.length;
  while (k > 0 && p[k - 1]!.n === 0n) k--;
  return p.slice(0, k);
}

export function degree(p: Poly): number {
  return p.length - 1;
}

export function lead(p: Poly): Fraction {
  return p[p.length - 1] ?? ZERO;
}

export function evalPoly(p: Poly, x: Fraction): Fraction {
  let acc = ZERO;
  for (let i = p.length - 1; i >= 0; i--) acc = acc.mul(x).add(p[i]!);
  return acc;
}

export function derivative(p: Poly): Poly {
  return trim(p.slice(1).map((c, i) => c.mul(fraction(BigInt(i + 1)))));
}

export function scale(p: Poly, f: Fraction): Poly {
  return trim(p.map((c) => c.mul(f)));
}

export function monic(p: Poly): Poly {
  return p.length === 0 ? p : scale(p, ONE.div(lead(p)));
}

/** Quotient and remainder of a / b (b non-zero). */
export function divmod(a: Poly, b: Poly): { q: Poly; r: Poly } {
  const r = [...a];
  const db = degree(b);
  const lb = lead(b);
  const q: Fraction[] = Array.from(
    { length: Math.max(0, degree(a) - db + 1) },
    () => ZERO,
  );
  for (let k = degree(a) - db; k >= 0; k--) {
    const c = r[k + db]!.div(lb);
    q[k] = c;
    if (c.n === 0n) continue;
    for (let j = 0; j <= db; j++) r[k + j] = r[k + j]!.sub(c.mul(b[j]!));
  }
  return { q: trim(q), r: trim(r) };
}

export function gcd(a: Poly, b: Poly): Poly {
  let x = trim(a), y = trim(b);
  while (y.length > 0) [x, y] = [y, divmod(x, y).r];
  return monic(x);
}

/** Yun's square-free decomposition: [factor, multiplicity] pairs. */
export function squareFree(p: Poly): [Poly, number][] {
  const out: [Poly, number][] = [];
  const f = monic(p);
  if (degree(f) < 1) return out;
  const fp = derivative(f);
  let a = gcd(f, fp);
  let b = divmod(f, a).q;
  let c = divmod(fp, a).q;
  const db = derivative(b);
  let d = trim(
    Array.from(
      { length: Math.max(c.length, db.length) },
      (_, i) => (c[i] ?? ZERO).sub(db[i] ?? ZERO),
    ),
  );
  let k = 1;
  while (degree(b) >= 1) {
    a = gcd(b, d);
    if (degree(a) >= 1) out.push([a, k]);
    b = divmod(b, a).q;
    c = divmod(d, a).q;
    const db2 = derivative(b);
    d = trim(
      Array.from(
        { length: Math.max(c.length, db2.length) },
        (_, i) => (c[i] ?? ZERO).sub(db2[i] ?? ZERO),
      ),
    );
    k++;
  }
  return out;
}

/** The Sturm sequence of a square-free polynomial. */
export function sturmSequence(p: Poly): Poly[] {
  const seq: Poly[] = [p, derivative(p)];
  while (true) {
    const a = seq[seq.length - 2]!, b = seq[seq.length - 1]!;
    if (b.length === 0) {
      seq.pop();
      break;
    }
    const r = divmod(a, b).r;
    if (r.length === 0) break;
    seq.push(scale(r, fraction(-1n)));
  }
  return seq;
}

/** Sign changes of the Sturm sequence at x (zeros skipped). */
export function signChanges(seq: readonly Poly[], x: Fraction): number {
  let last = 0, changes = 0;
  for (const p of seq) {
    const v = evalPoly(p, x);
    const s = v.n === 0n ? 0 : Number(v.s);
    if (s === 0) continue;
    if (last !== 0 && s !== last) changes++;
    last = s;
  }
  return changes;
}
