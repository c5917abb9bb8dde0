/**
 * `sameValue`: compares a sandbox result with an expected value in the
 * calling process.
 *
 * @module
 */
import type { SandboxValue } from "./_wire.ts";

/** How two values are compared. */
export interface SameValueRule {
  /** Lists compare as multisets (at every depth) when true. @default false */
  unordered?: boolean;
  /**
   * Numbers match within this tolerance: |a − b| ≤ tol·max(1, |a|, |b|).
   * @default 0 (exact)
   */
  tolerance?: number;
}

function isInt(x: unknown): x is number | bigint {
  return typeof x === "bigint" ||
    (typeof x === "number" && Number.isInteger(x));
}

function key(v: unknown): string {
  // A canonical text used to sort list items for order-free comparison.
  if (typeof v === "bigint") return `i${v}`;
  if (typeof v === "number") {
    return Number.isInteger(v) ? `i${v}` : `n${Number.isNaN(v) ? "NaN" : v}`;
  }
  if (typeof v === "string") return `s${JSON.stringify(v)}`;
  if (v === null || typeof v === "boolean") return `c${v}`;
  if (Array.isArray(v)) return `a[${v.map(key).sort().join(",")}]`;
  if (v instanceof Map) {
    return `m{${
      [...v].map(([k, x]) => key(k) + ":" + key(x)).sort().join(",")
    }}`;
  }
  if (typeof v === "object") {
    return `o{${
      Object.entries(v as object).map(([k, x]) =>
        JSON.stringify(k) + ":" + key(x)
      )
        .sort().join(",")
    }}`;
  }
  return `?${String(v)}`;
}

/**
 * Deep comparison of plain data (as `runCode` returns it): exact by default,
 * order-free lists and a float tolerance on request. Integers compare by
 * value across `number` and `bigint`; NaN equals NaN; there is no type
 * coercion (`1` ≠ `"1"`, `true` ≠ `1`), and objects from outside plain data
 * (class instances, functions) never match.
 *
 * @param actual The value the sandbox returned.
 * @param expected The value to compare with.
 * @param rule The rule: `unordered` lists, a float `tolerance`.
 * @returns True when the values match under the rule.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { sameValue } from "./mod.ts";
 * assert.ok(sameValue([1, [2, 3]], [1, [2, 3]]));
 * assert.ok(sameValue(2n ** 70n, 2n ** 70n));
 * assert.ok(sameValue(3, 3n));
 * assert.ok(!sameValue([1, 2], [2, 1]));
 * assert.ok(sameValue([1, 2], [2, 1], { unordered: true }));
 * assert.ok(sameValue(0.1 + 0.2, 0.3, { tolerance: 1e-9 }));
 * assert.ok(!sameValue(1, "1"));
 * ```
 */
export function sameValue(
  actual: SandboxValue | unknown,
  expected: SandboxValue | unknown,
  { unordered = false, tolerance = 0 }: SameValueRule = {},
): boolean {
  const eq = (a: unknown, b: unknown): boolean => {
    if (isInt(a) && isInt(b)) return BigInt(a) === BigInt(b);
    if (typeof a === "number" && typeof b === "number") {
      if (Number.isNaN(a) || Number.isNaN(b)) {
        return Number.isNaN(a) && Number.isNaN(b);
      }
      if (a === b) return true;
      if (!Number.isFinite(a) || !Number.isFinite(b)) return false;
      return Math.abs(a - b) <=
        tolerance * Math.max(1, Math.abs(a), Math.abs(b));
    }
    if ((typeof a === "number" || typeof a === "bigint") && tolerance > 0) {
      if (typeof b === "number" || typeof b === "bigint") {
        return eq(Number(a), Number(b));
      }
    }
    if (
      a === null || b === null || typeof a !== "object" || typeof b !== "object"
    ) {
      return typeof a === typeof b && a === b;
    }
    if (Array.isArray(a) || Array.isArray(b)) {
      if (!Array.isArray(a) || !Array.isArray(b) || a.length !== b.length) {
        return false;
      }
      if (!unordered) return a.every((x, i) => eq(x, b[i]));
      if (tolerance > 0) {
        // greedy matching; fine for the small lists this is used on
        const left = [...b];
        return a.every((x) => {
          const i = left.findIndex((y) => eq(x, y));
          return i >= 0 && left.splice(i, 1).length === 1;
        });
      }
      const ka = a.map(key).sort();
      const kb = b.map(key).sort();
      return ka.every((k, i) => k === kb[i]);
    }
    if (a instanceof Map || b instanceof Map) {
      if (!(a instanceof Map) || !(b instanceof Map) || a.size !== b.size) {
        return false;
      }
      const bm = new Map([...b].map(([k, v]) => [key(k), v]));
      return [...a].every(([k, v]) => bm.has(key(k)) && eq(v, bm.get(key(k))));
    }
    const pa = Object.getPrototypeOf(a), pb = Object.getPrototypeOf(b);
    if (
      (pa !== Object.prototype && pa !== null) ||
      (pb !== Object.prototype && pb !== null)
    ) return false;
    const ka = Object.keys(a), kb = Object.keys(b);
    if (ka.length !== kb.length) return false;
    return ka.every((k) =>
      Object.hasOwn(b, k) &&
      eq((a as Record<string, unknown>)[k], (b as Record<string, unknown>)[k])
    );
  };
  return eq(actual, expected);
}
