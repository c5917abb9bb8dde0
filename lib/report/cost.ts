/**
 * Each row's cost from the per-model prices a run's manifest records.
 *
 * @module
 */
import pl from "nodejs-polars";
import type { DataFrame } from "./frame.ts";

/**
 * Per-model prices (per million tokens) from a manifest's `config.models[]`
 * (or top-level `models[]`); models without a price are left out.
 *
 * @param manifest A parsed `manifest.json`, or null.
 * @returns Model name → `{ input, output }`.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { manifestPrices } from "./mod.ts";
 *
 * const prices = manifestPrices({ config: { models: [
 *   { name: "a", price: { input: 1, output: 2 } },
 *   { name: "b" },
 * ] } });
 * assert.deepEqual([...prices], [["a", { input: 1, output: 2 }]]);
 * ```
 */
export function manifestPrices(
  manifest: Record<string, unknown> | null,
): Map<string, { input: number; output: number }> {
  const prices = new Map<string, { input: number; output: number }>();
  if (!manifest) return prices;
  const config = manifest.config as { models?: unknown } | undefined;
  const models = (config?.models ?? manifest.models) as unknown;
  if (!Array.isArray(models)) return prices;
  for (const m of models) {
    const price = m?.price;
    if (
      typeof m?.name === "string" && typeof price?.input === "number" &&
      typeof price?.output === "number"
    ) {
      prices.set(m.name, { input: price.input, output: price.output });
    }
  }
  return prices;
}

/**
 * Adds a `cost` column: prompt tokens × the model's input price plus
 * completion tokens × its output price, per million tokens (see
 * {@linkcode manifestPrices}); null for a model without a price, and for
 * every row when the manifest has no prices or the frame lacks `model`,
 * `prompt_tokens` or `completion_tokens`.
 *
 * @param frame Result rows.
 * @param manifest The run's parsed `manifest.json`, or null.
 * @returns The frame with `cost` (Float64) as its last column.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import pl from "nodejs-polars";
 * import { addCost } from "./mod.ts";
 *
 * const frame = pl.DataFrame({ model: ["a", "b"], prompt_tokens: [1000, 1000], completion_tokens: [500, 500] });
 * const priced = addCost(frame, { config: { models: [{ name: "a", price: { input: 1, output: 2 } }] } });
 * assert.deepEqual(priced.getColumn("cost").toArray(), [0.002, null]);
 * ```
 */
export function addCost(
  frame: DataFrame,
  manifest: Record<string, unknown> | null,
): DataFrame {
  const prices = manifestPrices(manifest);
  const needed = ["model", "prompt_tokens", "completion_tokens"];
  if (prices.size === 0 || !needed.every((c) => frame.columns.includes(c))) {
    return frame.withColumns(pl.lit(null).cast(pl.Float64).alias("cost"));
  }
  const table = pl.DataFrame({
    model: [...prices.keys()],
    _price_in: [...prices.values()].map((p) => p.input),
    _price_out: [...prices.values()].map((p) => p.output),
  });
  return frame
    .join(table, { on: "model", how: "left" })
    .withColumns(
      pl.col("prompt_tokens").mul(pl.col("_price_in"))
        .add(pl.col("completion_tokens").mul(pl.col("_price_out")))
        .div(1e6)
        .alias("cost"),
    )
    .drop("_price_in", "_price_out");
}
