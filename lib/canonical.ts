/**
 * One canonical JSON text for values that must compare equal when they
 * are equal (cache keys, configs, program outputs).
 *
 * @module
 */

/**
 * JSON with object keys sorted, so equal values give equal text. The
 * rules are JSON's: an object property that is `undefined` is left out, an
 * `undefined` (or a function) elsewhere is `null`, `-0` is `0`, `NaN` and
 * the infinities are `null`. Written with plain loops and string
 * concatenation, without the arrays `Object.entries().sort().map()` would
 * allocate for every value (the response cache runs it on every request).
 *
 * @param value A JSON-like value.
 * @returns Its canonical text.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { canonicalJson } from "./canonical.ts";
 * assert.equal(canonicalJson({ b: [1, -0], a: undefined, c: { y: 1, x: null } }), '{"b":[1,0],"c":{"x":null,"y":1}}');
 * assert.equal(canonicalJson([undefined]), "[null]");
 * assert.equal(canonicalJson({ a: 1, b: 2 }), canonicalJson({ b: 2, a: 1 }));
 * ```
 */
export function canonicalJson(value: unknown): string {
  if (Array.isArray(value)) {
    let out = "[";
    for (let i = 0; i < value.length; i++) {
      if (i > 0) out += ",";
      out += canonicalJson(value[i]);
    }
    return out + "]";
  }
  if (value !== null && typeof value === "object") {
    const record = value as Record<string, unknown>;
    const keys = Object.keys(record).sort();
    let out = "{";
    let first = true;
    for (const key of keys) {
      const v = record[key];
      if (v === undefined) continue;
      if (!first) out += ",";
      first = false;
      out += JSON.stringify(key) + ":" + canonicalJson(v);
    }
    return out + "}";
  }
  return JSON.stringify(value) ?? "null";
}
