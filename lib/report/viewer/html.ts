/**
 * The sample viewer as an HTML fragment: the note on which rows are
 * embedded, the detail pane, the packed rows as JSON and the inline
 * script and style sheet that draw the list, the filters and the
 * disagreement view. The script is `client/` (TypeScript) bundled ahead of
 * time into `_client.bundle.js` by `deno task build:viewer` (see
 * `bundle.ts`), so making a report needs no bundler.
 *
 * @module
 */
import { escapeHtml } from "../plot.ts";
import type { ViewerRows } from "./rows.ts";

/** The script and style sheet, read once beside this module. */
let assets: { script: string; style: string } | undefined;
function readAssets(): { script: string; style: string } {
  const read = (name: string) => {
    const url = new URL(name, import.meta.url);
    try {
      return Deno.readTextFileSync(url);
    } catch (error) {
      throw new Error(
        `Cannot build the sample viewer: ${url.pathname} is unreadable (${
          error instanceof Error ? error.message : String(error)
        }); run with --allow-read on the project's lib/ folder`,
      );
    }
  };
  return assets ??= {
    script: read("./_client.bundle.js"),
    style: read("./_style.css"),
  };
}

/** JSON safe inside a `<script>` element. */
function scriptJson(data: unknown): string {
  return JSON.stringify(data).replace(/</g, "\\u003c");
}

/**
 * Renders the viewer: `#viewer` with its note, the list (drawn by the
 * script; each sample a row carrying `data-key`) and the detail pane
 * `#sample-detail`. Self-contained: no external resource.
 *
 * @param rows What {@linkcode viewerRows} returned.
 * @returns The HTML fragment.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import pl from "nodejs-polars";
 * import { viewerHtml, viewerRows } from "./mod.ts";
 *
 * const frame = pl.DataFrame({ key: ["m|q|t|0"], model: ["m"], status: ["correct"], response: ["</script>"] });
 * const html = viewerHtml(await viewerRows(frame, []));
 * assert.match(html, /id="sample-detail"/);
 * assert.match(html, /All 1 rows embedded/);
 * assert.doesNotMatch(html, /"<\/script>"/);
 * assert.doesNotMatch(html, /<script src=|<link /);
 * ```
 */
export function viewerHtml(rows: ViewerRows): string {
  const { script, style } = readAssets();
  return `<div id="viewer" data-shown="${rows.shown}" data-total="${rows.total}" data-sampled="${rows.sampled}">
<p class="note" id="viewer-note">${
    escapeHtml(rows.note)
  } Keys: j / k (or ↓ / ↑ in the list) for the next and previous sample, / to search. The view is kept in the address (#explore?…): copy it to share this view.</p>
<noscript><p>The sample viewer needs JavaScript.</p></noscript>
<div class="vw-panes"><div id="sample-detail" class="vw-detail" tabindex="-1" aria-live="polite"></div></div>
<script type="application/json" id="viewer-data">${
    scriptJson(rows.data)
  }</script>
<style>${style}</style>
<script>${script}</script>
</div>`;
}
