/// <reference lib="dom" />
/// <reference lib="dom.iterable" />
/**
 * The sample viewer's script, the entry `deno task build:viewer` bundles
 * into `../_client.bundle.js`: reads the embedded rows, builds the
 * controls, draws the list and the detail pane, and keeps the state in
 * the URL fragment.
 *
 * The script is written by hand, not taken from a table or grid library:
 * the report must stay one file that opens with no network, so any
 * library would be inlined too, and what is needed (filter, search, sort,
 * a windowed list, a detail pane, state in the fragment) is a few hundred
 * lines of plain DOM code. Row text is only ever set through
 * `textContent`, never parsed as HTML.
 *
 * @module
 */
import type { ViewerPayload } from "../payload.ts";
import { buildControls, type Controls } from "./_controls.ts";
import { drawDetail } from "./_detail.ts";
import { listenKeys } from "./_keys.ts";
import { drawHead, drawRows, scrollListTo, watchScroll } from "./_list.ts";
import { fmt } from "./_numbers.ts";
import { filtered, groups, sorted } from "./_query.ts";
import { AXES, blankState, fromHash, toHash } from "./_state.ts";
import { natural, openTable } from "./_table.ts";
import { ROW_H, type Viewer } from "./_viewer.ts";

/** An element the page must have. */
function need(id: string): HTMLElement {
  const e = document.getElementById(id);
  if (!e) {
    throw new Error(
      `Cannot start the sample viewer: the page has no #${id}; rebuild the report`,
    );
  }
  return e;
}

/** Writes the state into the fragment (without a history entry). */
function commit(v: Viewer): void {
  const h = toHash(v.state);
  if (location.hash !== h) history.replaceState(null, "", h);
}

/** The count line of the samples list, by status. */
function listCount(v: Viewer, idx: number[], error: string): string {
  const by: Record<string, number> = {};
  for (const i of idx) {
    const s = String(v.table.val("status", i));
    by[s] = (by[s] || 0) + 1;
  }
  return (error ? error + ". " : "") +
    fmt(idx.length) + " of " + fmt(v.table.n) + " samples match" +
    (idx.length
      ? " (" + Object.entries(by).sort().map(([s, k]) => s + " " + fmt(k))
        .join(", ") +
        ")"
      : "") +
    ".";
}

/** Draws everything for the state: controls, count, list, detail. */
function draw(v: Viewer, ui: Controls, pane: HTMLElement): void {
  const s = v.state;
  v.root.dataset.view = s.view;
  for (const b of ui.tabs.children) {
    if (!(b instanceof HTMLElement)) continue;
    b.setAttribute("aria-selected", String(b.dataset.view === s.view));
  }
  ui.byBox.hidden = s.view !== "disagree";
  ui.bySel.value = s.by;
  for (const [col, sel] of Object.entries(ui.selects)) {
    sel.value = s.f[col] || "";
  }
  for (const g of ui.dimBox.children) {
    if (!(g instanceof HTMLElement)) continue;
    g.hidden = !(s.f.suite === g.dataset.suite ||
      v.shape.suiteNames.length === 1);
  }
  ui.search.value = s.q;
  ui.regex.checked = s.re;
  if (s.view === "list") {
    const { idx, error } = filtered(v.table, s, false);
    v.order = sorted(v.table, idx, s.sort);
    ui.count.textContent = listCount(v, idx, error);
  } else {
    const { idx, error } = filtered(v.table, s, true);
    v.groups = groups(v.table, idx, s.by);
    v.members = [
      ...new Set(v.groups.all.flatMap((g) => [...g.members.keys()])),
    ].sort(natural);
    v.groupOrder = v.groups.differ;
    ui.count.textContent = (error ? error + ". " : "") +
      fmt(v.groups.differ.length) + " questions where the " + AXES[s.by] +
      " got different verdicts, of " + fmt(v.groups.all.length) +
      " answered by two or more" +
      (s.f.status ? " (the status filter is not applied here)" : "") +
      ".";
  }
  drawHead(v, ui);
  const n = s.view === "list" ? v.order.length : v.groupOrder.length;
  ui.spacer.style.height = n * ROW_H + "px";
  drawRows(v, ui);
  drawDetail(v, pane);
}

/** Starts the viewer on the page's `#viewer`. */
function start(): void {
  const started = performance.now();
  const root = need("viewer");
  const payload = JSON.parse(need("viewer-data").textContent ?? "");
  const table = openTable(payload as ViewerPayload);
  const axes = Object.keys(AXES).filter((a) => table.distinct(a).length > 1);
  const pane = need("sample-detail");
  let ui: Controls | undefined;
  const v: Viewer = {
    root,
    table,
    shape: { runs: table.distinct("run"), suiteNames: table.distinct("suite") },
    axes,
    state: blankState(axes),
    order: [],
    groupOrder: [],
    groups: { all: [], differ: [] },
    members: [],
    scrollTop: 0,
    viewH: Math.max(420, innerHeight - 190),
    update: () => {
      commit(v);
      if (ui) draw(v, ui, pane);
    },
    open: (key) => {
      v.state.open = key;
      v.update();
    },
  };
  const controls = ui = buildControls(v);
  watchScroll(v, controls);
  listenKeys(v, controls);
  addEventListener("hashchange", () => {
    const s = fromHash(location.hash, axes);
    if (s) {
      v.state = s;
      draw(v, controls, pane);
    }
  });
  const first = fromHash(location.hash, axes);
  if (first) v.state = first;
  draw(v, controls, pane);
  if (first) {
    root.scrollIntoView();
    if (v.state.open && v.state.view === "list") {
      const k = v.order.findIndex((i) => table.val("key", i) === v.state.open);
      if (k >= 0) {
        scrollListTo(v, controls, Math.max(0, k * ROW_H - v.viewH / 2));
        drawRows(v, controls);
      }
    }
  }
  root.dataset.ready = "true";
  // When the script began and how long it took (ms), for the page's tests.
  root.dataset.start = String(Math.round(started));
}

start();
