/**
 * The code suite's sandbox pool, made when first needed and closed by the
 * suite's `close()` at the end of a sweep.
 *
 * @module
 */
import { createSandbox, type Sandbox } from "../../sandbox/mod.ts";

let pool: Sandbox | null = null;

/** The suite's sandbox (two warm workers per language, two in flight). */
export function suiteSandbox(): Sandbox {
  pool ??= createSandbox({ warm: 2, concurrency: 2 });
  return pool;
}

/** Closes the suite's sandbox, if one was made. */
export async function closeSuiteSandbox(): Promise<void> {
  const open = pool;
  pool = null;
  await open?.close();
}
