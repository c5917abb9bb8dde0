/**
 * Comparing a candidate's output with the reference's, in the parent
 * process (never inside the sandbox).
 *
 * @module
 */
import type { Checker, CompareRule } from "./types.ts";
import { canonicalJson } from "../../../canonical.ts";

function close(a: number, b: number, tol: number): boolean {
  if (a === b) return true;
  if (!Number.isFinite(a) || !Number.isFinite(b)) return false;
  return Math.abs(a - b) <= tol * Math.max(1, Math.abs(a), Math.abs(b));
}

function floatEqual(a: unknown, b: unknown, tol: number): boolean {
  if (typeof a === "number" && typeof b === "number") return close(a, b, tol);
  if (Array.isArray(a) || Array.isArray(b)) {
    return Array.isArray(a) && Array.isArray(b) && a.length === b.length &&
      a.every((v, i) => floatEqual(v, b[i], tol));
  }
  if (
    a !== null && b !== null && typeof a === "object" &&
    typeof b === "object"
  ) {
    const ka = Object.keys(a).sort();
    const kb = Object.keys(b).sort();
    return canonicalJson(ka) === canonicalJson(kb) &&
      ka.every((k) =>
        floatEqual(
          (a as Record<string, unknown>)[k],
          (b as Record<string, unknown>)[k],
          tol,
        )
      );
  }
  return canonicalJson(a) === canonicalJson(b);
}

/** How {@linkcode compareOutput} compares. */
export interface CompareOptions {
  /** The problem's compare rule. */
  rule: CompareRule;
  /** The argument list of the test (for the checker). */
  args: unknown[];
  /** The problem's checker; required when `rule` is `"checker"`. */
  checker?: Checker | undefined;
}

/**
 * Whether `actual` is a right answer under the problem's compare rule:
 * `"exact"` deep equality of JSON values (object key order ignored);
 * `"unordered"` both are lists holding the same multiset of JSON values;
 * `{ float: tol }` numbers within `tol` absolute or relative (elementwise in
 * lists and objects, other values exactly); `"checker"` the checker decides
 * (a checker that throws counts as a rejection).
 *
 * @param expected The reference's output (unused by `"checker"`).
 * @param actual The candidate's output.
 * @param options The problem's compare rule, the test's argument list (for
 *   the checker) and the problem's checker (required with `"checker"`).
 * @returns True when the output is accepted.
 * @throws {TypeError} When rule is `"checker"` and no checker is given.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { compareOutput } from "./compare.ts";
 * assert.ok(compareOutput({ a: [1, 2], b: null }, { b: null, a: [1, 2] }, { rule: "exact", args: [] }));
 * assert.ok(!compareOutput([1, 2], [2, 1], { rule: "exact", args: [] }));
 * assert.ok(compareOutput([[1, 2], [3]], [[3], [1, 2]], { rule: "unordered", args: [] }));
 * assert.ok(!compareOutput([1, 1, 2], [1, 2, 2], { rule: "unordered", args: [] }));
 * assert.ok(compareOutput([0.1 + 0.2, 2], [0.3, 2], { rule: { float: 1e-6 }, args: [] }));
 * assert.ok(!compareOutput(1.5, 1.6, { rule: { float: 1e-6 }, args: [] }));
 * const sumsTo = (args: unknown[], out: unknown) =>
 *   Array.isArray(out) && out.length === 2 && out[0] + out[1] === args[0];
 * assert.ok(compareOutput([1, 4], [2, 3], { rule: "checker", args: [5], checker: sumsTo }));
 * ```
 */
export function compareOutput(
  expected: unknown,
  actual: unknown,
  options: CompareOptions,
): boolean {
  const { rule, args, checker } = options;
  if (rule === "exact") {
    return canonicalJson(expected) === canonicalJson(actual);
  }
  if (rule === "unordered") {
    if (!Array.isArray(expected) || !Array.isArray(actual)) return false;
    if (expected.length !== actual.length) return false;
    const a = expected.map((v) => canonicalJson(v)).sort();
    const b = actual.map((v) => canonicalJson(v)).sort();
    return a.every((v, i) => v === b[i]);
  }
  if (rule === "checker") {
    if (!checker) {
      throw new TypeError(
        'Cannot compare with the rule "checker": no checker was given; pass the problem\'s checker',
      );
    }
    try {
      return checker(structuredClone(args), structuredClone(actual)) === true;
    } catch {
      return false;
    }
  }
  return floatEqual(expected, actual, rule.float);
}
