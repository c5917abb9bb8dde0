/**
 * Suite params through zod: the same two entry points for every suite.
 *
 * @module
 */

import type { Suite } from "./types.ts";

/**
 * A schema of a suite's params: what `safeParse` of a zod schema gives
 * (any schema with the same `safeParse` does).
 */
export interface ParamsSchema<T> {
  /** The parsed params, or the issues with their paths. */
  safeParse(value: unknown):
    | { success: true; data: T }
    | {
      success: false;
      error: { issues: readonly { path: PropertyKey[]; message: string }[] };
    };
}

/**
 * Validation and parsing of a suite's params with one zod schema:
 * `validate` reports every issue with its path (for config errors),
 * `parse` returns the params with defaults or throws a `TypeError`.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { z } from "zod";
 * import { zodParams } from "./params.ts";
 * const params = zodParams("demo", z.strictObject({ count: z.int().positive().default(3) }));
 * assert.equal(params.parse(undefined).count, 3);
 * assert.deepEqual(params.validate({ count: 0 }), {
 *   ok: false,
 *   issues: [{ path: ["count"], message: "Too small: expected number to be >0" }],
 * });
 * assert.throws(() => params.parse({ count: 0 }), /Cannot use demo params: count: /);
 * ```
 */
export function zodParams<T>(
  suite: string,
  schema: ParamsSchema<T>,
): {
  validate: Suite["validateParams"];
  parse: (params: unknown) => T;
} {
  return {
    validate(params) {
      const parsed = schema.safeParse(params ?? {});
      if (parsed.success) return { ok: true };
      return {
        ok: false,
        issues: parsed.error.issues.map((issue) => ({
          path: issue.path.filter((k): k is string | number =>
            typeof k !== "symbol"
          ),
          message: issue.message,
        })),
      };
    },
    parse(params) {
      const parsed = schema.safeParse(params ?? {});
      if (!parsed.success) {
        const issue = parsed.error.issues[0];
        throw new TypeError(
          `Cannot use ${suite} params: ${
            issue?.path.join(".") || "(root)"
          }: ${issue?.message}`,
        );
      }
      return parsed.data;
    },
  };
}
