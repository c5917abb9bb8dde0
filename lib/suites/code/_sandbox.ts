/**
 * The code suite's sandbox pools, one per (Python backend, concurrency)
 * asked for, made when first needed and closed by the suite's `close()`
 * at the end of a sweep.
 *
 * @module
 */
import { createSandbox, type Sandbox } from "../../sandbox/mod.ts";
import type { CodeParams } from "./params.ts";

const pools = new Map<string, Sandbox>();

/** The sandbox options a suite's params ask for. */
export type SandboxParams = Pick<CodeParams, "python" | "concurrency">;

/**
 * The suite's sandbox for these params (two warm workers per language;
 * as many requests at once as `concurrency`, default the cores).
 */
export function suiteSandbox(
  params: SandboxParams = { python: "auto", concurrency: undefined },
): Sandbox {
  const key = `${params.python}:${params.concurrency ?? ""}`;
  let pool = pools.get(key);
  if (pool === undefined) {
    pool = createSandbox({
      warm: 2,
      python: params.python,
      ...(params.concurrency === undefined
        ? {}
        : { concurrency: params.concurrency }),
    });
    pools.set(key, pool);
  }
  return pool;
}

/** Closes every sandbox the suite made. */
export async function closeSuiteSandbox(): Promise<void> {
  const open = [...pools.values()];
  pools.clear();
  await Promise.all(open.map((p) => p.close()));
}
