/**
 * The fast tier (`deno task test:fast`) is what a developer runs while
 * working: every test that needs no Jupyter, Chromium, sandbox worker or
 * subprocess CLI. `SLOW` in tests/tiers/fast.ts is the one place that
 * says which tests are slow; this test keeps it honest both ways: no test
 * left in the tier starts a process, a sandbox, a notebook or a browser,
 * and every ignored path exists (a renamed file would otherwise fall into
 * the tier unseen, or an ignore would silently cover nothing).
 */
import assert from "node:assert/strict";
import { join, relative } from "node:path";
import { fastTierFiles, inFastTier, ROOT, SLOW } from "./fast.ts";

/** What a fast test must not do (a process, a sandbox, Jupyter, Chromium). */
const STARTS = [
  /new Deno\.Command\(/,
  /\bcreateSandbox\(/,
  /\brunCode\(/,
  /\bexecuteNotebook\(/,
  /\bchromium\b/i,
  /from "\.\.\/e2e\/_cli\.ts"/,
];

async function* testFiles(dir: string): AsyncGenerator<string> {
  for await (const entry of Deno.readDir(dir)) {
    const path = join(dir, entry.name);
    if (entry.isDirectory) yield* testFiles(path);
    else if (entry.name.endsWith("_test.ts")) yield path;
  }
}

Deno.test("the fast tier holds no test that starts a process, a sandbox, a notebook or a browser", async () => {
  const offenders: string[] = [];
  let kept = 0;
  for await (const path of testFiles(join(ROOT, "tests"))) {
    const rel = relative(ROOT, path);
    if (!inFastTier(rel) || path === new URL(import.meta.url).pathname) {
      continue;
    }
    kept++;
    const text = await Deno.readTextFile(path);
    const hit = STARTS.find((re) => re.test(text));
    if (hit) offenders.push(`${rel} (${hit})`);
  }
  assert.deepEqual(offenders, [], "add these to SLOW in tests/tiers/fast.ts");
  const listed = await fastTierFiles();
  assert.ok(listed.includes("tests/tiers/fast_tier_test.ts"));
  assert.ok(!listed.some((f) => f.startsWith("tests/e2e/")));
  assert.ok(kept >= 50, `only ${kept} test files in the fast tier`);
});

Deno.test("every path the fast tier leaves out exists", async () => {
  const missing: string[] = [];
  for (const path of SLOW) {
    try {
      await Deno.stat(join(ROOT, path));
    } catch {
      missing.push(path);
    }
  }
  assert.deepEqual(missing, []);
});
