/**
 * HTML that shows itself in Jupyter: the one wrapper behind the report's
 * charts and tables in a notebook.
 *
 * @module
 */

/**
 * An HTML fragment that shows itself as `text/html` in Jupyter (the Deno
 * kernel calls `Symbol.for("Jupyter.display")`), so it survives
 * nbconvert's HTML export, which blanks `image/svg+xml` output; `html`
 * goes straight into a standalone page. `Chart` and `Table` are these.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { HtmlDisplay } from "./mod.ts";
 *
 * const shown = new HtmlDisplay("<p>hi</p>");
 * assert.deepEqual(shown.toJupyter(), { "text/html": "<p>hi</p>" });
 * assert.equal(`${shown}`, "<p>hi</p>");
 * ```
 */
export class HtmlDisplay {
  /** The HTML fragment. */
  readonly html: string;

  /**
   * Wraps an HTML fragment.
   *
   * @param html The fragment.
   */
  constructor(html: string) {
    this.html = html;
  }

  /**
   * The MIME bundle Jupyter shows.
   *
   * @returns `{ "text/html": html }`.
   */
  toJupyter(): Record<string, string> {
    return { "text/html": this.html };
  }

  /**
   * Jupyter's rich display hook (the Deno kernel looks for this symbol).
   *
   * @returns The MIME bundle of {@linkcode HtmlDisplay.toJupyter}.
   */
  [Symbol.for("Jupyter.display")](): Record<string, string> {
    return this.toJupyter();
  }

  /**
   * The HTML fragment.
   *
   * @returns `html`.
   */
  toString(): string {
    return this.html;
  }
}
