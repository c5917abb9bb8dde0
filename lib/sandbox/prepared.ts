/**
 * `PreparedArgs`: an argument list encoded for the sandbox once.
 *
 * @module
 */
import { encodeValue } from "./_wire.ts";

/**
 * An argument list encoded for the sandbox once, to pass as a call or as
 * a measured size's input many times: encoding a large input (tens of
 * thousands of values) costs milliseconds every time, and a suite sends
 * the same large input to every candidate of a problem. The list is
 * encoded when this is made; later changes to it are not seen.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { PreparedArgs } from "./prepared.ts";
 * const args = new PreparedArgs([[1, 2], 3n]);
 * assert.equal(args.wire, '[[1,2],{"$bigint":"3"}]');
 * assert.equal(args.length, 2);
 * ```
 */
export class PreparedArgs {
  /** The wire JSON text of the argument list. */
  readonly wire: string;
  /** How many arguments the list has. */
  readonly length: number;
  /**
   * Encodes the argument list once.
   *
   * @param args The argument list (JSON data, bigint, Map, Set).
   * @throws {TypeError} When a value cannot be sent (see `encodeValue`).
   */
  constructor(args: readonly unknown[]) {
    this.wire = encodeValue(args);
    this.length = args.length;
  }
}
