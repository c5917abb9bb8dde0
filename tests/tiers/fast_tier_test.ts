/**
 * The fast tier (`deno task test:fast`) is what a developer runs while
 * working: every test that needs no Jupyter, Chromium, sandbox worker or
 * subprocess CLI. Its `--ignore` list in deno.json is the one place that
 * says which tests are slow; this test keeps it honest both ways: no test
 * left in the tier starts a process, a sandbox, a notebook or a browser,
 * and every ignored path exists (a renamed file would otherwise fall into
 * the tier unseen, or an ignore would silently cover nothing).
 */
import assert from "node:assert/strict";
import { join, relative } from "node:path";

const ROOT = new URL("../..", import.meta.url).pathname;

/** What a fast test must not do (a process, a sandbox, Jupyter, Chromium). */
const SLOW = [
  /new Deno\.Command\(/,
  /\bcreateSandbox\(/,
  /\brunCode\(/,
  /\bexecuteNotebook\(/,
  /\bchromium\b/i,
  /from "\.\.\/e2e\/_cli\.ts"/,
];

function fastTierIgnores(): string[] {
  const tasks = JSON.parse(Deno.readTextFileSync(join(ROOT, "deno.json")))
    .tasks as Record<string, string>;
  const task = tasks["test:fast"];
  assert.ok(task, "deno.json has a test:fast task");
  const ignore = task.match(/--ignore=(\S+)/)?.[1];
  assert.ok(ignore, "test:fast names what it ignores");
  return ignore.split(",");
}

async function* testFiles(dir: string): AsyncGenerator<string> {
  for await (const entry of Deno.readDir(dir)) {
    const path = join(dir, entry.name);
    if (entry.isDirectory) yield* testFiles(path);
    else if (entry.name.endsWith("_test.ts")) yield path;
  }
}

Deno.test("the fast tier holds no test that starts a process, a sandbox, a notebook or a browser", async () => {
  const ignores = fastTierIgnores();
  const inTier = (rel: string) =>
    !ignores.some((i) => rel === i || rel.startsWith(`${i}/`));
  const offenders: string[] = [];
  let kept = 0;
  for await (const path of testFiles(join(ROOT, "tests"))) {
    const rel = relative(ROOT, path);
    if (!inTier(rel) || path === new URL(import.meta.url).pathname) continue;
    kept++;
    const text = await Deno.readTextFile(path);
    const hit = SLOW.find((re) => re.test(text));
    if (hit) offenders.push(`${rel} (${hit})`);
  }
  assert.deepEqual(offenders, [], "add these to test:fast's --ignore");
  assert.ok(kept >= 50, `only ${kept} test files in the fast tier`);
});

Deno.test("every path test:fast ignores exists", async () => {
  const missing: string[] = [];
  for (const path of fastTierIgnores()) {
    try {
      await Deno.stat(join(ROOT, path));
    } catch {
      missing.push(path);
    }
  }
  assert.deepEqual(missing, []);
});
