/**
 * The package's public surface (issue 44): `deno.json`'s `exports` map
 * names every entry; the root exports what a notebook needs, 60 names or
 * fewer; notebooks, the README and the docs import only entries of the map
 * and only names those entries export. A code block that says it is a file
 * inside `lib/` (its first line `// lib/...`) is package code and may
 * import its neighbours.
 */
import assert from "node:assert/strict";
import { dirname, join, normalize, relative } from "node:path";

const ROOT = new URL("../../", import.meta.url).pathname;

const config = JSON.parse(await Deno.readTextFile(join(ROOT, "deno.json")));
const EXPORTS = config.exports as Record<string, string>;
/** Entry files, relative to the root (`lib/report/mod.ts`). */
const ENTRIES = new Set(Object.values(EXPORTS).map((p) => normalize(p)));

/** The names a module exports, types included (`deno doc --json`). */
async function exportedNames(path: string): Promise<Set<string>> {
  const { stdout, success } = await new Deno.Command(Deno.execPath(), {
    args: ["doc", "--json", path],
    cwd: ROOT,
    stdout: "piped",
    stderr: "null",
  }).output();
  assert.ok(success, `deno doc --json ${path} failed`);
  const doc = JSON.parse(new TextDecoder().decode(stdout));
  const symbols = doc.nodes[`file://${join(ROOT, path)}`]?.symbols ?? [];
  return new Set(symbols.map((s: { name: string }) => s.name));
}

/** Every `import { a, b } from "path"` of a text, with the names. */
function imports(text: string): { names: string[]; from: string }[] {
  const out: { names: string[]; from: string }[] = [];
  const re = /import\s+(?:type\s+)?\{([^}]*)\}\s*from\s*"([^"]+)"/g;
  for (const m of text.matchAll(re)) {
    const names = m[1]!.split(",").map((n) =>
      n.trim().replace(/^type\s+/, "").split(/\s+as\s+/)[0]!.trim()
    ).filter((n) => n !== "");
    out.push({ names, from: m[2]! });
  }
  return out;
}

/** Code a reader runs: notebooks' code cells, the docs' fenced blocks. */
async function readerCode(): Promise<
  { where: string; dir: string; code: string }[]
> {
  const out: { where: string; dir: string; code: string }[] = [];
  for await (const e of Deno.readDir(join(ROOT, "notebooks"))) {
    if (!e.name.endsWith(".ipynb")) continue;
    const nb = JSON.parse(
      await Deno.readTextFile(join(ROOT, "notebooks", e.name)),
    );
    for (const cell of nb.cells) {
      if (cell.cell_type !== "code") continue;
      out.push({
        where: `notebooks/${e.name}`,
        dir: "notebooks",
        code: cell.source.join(""),
      });
    }
  }
  const pages = ["README.md"];
  for await (const e of Deno.readDir(join(ROOT, "docs"))) {
    if (e.name.endsWith(".md")) pages.push(`docs/${e.name}`);
  }
  for (const page of pages) {
    const text = await Deno.readTextFile(join(ROOT, page));
    for (
      const m of text.matchAll(
        /^```(?:ts|typescript|js)\b[^\n]*\n([\s\S]*?)^```$/gm,
      )
    ) {
      const code = m[1]!;
      if (/^\/\/ lib\//.test(code)) continue; // package code, not a reader's
      // Relative paths in a page's block are written from its own folder.
      out.push({ where: page, dir: dirname(page), code });
    }
  }
  return out;
}

Deno.test("deno.json exports every entry from lib/, and each exists", async () => {
  assert.equal(EXPORTS["."], "./lib/mod.ts");
  for (
    const key of [
      "./report",
      "./sandbox",
      "./store",
      "./batch",
      "./merge",
      "./suites/code",
    ]
  ) {
    assert.ok(EXPORTS[key], `no ${key} subpath`);
  }
  for (const target of ENTRIES) {
    assert.ok((await Deno.stat(join(ROOT, target))).isFile, target);
  }
});

Deno.test("the root exports what a notebook needs, 60 names or fewer", async () => {
  const names = await exportedNames("lib/mod.ts");
  assert.ok(names.size <= 60, `the root exports ${names.size} names`);
  for (
    const needed of [
      "runSweep",
      "notebookSweep",
      "loadRuns",
      "headlineTable",
      "writeReport",
      "defineSuite",
    ]
  ) {
    assert.ok(names.has(needed), `the root lacks ${needed}`);
  }
});

Deno.test("notebooks, README and docs import only the package's entries, and only names they export", async () => {
  const exported = new Map<string, Set<string>>();
  const wrong: string[] = [];
  let seen = 0;
  for (const { where, dir, code } of await readerCode()) {
    for (const { names, from } of imports(code)) {
      if (!from.startsWith(".") && !from.startsWith("@calc-bench/")) continue;
      const target = from.startsWith("@calc-bench/calc-bench")
        ? normalize(
          EXPORTS[`.${from.slice("@calc-bench/calc-bench".length)}`] ?? "?",
        )
        : relative(ROOT, join(ROOT, dir, from));
      if (!ENTRIES.has(target)) {
        wrong.push(`${where}: ${from} is not an entry of deno.json's exports`);
        continue;
      }
      seen++;
      if (!exported.has(target)) {
        exported.set(target, await exportedNames(target));
      }
      for (const name of names) {
        if (!exported.get(target)!.has(name)) {
          wrong.push(`${where}: ${target} does not export ${name}`);
        }
      }
    }
  }
  assert.deepEqual(wrong, []);
  assert.ok(seen >= 10, `only ${seen} imports checked`);
});
