/**
 * Argument values in the JavaScript worker: decoding call arguments from
 * wire JSON, and telling whether a run changed them (so the next run gets
 * a fresh copy).
 *
 * Without tagged values (bigints, maps, NaN) parsed JSON is the value, and
 * JSON.stringify (native, far faster than the wire encoder) tells whether a
 * run changed it.
 *
 * @module
 */
import {
  encodeResult,
  isArray,
  parse,
  stringifyOwn,
} from "./_worker_captured.ts";

/** Wire JSON text as a value: parsed, with tags revived when there are any. */
export function decodeArgs(json: string): unknown {
  const x = parse(json);
  return json.includes('"$') ? reviveArgs(x) : x;
}

/**
 * A value's text to compare before and after a run, and to make fresh
 * copies from: wire JSON when tagged, else JSON that no `toJSON` the
 * candidate adds can change (it would choose the copies its timed calls
 * run on).
 */
export function fingerprint(value: unknown, tagged: boolean): string {
  return tagged ? encodeResult(value) : stringifyOwn(value);
}

/**
 * Whether a run changed plain-JSON arguments, without allocating (an
 * allocation here would trigger collections that land inside the next
 * timed run): a hash of every number, string and length, in order.
 */
export function digest(value: unknown): number {
  let h = 0x811c9dc5;
  const mix = (x: number) => {
    h = Math.imul(h ^ (x | 0), 0x01000193);
    h = Math.imul(h ^ ((x / 4294967296) | 0), 0x01000193);
  };
  const walk = (v: unknown): void => {
    if (typeof v === "number") mix(v === v ? v : 0x7ff80000);
    else if (typeof v === "string") {
      mix(v.length);
      for (let i = 0; i < v.length; i++) mix(v.charCodeAt(i));
    } else if (typeof v === "boolean") mix(v ? 3 : 5);
    else if (v === null) mix(7);
    else if (isArray(v)) {
      const a = v as unknown[];
      mix(a.length + 11);
      for (let i = 0; i < a.length; i++) walk(a[i]);
    } else if (typeof v === "object") {
      for (const k in v as Record<string, unknown>) {
        walk(k);
        walk((v as Record<string, unknown>)[k]);
      }
      mix(13);
    }
  };
  walk(value);
  return h;
}

/** Parsed wire JSON with its tags (`$bigint`, `$float`, `$map`, `$object`) resolved. */
function reviveArgs(x: unknown): unknown {
  if (x === null || typeof x !== "object") return x;
  if (isArray(x)) return (x as unknown[]).map(reviveArgs);
  const o = x as Record<string, unknown>;
  const ks = Object.keys(o);
  if (ks.length === 1) {
    const t = o[ks[0]!];
    if (ks[0] === "$bigint") return BigInt(t as string);
    if (ks[0] === "$float") return Number(t);
    if (ks[0] === "$map") {
      return new Map(
        (t as unknown[][]).map((p) => [reviveArgs(p[0]), reviveArgs(p[1])]),
      );
    }
    if (ks[0] === "$object") return reviveArgs(t);
  }
  const out: Record<string, unknown> = {};
  for (const k of ks) out[k] = reviveArgs(o[k]);
  return out;
}
