/// <reference lib="dom" />
/// <reference lib="dom.iterable" />
/**
 * The windowed list: its header (sort buttons in the samples list), and
 * only the rows in view (plus a margin) drawn at their offsets.
 *
 * @module
 */
import type { Controls } from "./_controls.ts";
import { el } from "./_dom.ts";
import {
  cellText,
  type Column,
  columns,
  type Group,
  groupColumns,
} from "./_query.ts";
import { ROW_H, type Viewer } from "./_viewer.ts";

/** The CSS grid template of some columns. */
const template = (cols: Column[]): string => cols.map((c) => c[2]).join(" ");

/** The current view's columns. */
function viewColumns(v: Viewer): Column[] {
  return v.state.view === "list"
    ? columns(v.table, v.state, v.shape)
    : groupColumns(v.state, v.shape, v.members);
}

/**
 * Draws the list's header: sort buttons (`data-sort`, ▲ / ▼ on the
 * sorted one) in the samples list, headings in the disagreement view.
 */
export function drawHead(v: Viewer, ui: Controls): void {
  const head = ui.head;
  head.replaceChildren();
  const cols = viewColumns(v);
  head.style.gridTemplateColumns = template(cols);
  if (v.state.view !== "list") {
    for (const [, label] of cols) head.append(el("span", { text: label }));
    return;
  }
  for (const [col, label] of cols) {
    const s = v.state.sort;
    const mark = s === col ? " ▲" : s === "-" + col ? " ▼" : "";
    head.append(el("button", {
      type: "button",
      class: "vw-sort",
      "data-sort": col,
      role: "columnheader",
      text: label + mark,
      onclick: () => {
        const s = v.state.sort;
        v.state.sort = s === col ? "-" + col : s === "-" + col ? "" : col;
        v.update();
      },
    }));
  }
}

/**
 * Draws the rows in view. The list's height is read on scroll only, so
 * drawing never forces a layout of the whole report.
 */
export function drawRows(v: Viewer, ui: Controls): void {
  const n = v.state.view === "list" ? v.order.length : v.groupOrder.length;
  const from = Math.max(0, Math.floor(v.scrollTop / ROW_H) - 10);
  const to = Math.min(n, Math.ceil((v.scrollTop + v.viewH) / ROW_H) + 10);
  const frag = document.createDocumentFragment();
  const cols = viewColumns(v);
  const grid = template(cols);
  for (let k = from; k < to; k++) {
    frag.append(
      v.state.view === "list"
        ? sampleRow(v, v.order[k]!, k, cols, grid)
        : groupRow(v, v.groupOrder[k]!, k, cols, grid),
    );
  }
  ui.rowsBox.replaceChildren(frag);
}

/** One sample's row (`data-key`, `data-status`). */
function sampleRow(
  v: Viewer,
  i: number,
  k: number,
  cols: Column[],
  grid: string,
): HTMLElement {
  const key = String(v.table.val("key", i));
  const r = el("div", {
    class: "vw-row",
    role: "row",
    "data-key": key,
    "data-status": v.table.val("status", i),
    "aria-selected": String(v.state.open === key),
    onclick: () => v.open(key),
  });
  r.style.top = k * ROW_H + "px";
  r.style.gridTemplateColumns = grid;
  for (const [col] of cols) {
    const t = cellText(v.table, col, i);
    r.append(el("span", {
      "data-col": col,
      class: col === "status" ? "st st-" + t : null,
      text: t === null ? "" : t,
      title: t,
    }));
  }
  return r;
}

/** One disagreement group's row: its fields, then each member's verdict. */
function groupRow(
  v: Viewer,
  g: Group,
  k: number,
  cols: Column[],
  grid: string,
): HTMLElement {
  const t = v.table;
  const r = el("div", {
    class: "vw-row",
    role: "row",
    "data-group": g.key,
    "aria-selected": String(v.state.group === g.key && !v.state.open),
    onclick: () => {
      v.state.group = g.key;
      v.state.open = "";
      v.update();
    },
  });
  r.style.top = k * ROW_H + "px";
  r.style.gridTemplateColumns = grid;
  for (const [col] of cols) {
    if (!col.startsWith("m:")) {
      const x = t.val(col, g.first);
      r.append(el("span", { "data-col": col, text: x === null ? "" : x }));
      continue;
    }
    const i = g.members.get(col.slice(2));
    if (i === undefined) {
      r.append(el("span", { class: "st", text: "·", title: "not answered" }));
      continue;
    }
    const st = t.val("status", i);
    r.append(el("span", {
      class: "st st-" + st,
      "data-key": t.val("key", i),
      "data-member": col.slice(2),
      title: st,
      text: st === "correct" ? "✓ " + st : "✗ " + st,
    }));
  }
  return r;
}

/** Redraws the rows in view as the list scrolls (once per frame). */
export function watchScroll(v: Viewer, ui: Controls): void {
  ui.scroller.addEventListener("scroll", () =>
    requestAnimationFrame(() => {
      v.scrollTop = ui.scroller.scrollTop;
      v.viewH = ui.scroller.clientHeight;
      drawRows(v, ui);
    }));
}

/** Scrolls the list to `y` (px) and keeps the position. */
export function scrollListTo(v: Viewer, ui: Controls, y: number): void {
  ui.scroller.scrollTop = y;
  v.scrollTop = ui.scroller.scrollTop;
}
