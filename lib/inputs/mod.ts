/**
 * Reading input files (datasets, configs, programs): strict, declared
 * decoding, and the log of what a sweep read, by content.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { decodeText } from "./mod.ts";
 * assert.equal(decodeText(new TextEncoder().encode("ok"), { path: "x" }).encoding, "utf-8");
 * ```
 *
 * @module
 */
export * from "./decode.ts";
export * from "./log.ts";
