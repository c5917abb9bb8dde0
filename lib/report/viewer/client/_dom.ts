/// <reference lib="dom" />
/// <reference lib="dom.iterable" />
/**
 * The one DOM helper the viewer builds its elements with. Text only ever
 * goes in through `textContent` (the `text` attribute), never as HTML.
 *
 * @module
 */

/** An element's attributes: `class`, `text`, `on<event>` handlers, others. */
export type Attrs = Record<
  string,
  string | number | boolean | null | undefined | ((e: Event) => void)
>;

/**
 * Makes an element. `null`, `undefined` and `false` attributes are left
 * out; `true` sets an empty attribute.
 *
 * @param tag The tag name.
 * @param attrs Its attributes.
 * @param kids Its children (null and undefined left out).
 * @returns The element.
 */
export function el<K extends keyof HTMLElementTagNameMap>(
  tag: K,
  attrs?: Attrs | null,
  ...kids: (Node | string | null | undefined)[]
): HTMLElementTagNameMap[K] {
  const e = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs || {})) {
    if (v === null || v === undefined || v === false) continue;
    if (typeof v === "function") e.addEventListener(k.slice(2), v);
    else if (k === "class") e.className = String(v);
    else if (k === "text") e.textContent = String(v);
    else e.setAttribute(k, v === true ? "" : String(v));
  }
  for (const k of kids) if (k !== null && k !== undefined) e.append(k);
  return e;
}
