/**
 * Every relative link of README.md and docs/*.md points at a file or
 * folder that exists, and a `#anchor` at a heading of the page it names.
 */
import assert from "node:assert/strict";
import { dirname, join, normalize, relative } from "node:path";
import { anchors, links, readPages, ROOT } from "./_markdown.ts";

/**
 * Pages another change writes (linked from here before they land). Once
 * such a page exists it is checked like any other, anchors included.
 */
const PENDING = new Set<string>();

Deno.test("relative links of README.md and docs/*.md point at files and headings that exist", async () => {
  const pages = await readPages();
  const problems: string[] = [];
  let checked = 0;
  for (const page of pages) {
    for (const { target, line } of links(page.text)) {
      if (/^[a-z][a-z0-9+.-]*:/i.test(target)) continue; // https:, mailto:
      checked++;
      const [path = "", anchor] = target.split("#");
      const file = path === ""
        ? page.path
        : normalize(relative(ROOT, join(ROOT, dirname(page.path), path)));
      let text: string | null = null;
      try {
        const info = await Deno.stat(join(ROOT, file));
        if (info.isFile && file.endsWith(".md")) {
          text = await Deno.readTextFile(join(ROOT, file));
        }
      } catch {
        if (!PENDING.has(file)) {
          problems.push(`${page.path}:${line}: ${target}: no file ${file}`);
        }
        continue;
      }
      if (anchor !== undefined && text !== null && !anchors(text).has(anchor)) {
        problems.push(
          `${page.path}:${line}: ${target}: ${file} has no heading #${anchor}`,
        );
      }
    }
  }
  assert.ok(checked > 30, `only ${checked} relative links found`);
  assert.deepEqual(problems, []);
});

Deno.test("anchors() spells headings as GitHub does", () => {
  assert.deepEqual(
    [...anchors(
      "# Runs: results, identity\n## Samples through `n`\n## Notes\n## Notes\n```\n# not a heading\n```\n",
    )],
    ["runs-results-identity", "samples-through-n", "notes", "notes-1"],
  );
});
