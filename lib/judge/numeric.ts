/**
 * Numeric answer comparison: exact rationals, or a tolerance.
 *
 * @module
 */
import { fraction } from "../math/rational.ts";
import { type Fraction, parseRational } from "../math/rational.ts";

/** Tolerances for non-exact comparison. */
export interface NumericTolerance {
  /** Relative tolerance, against |expected|. @default 0 for integer keys, 1e-9 otherwise */
  rel?: number;
  /** Absolute tolerance. @default 0 */
  abs?: number;
}

/** Options for {@linkcode compareNumeric}. */
export interface CompareNumericOptions {
  /** Tolerances; when omitted, integer keys need an exact match. */
  tolerance?: NumericTolerance;
  /** The reply was written as a fraction: compare exactly. @default false */
  replyIsFraction?: boolean;
}

/** The outcome of {@linkcode compareNumeric}. */
export interface NumericComparison {
  /** Whether the reply matches the key (exactly, or within the tolerance). */
  equal: boolean;
  /** |got − expected| / |expected| (|got − expected| when expected is 0). */
  relError: number;
}

/** A tolerance float as a fraction (mathjs turns tiny floats such as 1e-9 into 0). */
function toleranceFraction(x: number): Fraction {
  const fixed = x.toFixed(20);
  return fraction(fixed.includes(".") ? fixed.replace(/\.?0+$/, "") : fixed);
}

function toNumber(f: Fraction): number {
  return Number(f.valueOf());
}

/**
 * Compares a reply with an exact key. Equal rationals always match. A reply
 * written as a fraction must match exactly; otherwise the tolerance applies
 * (integers: exact unless a tolerance is given; non-integer keys: relative
 * 1e-9 by default).
 *
 * @param expected The key, `"n"` or `"p/q"`.
 * @param got The reply's exact rational (`"p/q"`, `"1.25"`).
 * @param options Tolerance and how the reply was written.
 * @returns Whether they match, and the relative error.
 * @throws {SyntaxError} when either value is not a rational.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { compareNumeric } from "./numeric.ts";
 * assert.equal(compareNumeric("3/4", "0.75").equal, true);
 * assert.equal(compareNumeric("100", "101").equal, false);
 * assert.equal(compareNumeric("100", "101", { tolerance: { rel: 0.02 } }).equal, true);
 * ```
 */
export function compareNumeric(
  expected: string,
  got: string,
  options: CompareNumericOptions = {},
): NumericComparison {
  const e = parseRational(expected), g = parseRational(got);
  const diff = g.sub(e).abs();
  const relError = e.n === 0n ? toNumber(diff) : toNumber(diff.div(e.abs()));
  if (diff.n === 0n) return { equal: true, relError: 0 };
  if (options.replyIsFraction === true) return { equal: false, relError };
  const integerKey = e.d === 1n;
  const { rel = integerKey ? 0 : 1e-9, abs = 0 } = options.tolerance ?? {};
  if (rel === 0 && abs === 0) return { equal: false, relError };
  const limit = toleranceFraction(abs).add(
    e.abs().mul(toleranceFraction(rel)),
  );
  return { equal: diff.compare(limit) <= 0, relError };
}
