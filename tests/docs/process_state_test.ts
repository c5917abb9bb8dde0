/**
 * No mutable module-level state in `lib/` but what docs/development.md lists
 * as deliberately process-wide (issue 44): a module-level `let`, or a
 * collection made empty at module level (`new Map()`, `new Set<T>()`,
 * `new WeakMap()`), is state; a table built from constants is not.
 */
import assert from "node:assert/strict";

const ROOT = new URL("../../", import.meta.url);

/** `file name` pairs of the docs' table. */
async function listed(): Promise<Set<string>> {
  const page = await Deno.readTextFile(new URL("docs/development.md", ROOT));
  const table = page.split("<!-- process-wide state: file, name, why -->")[1]!
    .split("\n## ")[0]!;
  const out = new Set<string>();
  for (const m of table.matchAll(/^\|\s*`([^`]+)`\s*\|([^|]+)\|/gm)) {
    for (const name of m[2]!.matchAll(/`(\w+)`/g)) {
      out.add(`${m[1]} ${name[1]}`);
    }
  }
  return out;
}

/** `file name` pairs of module-level state found in lib/. */
async function found(): Promise<Set<string>> {
  const out = new Set<string>();
  const state =
    /^(?:export )?(?:let (\w+)|const (\w+)(?::[^=]+)? = new (?:Map|Set|WeakMap|WeakSet)(?:<.*>)?\(\);$)/gm;
  for await (const file of walkTs()) {
    const text = await Deno.readTextFile(new URL(file, ROOT));
    for (const m of text.matchAll(state)) out.add(`${file} ${m[1] ?? m[2]}`);
  }
  return out;
}

/** Every .ts file under lib/, as a path from the root. */
async function* walkTs(): AsyncGenerator<string> {
  const stack = ["lib"];
  while (stack.length > 0) {
    const dir = stack.pop()!;
    for await (const e of Deno.readDir(new URL(dir, ROOT))) {
      const path = `${dir}/${e.name}`;
      if (e.isDirectory) stack.push(path);
      else if (e.name.endsWith(".ts")) yield path;
    }
  }
}

Deno.test("lib/ has no mutable module-level state but the process-wide caches docs/development.md lists", async () => {
  const docs = await listed();
  const code = await found();
  assert.ok(docs.size >= 10, `the table lists ${docs.size} names`);
  assert.deepEqual([...code].filter((k) => !docs.has(k)).sort(), []);
  // Every listed name still exists (the table is not stale).
  assert.deepEqual([...docs].filter((k) => !code.has(k)).sort(), []);
});
