import { basename, dirname, join, relative, resolve } from "node:path";
import { GENERATOR_META, writeFileAtomic } from "../store/mod.ts";
import { escapeHtml } from "./plot.ts";

/** Options for {@linkcode writeIndexPage}. */
export interface IndexPageOptions {
  /** More pages to link (a run's `report.html`), wherever they are. @default {[]} */
  extra?: readonly string[];
  /** Page title. @default {"Notebooks and reports"} */
  title?: string;
}

/** The `.html` files in a folder and its subfolders, sorted. */
async function htmlFiles(dir: string): Promise<string[]> {
  const out: string[] = [];
  for await (const e of Deno.readDir(dir)) {
    const path = join(dir, e.name);
    if (e.isDirectory && !e.name.startsWith(".")) {
      out.push(...await htmlFiles(path));
    } else if (e.isFile && e.name.endsWith(".html")) out.push(path);
  }
  return out.sort();
}

/**
 * Writes `<dir>/index.html`: a page linking every rendered page in the
 * folder (and its subfolders) and any extra pages, with relative links, so
 * the folder can be opened or published as it is.
 *
 * @param dir The folder of rendered notebooks (e.g. `outputs/notebooks`).
 * @param options Extra pages to link and the title.
 * @returns The path of the written index.
 * @throws {Deno.errors.NotFound} When the folder is missing.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { writeIndexPage } from "./index_page.ts";
 *
 * const dir = await Deno.makeTempDir();
 * await Deno.writeTextFile(`${dir}/00-overview.html`, "<p>nb</p>");
 * await Deno.mkdir(`${dir}/run`);
 * await Deno.writeTextFile(`${dir}/run/report.html`, "<p>report</p>");
 * const html = await Deno.readTextFile(await writeIndexPage(dir));
 * assert.match(html, /href="00-overview\.html"/);
 * assert.match(html, /href="run\/report\.html"/);
 * await Deno.remove(dir, { recursive: true });
 * ```
 */
export async function writeIndexPage(
  dir: string,
  options: IndexPageOptions = {},
): Promise<string> {
  const { extra = [], title = "Notebooks and reports" } = options;
  const index = resolve(join(dir, "index.html"));
  const pages = [
    ...(await htmlFiles(dir)).map((p) => resolve(p)),
    ...extra.map((p) => resolve(p)),
  ].filter((p, i, all) => p !== index && all.indexOf(p) === i);
  const item = (p: string) => {
    const href = relative(dirname(index), p).split("/").map(encodeURIComponent)
      .join("/");
    const name = basename(p) === "report.html"
      ? `report of ${basename(dirname(p))}`
      : basename(p, ".html");
    return `<li><a href="${escapeHtml(href)}">${escapeHtml(name)}</a></li>`;
  };
  const notebooks = pages.filter((p) => basename(p) !== "report.html");
  const reports = pages.filter((p) => basename(p) === "report.html");
  const list = (heading: string, items: string[]) =>
    items.length
      ? `<h2>${heading}</h2><ul>${items.map(item).join("")}</ul>`
      : "";
  await writeFileAtomic(
    index,
    `<!DOCTYPE html>
<html lang="en"><head><meta charset="utf-8">${GENERATOR_META}<title>${
      escapeHtml(title)
    }</title>
<style>body{font:14px/1.5 system-ui,sans-serif;margin:24px auto;max-width:800px}</style>
</head><body><h1>${escapeHtml(title)}</h1>
<p>Generated ${new Date().toISOString()}.</p>
${list("Notebooks", notebooks)}
${list("Reports", reports)}
${pages.length ? "" : "<p>No rendered pages yet.</p>"}
</body></html>
`,
  );
  return index;
}
