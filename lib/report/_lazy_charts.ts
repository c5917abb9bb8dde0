/**
 * Charts drawn when they come near the viewport: each plot's SVG is kept
 * in a `<template>` beside a placeholder of the SVG's own width and
 * aspect ratio (from its `width` and `height`, so nothing moves when it is
 * drawn). A script in the page draws a chart when it nears the viewport,
 * the rest while the page is idle, and all of them before printing; the
 * page stays one self-contained file.
 *
 * @module
 */

/** A plot's SVG as Observable Plot writes it (the one with a `viewBox`). */
const PLOT_SVG = /<svg\b[^>]*\bviewBox="[^"]*"[^>]*>[\s\S]*?<\/svg>/g;

/** The style of the placeholders. */
export const LAZY_CHART_STYLE =
  ".eval-lazy{display:block;max-width:100%;height:auto;background:#fafafa}";

/**
 * Keeps each plot SVG of an HTML fragment in a `<template>` with a
 * placeholder of its size; an SVG without a width and height (or holding
 * another SVG) stays as it is.
 *
 * @param html A report fragment.
 * @returns The fragment with its plots deferred.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { lazyCharts } from "./_lazy_charts.ts";
 * const svg = '<svg viewBox="0 0 720 320" height="320" width="720"><g></g></svg>';
 * const out = lazyCharts(`<div>${svg}</div>`);
 * assert.equal(
 *   out,
 *   `<div><template class="eval-lazy-svg">${svg}</template>` +
 *     '<div class="eval-lazy" style="width:720px;aspect-ratio:720/320"></div></div>',
 * );
 * // A legend swatch (no viewBox) is left as it is.
 * assert.equal(lazyCharts('<svg width="15" height="15"></svg>'), '<svg width="15" height="15"></svg>');
 * ```
 */
export function lazyCharts(html: string): string {
  return html.replace(PLOT_SVG, (svg) => {
    const open = svg.slice(0, svg.indexOf(">") + 1);
    const width = /\swidth="(\d+(?:\.\d+)?)"/.exec(open)?.[1];
    const height = /\sheight="(\d+(?:\.\d+)?)"/.exec(open)?.[1];
    if (!width || !height || svg.indexOf("<svg", 1) >= 0) return svg;
    return `<template class="eval-lazy-svg">${svg}</template>` +
      `<div class="eval-lazy" style="width:${width}px;aspect-ratio:${width}/${height}"></div>`;
  });
}

/** The page script that draws the deferred charts. */
export const LAZY_CHART_SCRIPT = `(function () {
  var left = Array.from(document.querySelectorAll("template.eval-lazy-svg"));
  if (!left.length) return;
  function draw(t) {
    var ph = t.nextElementSibling;
    if (!t.isConnected) return;
    t.replaceWith(document.importNode(t.content, true));
    if (ph && ph.classList.contains("eval-lazy")) ph.remove();
  }
  function drawAll() {
    left.forEach(draw);
    left = [];
  }
  var seen = "IntersectionObserver" in window
    ? new IntersectionObserver(function (es) {
      es.forEach(function (e) {
        if (!e.isIntersecting) return;
        seen.unobserve(e.target);
        var t = e.target.previousElementSibling;
        if (t) draw(t);
      });
    }, { rootMargin: "800px 0px" })
    : null;
  if (!seen) return drawAll();
  left.forEach(function (t) {
    if (t.nextElementSibling) seen.observe(t.nextElementSibling);
  });
  addEventListener("beforeprint", drawAll);
  // The rest while the page is idle, a few at a time, so searching the
  // page finds their labels too.
  var idle = window.requestIdleCallback || function (f) {
    return setTimeout(function () { f({ timeRemaining: function () { return 8; } }); }, 50);
  };
  function step(d) {
    while (left.length && d.timeRemaining() > 4) draw(left.shift());
    if (left.length) idle(step);
  }
  addEventListener("load", function () { idle(step); });
})();`;
