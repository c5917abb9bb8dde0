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
