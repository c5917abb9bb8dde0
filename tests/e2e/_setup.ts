/** Shared set-up of the end-to-end tests. */
import type { SuiteConfig } from "../../lib/config/schema.ts";
import { getSuite } from "../../lib/suites/mod.ts";

/**
 * The real arithmetic suite with about `count` questions (additions and
 * products of 2- and 4-digit numbers, where the sim profiles make mistakes),
 * its config entry, and the ids of its questions.
 */
export async function e2eSuite(count: number, seed = 0): Promise<{
  entry: SuiteConfig;
  ids: string[];
}> {
  const params = {
    families: ["add", "mul"],
    digits: [2, 4],
    count: Math.ceil(count / 4),
  };
  const questions = await getSuite("arithmetic").questions({
    seed,
    params,
    baseDir: ".",
  });
  return {
    entry: { name: "arithmetic", params },
    ids: questions.map((q) => q.id),
  };
}

/** Fields that legitimately differ between two runs of the same sweep. */
const VOLATILE = ["latency_ms", "finished_at", "attempts", "cached", "run"];

/** A row without the fields that legitimately differ between two runs. */
export function stable(row: Record<string, unknown>): Record<string, unknown> {
  return Object.fromEntries(
    Object.entries(row).filter(([k]) => !VOLATILE.includes(k)),
  );
}

/** Rows keyed and stripped of volatile fields, sorted by key. */
export function comparable(
  rows: Record<string, unknown>[],
): Record<string, unknown>[] {
  return rows
    .map(stable)
    .sort((a, b) => String(a.key) < String(b.key) ? -1 : 1);
}

/** All rows of a run folder. */
export async function readRows(
  runDir: string,
): Promise<Record<string, unknown>[]> {
  const text = await Deno.readTextFile(`${runDir}/results.jsonl`);
  return text.split("\n").filter((l) => l !== "").map((l) => JSON.parse(l));
}

/** Runs `fn` with a temp folder (named `prefix…`), removed afterwards. */
export async function withTemp<T>(
  fn: (dir: string) => Promise<T>,
  prefix = "e2e_",
): Promise<T> {
  const dir = await Deno.makeTempDir({ prefix });
  try {
    return await fn(dir);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
}
