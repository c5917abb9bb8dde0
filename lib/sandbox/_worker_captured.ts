/**
 * The globals the sandbox worker uses after candidate code has loaded,
 * captured when this module is evaluated. `_worker.ts` imports it
 * statically, so that happens before the worker's own body runs and so
 * before any candidate code can patch a global.
 *
 * @module
 */
import { makeEncoder } from "./_wire.ts";

const stdout = Deno.stdout;
const writeSync = stdout.writeSync.bind(stdout);
const encoder = new TextEncoder();
/** `TextEncoder.prototype.encode`, bound. */
export const encodeText = encoder.encode.bind(encoder);
const decoder = new TextDecoder();
/** `TextDecoder.prototype.decode`, bound. */
export const decodeText = decoder.decode.bind(decoder);
/** `performance.now`, bound: the wall clock in ms. */
export const now = performance.now.bind(performance);
/** `JSON.parse`. */
export const parse = JSON.parse;
/** `JSON.stringify`. */
export const stringify = JSON.stringify;
const ownValue = function (this: Record<string, unknown>, key: string) {
  return this[key];
};
/**
 * `JSON.stringify` of the worker's own answers (plain objects, arrays and
 * primitives it built itself), deaf to `toJSON`: the replacer hands back
 * each own property's value as it is, undoing any `toJSON` the candidate
 * put on `Object.prototype` or `Array.prototype` (JSON.stringify calls
 * `toJSON` before the replacer, and never after it).
 */
export const stringifyOwn = (value: unknown): string =>
  stringify(value, ownValue);
const hasOwn = Object.hasOwn;
/**
 * An own property of a parsed message, or undefined: a missing key must not
 * reach a getter the candidate put on `Object.prototype`/`Array.prototype`.
 */
export function own(o: unknown, key: string | number): unknown {
  return o !== null && typeof o === "object" && hasOwn(o, key)
    ? (o as Record<string, unknown>)[key]
    : undefined;
}
/** `String`, the function. */
export const toText = String;
/** `String.prototype.slice`, called on a primitive string. */
export const sliceText = (s: string, from: number, to: number): string =>
  callBound(sliceFn, s, from, to) as string;
/** `String.prototype.replace`, called on a primitive string. */
export const replaceText = (s: string, re: RegExp, by: string): string =>
  callBound(replaceFn, s, re, by) as string;
const sliceFn = String.prototype.slice;
const replaceFn = String.prototype.replace;
/** `Error`, the constructor (for `instanceof` before the candidate runs). */
export const ErrorCtor = Error;
/** `Deno.exit`. */
export const exit = Deno.exit;
/** The wire encoder of results, built from the primordials as they are now. */
export const encodeResult = makeEncoder();
/** `Array.isArray`. */
export const isArray = Array.isArray;
/** `Reflect.apply`. */
export const apply = Reflect.apply;

const callBound = Function.prototype.call.bind(Function.prototype.call) as (
  f: unknown,
  self: unknown,
  ...args: unknown[]
) => unknown;
const typedProto = Object.getPrototypeOf(Uint8Array.prototype);
const lengthGetter = Object.getOwnPropertyDescriptor(typedProto, "length")!
  .get!;
const subarrayFn = typedProto.subarray;
const lengthOf = (b: Uint8Array) => callBound(lengthGetter, b) as number;
const subarray = (b: Uint8Array, from: number) =>
  callBound(subarrayFn, b, from) as Uint8Array;

/** Writes all bytes through captured functions only (no prototype lookups). */
export function writeAll(bytes: Uint8Array): void {
  let off = 0;
  const n = lengthOf(bytes);
  while (off < n) off += writeSync(subarray(bytes, off));
}
