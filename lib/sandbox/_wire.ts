/**
 * The wire encoding of values crossing the sandbox boundary, as JSON text.
 *
 * Plain JSON for null, booleans, strings, finite numbers, arrays and objects,
 * plus tagged one-key objects for what JSON cannot say:
 *
 * - `{"$bigint": "123…"}`: an integer beyond ±(2^53 − 1) (Python `int`) or
 *   any JS `bigint`, as an exact decimal string.
 * - `{"$float": "NaN" | "Infinity" | "-Infinity"}`.
 * - `{"$map": [[k, v], …]}`: a dict/Map whose keys are not all strings.
 * - `{"$object": {…}}`: a plain object that has a key starting with `$`
 *   (escaped so it cannot be read as a tag).
 *
 * Python tuples, lists and sets become arrays (sets in iteration order); JS
 * `Set`s become arrays; `undefined` becomes null. Anything else (class
 * instances, functions, cycles, bytes, dates) cannot be encoded: the encoder
 * throws a TypeError, which the worker reports as an error for that call.
 * This file is imported by both the parent and the JS worker, so it must not
 * import anything.
 *
 * @module
 */

/** A value as decoded on the parent's side. */
export type SandboxValue =
  | null
  | boolean
  | number
  | bigint
  | string
  | SandboxValue[]
  | Map<SandboxValue, SandboxValue>
  | { [key: string]: SandboxValue };

const MAX_DEPTH = 200;
const SAFE = Number.MAX_SAFE_INTEGER;

/**
 * Encodes a value to wire JSON text, with the given (captured) primitives.
 * The worker passes references taken before candidate code runs.
 */
export function makeEncoder(
  prims: {
    isArray: (x: unknown) => boolean;
    keys: (o: object) => string[];
    getProto: (o: object) => unknown;
    objectProto: unknown;
    stringify: (s: string) => string;
    mapProto: unknown;
    setProto: unknown;
    join: (a: unknown[], separator: string) => string;
  } = {
    join: Function.prototype.call.bind(Array.prototype.join) as (
      a: unknown[],
      separator: string,
    ) => string,
    isArray: Array.isArray,
    keys: Object.keys,
    getProto: Object.getPrototypeOf,
    objectProto: Object.prototype,
    stringify: JSON.stringify,
    mapProto: Map.prototype,
    setProto: Set.prototype,
  },
): (value: unknown) => string {
  const {
    isArray,
    keys,
    getProto,
    objectProto,
    stringify,
    mapProto,
    setProto,
    join,
  } = prims;
  const encode = (v: unknown, depth: number, seen: unknown[]): string => {
    if (depth > MAX_DEPTH) {
      throw new TypeError("value nested deeper than 200 levels");
    }
    if (v === null || v === undefined) return "null";
    switch (typeof v) {
      case "boolean":
        return v ? "true" : "false";
      case "string":
        return stringify(v);
      case "number":
        if (v !== v) return '{"$float":"NaN"}';
        if (v === Infinity) return '{"$float":"Infinity"}';
        if (v === -Infinity) return '{"$float":"-Infinity"}';
        return "" + (v === 0 ? 0 : v);
      case "bigint":
        return '{"$bigint":"' + v + '"}';
      case "object": {
        for (let i = 0; i < seen.length; i++) {
          if (seen[i] === v) throw new TypeError("value contains a cycle");
        }
        seen[seen.length] = v;
        let out: string;
        const proto = getProto(v);
        if (isArray(v)) {
          const a = v as unknown[];
          const len = a.length;
          // most results: a flat list of safe integers, joined natively
          let ints = true;
          for (let i = 0; i < len; i++) {
            const x = a[i];
            if (
              typeof x !== "number" || !(x >= -SAFE && x <= SAFE) || x % 1 !== 0
            ) {
              ints = false;
              break;
            }
          }
          if (ints) out = "[" + join(a, ",") + "]";
          else {
            let s = "[";
            for (let i = 0; i < len; i++) {
              s += (i ? "," : "") + encode(a[i], depth + 1, seen);
            }
            out = s + "]";
          }
        } else if (proto === setProto) {
          let s = "[";
          let first = true;
          for (const x of v as Set<unknown>) {
            s += (first ? "" : ",") + encode(x, depth + 1, seen);
            first = false;
          }
          out = s + "]";
        } else if (proto === mapProto) {
          let s = '{"$map":[';
          let first = true;
          for (const [k, x] of v as Map<unknown, unknown>) {
            s += (first ? "" : ",") + "[" + encode(k, depth + 1, seen) + "," +
              encode(x, depth + 1, seen) + "]";
            first = false;
          }
          out = s + "]}";
        } else if (proto === objectProto || proto === null) {
          const ks = keys(v as object);
          let s = "{";
          let tagged = false;
          for (let i = 0; i < ks.length; i++) {
            const k = ks[i]!;
            if (k[0] === "$") tagged = true;
            s += (i ? "," : "") + stringify(k) + ":" +
              encode((v as Record<string, unknown>)[k], depth + 1, seen);
          }
          out = tagged ? '{"$object":' + s + "}}" : s + "}";
        } else {
          throw new TypeError("cannot serialise a non-plain object");
        }
        seen.length--;
        return out;
      }
      default:
        throw new TypeError(`cannot serialise a ${typeof v}`);
    }
  };
  return (value) => encode(value, 0, []);
}

/** Encodes a parent-side value (call arguments) to wire JSON text. */
export const encodeValue: (value: unknown) => string = makeEncoder();

/** Turns parsed wire JSON back into a value (tags resolved). */
export function reviveValue(x: unknown): SandboxValue {
  if (x === null || typeof x !== "object") return x as SandboxValue;
  if (Array.isArray(x)) return x.map(reviveValue);
  const o = x as Record<string, unknown>;
  const ks = Object.keys(o);
  if (ks.length === 1) {
    const k = ks[0]!;
    const t = o[k];
    if (k === "$bigint" && typeof t === "string") return BigInt(t);
    if (k === "$float" && typeof t === "string") return Number(t);
    if (k === "$map" && Array.isArray(t)) {
      return new Map(
        t.map((p) => {
          const pair = p as unknown[];
          return [reviveValue(pair[0]), reviveValue(pair[1])];
        }),
      );
    }
    if (k === "$object" && t !== null && typeof t === "object") {
      const out: Record<string, SandboxValue> = {};
      for (const [kk, vv] of Object.entries(t)) out[kk] = reviveValue(vv);
      return out;
    }
  }
  const out: Record<string, SandboxValue> = {};
  for (const k of ks) out[k] = reviveValue(o[k]);
  return out;
}

/** Decodes wire JSON text. @throws {SyntaxError} on malformed JSON. */
export function decodeValue(text: string): SandboxValue {
  return reviveValue(JSON.parse(text));
}
