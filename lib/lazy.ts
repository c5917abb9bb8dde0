/**
 * Importing a module when it is first used, without Deno preparing it at
 * start-up.
 *
 * @module
 */

/**
 * Imports a module by a computed specifier. Deno prepares the module graph
 * of every literal `import("…")` as soon as the importing module loads
 * (measured: 35 ms for the report's graph, and a suite's report sections
 * pulled Polars, Plot and linkedom into every sweep's start-up, +0.1 s),
 * so code loaded on demand must not name its module literally. Type the
 * result with `typeof import("…")`, which is erased and loads nothing.
 *
 * @param specifier The module: relative to `base`, or a bare (import map)
 *   specifier when `base` is omitted.
 * @param base The importing module's `import.meta.url`.
 * @returns The module's namespace.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { importLazily } from "./lazy.ts";
 * type Self = typeof import("./lazy.ts");
 * const self = await importLazily<Self>("./lazy.ts", import.meta.url);
 * assert.equal(self.importLazily, importLazily);
 * type Zod = typeof import("zod");
 * const { z } = await importLazily<Zod>("zod");
 * assert.equal(typeof z.object, "function");
 * ```
 */
export function importLazily<T>(
  specifier: string,
  base?: string,
): Promise<T> {
  return import(base === undefined ? specifier : new URL(specifier, base).href);
}
