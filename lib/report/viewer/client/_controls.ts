/// <reference lib="dom" />
/// <reference lib="dom.iterable" />
/**
 * The viewer's controls: the tabs, the axis picker, the filters (the
 * generic ones and each suite's dims), search, reset, the count and the
 * list's frame, put in place around the detail pane.
 *
 * @module
 */
import { el } from "./_dom.ts";
import { AXES, blankState } from "./_state.ts";
import type { Viewer } from "./_viewer.ts";

/** The generic filters, in order. */
const BASE = ["run", "suite", "model", "template", "status"];

/** The elements the drawing reads and sets. */
export interface Controls {
  /** The view tabs (buttons with `data-view`). */
  tabs: HTMLElement;
  /** The axis picker's label (hidden in the list view). */
  byBox: HTMLElement;
  /** The axis picker. */
  bySel: HTMLSelectElement;
  /** The filters by column. */
  selects: Record<string, HTMLSelectElement>;
  /** Each suite's dim filters, one group per suite (`data-suite`). */
  dimBox: HTMLElement;
  /** The search box. */
  search: HTMLInputElement;
  /** The regex checkbox. */
  regex: HTMLInputElement;
  /** The count line. */
  count: HTMLElement;
  /** The list's header row. */
  head: HTMLElement;
  /** The list's drawn rows. */
  rowsBox: HTMLElement;
  /** The list's full-height spacer. */
  spacer: HTMLElement;
  /** The list's scrolling box. */
  scroller: HTMLElement;
}

/**
 * Builds the controls and puts them in `v.root`, before the panes; each
 * control sets `v.state` and calls `v.update()`.
 *
 * @param v The viewer.
 * @returns The controls.
 */
export function buildControls(v: Viewer): Controls {
  const t = v.table;
  const bar = el("div", { class: "vw-bar" });
  const tabs = el("div", { class: "vw-tabs", role: "tablist" });
  const views = [["list", "Samples"], ["disagree", "Disagreements"]] as const;
  for (const [view, label] of views) {
    tabs.append(el("button", {
      type: "button",
      "data-view": view,
      role: "tab",
      text: label,
      onclick: () => {
        v.state.view = view;
        v.state.group = "";
        v.update();
      },
    }));
  }
  const bySel = el("select", {
    id: "vw-by",
    onchange: () => {
      v.state.by = bySel.value;
      v.state.group = "";
      v.update();
    },
  });
  for (const a of v.axes) {
    bySel.append(el("option", { value: a, text: AXES[a] + " disagree" }));
  }
  const byBox = el("label", { class: "vw-by" }, "view ", bySel);
  bar.append(tabs, byBox);
  const selects: Record<string, HTMLSelectElement> = {};
  const filterSelect = (col: string, label: string, values: string[]) => {
    const s = el("select", {
      "data-filter": col,
      onchange: () => {
        v.state.f[col] = s.value;
        if (col === "suite") {
          // A suite's dims filters only mean something for that suite.
          for (const k of Object.keys(v.state.f)) {
            if (k.startsWith("d:") && !k.startsWith("d:" + s.value + ":")) {
              delete v.state.f[k];
            }
          }
        }
        v.update();
      },
    }, el("option", { value: "", text: "all" }));
    if (col === "status") {
      s.append(el("option", { value: "!correct", text: "not correct" }));
    }
    for (const x of values) s.append(el("option", { value: x, text: x }));
    selects[col] = s;
    return el("label", { "data-filter-label": col }, label + " ", s);
  };
  const filterBox = el("span", { class: "vw-filters" });
  for (const col of BASE) {
    const vals = t.distinct(col);
    if (col === "run" && vals.length < 2) continue;
    if (vals.length === 0) continue;
    filterBox.append(filterSelect(col, col, vals));
  }
  const dimBox = el("span", { class: "vw-dims" });
  for (const s of t.suites) {
    const group = el("span", { class: "vw-dimgroup", "data-suite": s.name });
    group.append(el("span", { class: "vw-dimsuite", text: s.name + ":" }));
    for (const d of s.dims) {
      const vals = t.distinct(d.col);
      if (vals.length < 2) continue;
      group.append(filterSelect(d.col, d.label, vals));
    }
    if (group.childElementCount > 1) dimBox.append(group);
  }
  const search = el("input", {
    type: "search",
    id: "vw-search",
    placeholder: "search question, reply, explanation",
    oninput: () => {
      v.state.q = search.value;
      v.update();
    },
  });
  const regex = el("input", {
    type: "checkbox",
    id: "vw-regex",
    onchange: () => {
      v.state.re = regex.checked;
      v.update();
    },
  });
  const reset = el("button", {
    type: "button",
    id: "vw-reset",
    text: "reset",
    onclick: () => {
      v.state = blankState(v.axes);
      v.update();
    },
  });
  bar.append(
    filterBox,
    dimBox,
    el("label", {}, "search ", search),
    el("label", {}, regex, " regex"),
    reset,
  );
  const count = el("p", { id: "vw-count", "aria-live": "polite" });
  const head = el("div", { class: "vw-row vw-head", role: "row" });
  const rowsBox = el("div", { id: "vw-rows", role: "rowgroup" });
  const spacer = el("div", { class: "vw-spacer" }, rowsBox);
  const scroller = el(
    "div",
    { class: "vw-scroll", id: "vw-scroll", tabindex: "0", role: "grid" },
    head,
    spacer,
  );
  const list = el("div", { class: "vw-list" }, scroller);
  const panes = v.root.querySelector(".vw-panes");
  if (!panes) {
    throw new Error(
      "Cannot draw the sample viewer: the page has no .vw-panes; rebuild the report",
    );
  }
  panes.prepend(list);
  v.root.insertBefore(count, panes);
  v.root.insertBefore(bar, count);
  return {
    tabs,
    byBox,
    bySel,
    selects,
    dimBox,
    search,
    regex,
    count,
    head,
    rowsBox,
    spacer,
    scroller,
  };
}
