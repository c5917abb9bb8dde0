/**
 * Comparison helpers for linear-algebra answers: exact for scalars and
 * matrices, multisets within a tolerance for eigenvalues.
 *
 * @module
 */
import type { Answer } from "../../types.ts";
import { parseRational } from "../../math/rational.ts";

/** Eigenvalue tolerance: absolute and relative (the larger allowance wins). */
export interface EigenTolerance {
  /** Absolute allowance on each eigenvalue.
   * @default 0.01 */
  abs?: number | undefined;
  /** Relative allowance, as a fraction of the key's magnitude.
   * @default 0 */
  rel?: number | undefined;
}

export function num(value: string): number {
  try {
    return Number(parseRational(value).valueOf());
  } catch {
    return Number(value);
  }
}

export function sameRational(a: string, b: string): boolean {
  try {
    return parseRational(a).equals(parseRational(b));
  } catch {
    return false;
  }
}

export function parseMatrixValue(value: string): string[][] | null {
  try {
    const m = JSON.parse(value);
    return Array.isArray(m) && m.every((r) => Array.isArray(r))
      ? m as string[][]
      : null;
  } catch {
    return null;
  }
}

export function parseListValue(value: string): string[] | null {
  try {
    const l = JSON.parse(value);
    return Array.isArray(l) && l.every((v) => typeof v === "string")
      ? l as string[]
      : null;
  } catch {
    return null;
  }
}

/** A vector written as a row counts as the column the key holds. */
export function orient(got: string[][], expected: string[][]): string[][] {
  const isColumn = expected.every((r) => r.length === 1);
  if (isColumn && got.length === 1 && got[0]!.length === expected.length) {
    return got[0]!.map((v) => [v]);
  }
  return got;
}

export function sameMatrix(got: string[][], expected: string[][]): boolean {
  const g = orient(got, expected);
  return g.length === expected.length &&
    g.every((r, i) =>
      r.length === expected[i]!.length &&
      r.every((v, j) => sameRational(v, expected[i]![j]!))
    );
}

/** Sorted pairing within tolerance (optimal on the real line). */
export function sameMultiset(
  got: readonly string[],
  expected: readonly string[],
  tolerance: EigenTolerance = {},
): boolean {
  const { abs = 0.01, rel = 0 } = tolerance;
  if (got.length !== expected.length) return false;
  const a = got.map(num).sort((x, y) => x - y);
  const b = expected.map(num).sort((x, y) => x - y);
  return a.every((v, i) => {
    const e = b[i]!;
    return Math.abs(v - e) <= Math.max(abs, rel * Math.abs(e)) + 1e-12;
  });
}

/** Whether an extracted value equals the key. */
export function answerMatches(
  expected: Answer,
  value: string,
  tolerance: EigenTolerance = {},
): boolean {
  switch (expected.kind) {
    case "rational":
      return sameRational(value, expected.value);
    case "matrix": {
      const m = parseMatrixValue(value);
      return m !== null && sameMatrix(m, expected.value);
    }
    case "multiset": {
      const l = parseListValue(value);
      return l !== null && sameMultiset(l, expected.value, tolerance);
    }
    default:
      return value === expected.value;
  }
}
