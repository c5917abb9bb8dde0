/**
 * The price of a plan's tokens, online and through a batch API.
 *
 * @module
 */

/** A model's price per million tokens, as in the config's `price`. */
export interface TokenPrice {
  /** Per million input tokens. */
  input: number;
  /** Per million output tokens. */
  output: number;
  /**
   * Share taken off the online price for batch requests.
   * @default {0.5} (OpenAI's Batch API is half price)
   */
  batchDiscount?: number | undefined;
}

/** Cost of some tokens online and in a batch, in the price's currency. */
export interface TokenCost {
  /** Sent one request at a time (chat completions). */
  online: number;
  /** Sent through a batch API, at the price's batch discount. */
  batch: number;
}

/** OpenAI's Batch API discount, used when a price names none. */
export const DEFAULT_BATCH_DISCOUNT = 0.5;

/**
 * Cost of input and output tokens: online = input × price.input + output ×
 * price.output, per million; batch = online × (1 − batchDiscount).
 *
 * @param tokens `inputTokens` (prompt) and `outputTokens` (completion),
 *   and `price`, the model's price per million tokens.
 * @returns The online and the batch cost.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { tokenCost } from "./cost.ts";
 * // 2M in at $0.15/M, 1M out at $0.60/M: 0.30 + 0.60.
 * const cost = tokenCost({ inputTokens: 2_000_000, outputTokens: 1_000_000, price: { input: 0.15, output: 0.6 } });
 * assert.ok(Math.abs(cost.online - 0.9) < 1e-12);
 * assert.ok(Math.abs(cost.batch - 0.45) < 1e-12);
 * ```
 */
export function tokenCost(
  { inputTokens, outputTokens, price }: {
    inputTokens: number;
    outputTokens: number;
    price: TokenPrice;
  },
): TokenCost {
  const online = (inputTokens * price.input + outputTokens * price.output) /
    1_000_000;
  const discount = price.batchDiscount ?? DEFAULT_BATCH_DISCOUNT;
  return { online, batch: online * (1 - discount) };
}

/**
 * The sum of two costs, either of which may be unknown (no price).
 *
 * @param a A cost, or null.
 * @param b A cost, or null.
 * @returns Their sum; the known one when the other is null; null when both are.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { addCost } from "./cost.ts";
 * assert.deepEqual(addCost({ online: 1, batch: 0.5 }, { online: 2, batch: 1 }), { online: 3, batch: 1.5 });
 * assert.equal(addCost(null, null), null);
 * ```
 */
export function addCost(
  a: TokenCost | null,
  b: TokenCost | null,
): TokenCost | null {
  if (a === null) return b;
  if (b === null) return a;
  return { online: a.online + b.online, batch: a.batch + b.batch };
}
