/** The sweep config and the row checks the cluster tests share. */
import assert from "node:assert/strict";
import { join } from "node:path";
import { readRows } from "../e2e/_setup.ts";

/** Each row's key, with how many times it is stored. */
export async function keyCounts(runDir: string): Promise<Map<string, number>> {
  const counts = new Map<string, number>();
  for (const row of await readRows(runDir)) {
    const key = String(row.key);
    counts.set(key, (counts.get(key) ?? 0) + 1);
  }
  return counts;
}

/** Asserts that no key of the run is stored twice; returns how many rows it has. */
export async function assertNoDuplicates(runDir: string): Promise<number> {
  const counts = await keyCounts(runDir);
  const twice = [...counts].filter(([, n]) => n > 1).map(([k]) => k);
  assert.deepEqual(twice, [], `keys stored twice in ${runDir}`);
  return counts.size;
}

/** key → status and extracted answer, of every row of a run. */
async function verdicts(runDir: string): Promise<Map<string, string>> {
  const out = new Map<string, string>();
  for (const row of await readRows(runDir)) {
    out.set(String(row.key), `${row.status} ${JSON.stringify(row.extracted)}`);
  }
  return out;
}

/**
 * Asserts that a merged run holds the unsharded run's rows: the same keys
 * with the same verdicts (status and extracted answer), none twice.
 */
export async function assertMergedEqualsWhole(
  merged: string,
  whole: string,
): Promise<number> {
  const rows = await assertNoDuplicates(merged);
  const got = await verdicts(merged);
  const want = await verdicts(whole);
  assert.equal(got.size, want.size, `rows in ${merged} and ${whole}`);
  assert.deepEqual(
    [...got].sort(),
    [...want].sort(),
    `verdicts of ${merged} and ${whole}`,
  );
  return rows;
}

/** The names inside a folder, sorted (hidden ones too). */
export async function namesIn(dir: string): Promise<string[]> {
  const names: string[] = [];
  for await (const entry of Deno.readDir(dir)) names.push(entry.name);
  return names.sort();
}

/** The results file of a run folder. */
export function resultsOf(runDir: string): string {
  return join(runDir, "results.jsonl");
}

/**
 * Writes a small sweep config to `path`: two sim models behind `baseURL`,
 * one request at a time each, 2 samples of `count` × 4 arithmetic
 * questions (additions and products of 3 and 6 digits), no cache.
 */
export async function writeSweepConfig(
  path: string,
  options: {
    name: string;
    seed: number;
    outputDir: string;
    baseURL: string;
    count: number;
  },
): Promise<void> {
  const { name, seed, outputDir, baseURL, count } = options;
  await Deno.writeTextFile(
    path,
    JSON.stringify({
      name,
      seed,
      samples: 2,
      cache: false,
      outputDir,
      models: ["sim-average", "sim-weak"].map((model) => ({
        name: model,
        provider: "openai",
        baseURL,
        concurrency: 1,
      })),
      suites: [{
        name: "arithmetic",
        params: { families: ["add", "mul"], digits: [3, 6], count },
        templates: ["direct"],
      }],
    }),
  );
}
