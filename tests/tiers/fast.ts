/**
 * `deno task test:fast`: the tests a developer runs while working, every
 * test that needs no Jupyter, Chromium, sandbox worker or subprocess CLI.
 * It leaves out the doc examples (each loads the library anew: they took
 * three of the tier's four minutes) and type-checking (`deno task check`
 * does that), so it runs in under a minute on 2 cores. {@linkcode SLOW} is the one list of what is left out;
 * `tests/tiers/fast_tier_test.ts` checks that nothing left in starts a
 * process, a sandbox, a notebook or a browser. The whole suite stays
 * `deno task test`. Files are listed here rather than with `deno test
 * --ignore`, which does not apply below a folder given on the command line.
 *
 * @module
 */
import { join, relative } from "node:path";

/** Folders and files the fast tier leaves to `deno task test`. */
export const SLOW: readonly string[] = [
  "tests/e2e",
  "tests/inputs/decode_test.ts",
  "tests/notebooks",
  "tests/sandbox",
  "tests/browser",
  "tests/bench",
  "tests/cli",
  "tests/docs",
  "tests/suites/code",
  "tests/batch/cli_test.ts",
  "tests/batch/shard_test.ts",
  "tests/cluster/k8s_test.ts",
  "tests/cluster/shard_env_test.ts",
  "tests/cluster/slurm_test.ts",
  "tests/merge/planted_test.ts",
  "tests/plan/plan_cli_test.ts",
  "tests/report/report_test.ts",
  "tests/runner/shard_test.ts",
  "tests/suites/linalg/forensics_cli_test.ts",
  "tests/suites/linalg/verify_key_test.ts",
];

/** The project's root folder. */
export const ROOT: string = new URL("../..", import.meta.url).pathname;

/** Whether a path (relative to the root) is in the fast tier. */
export function inFastTier(rel: string): boolean {
  return !SLOW.some((s) => rel === s || rel.startsWith(`${s}/`));
}

async function* files(
  dir: string,
  keep: (name: string) => boolean,
): AsyncGenerator<string> {
  for await (const entry of Deno.readDir(dir)) {
    const path = join(dir, entry.name);
    if (entry.isDirectory) yield* files(path, keep);
    else if (keep(entry.name)) yield relative(ROOT, path);
  }
}

/** The fast tier's test files. */
export async function fastTierFiles(): Promise<string[]> {
  const out: string[] = [];
  for await (
    const f of files(join(ROOT, "tests"), (n) => n.endsWith("_test.ts"))
  ) {
    if (inFastTier(f)) out.push(f);
  }
  return out.sort();
}

if (import.meta.main) {
  const list = await fastTierFiles();
  const child = new Deno.Command(Deno.execPath(), {
    args: [
      "test",
      "--allow-all",
      "--parallel",
      "--no-check",
      ...Deno.args,
      ...list,
    ],
    cwd: ROOT,
  }).spawn();
  Deno.exit((await child.status).code);
}
