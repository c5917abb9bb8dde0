// The sample viewer's script, part 2 of 6: the tabs, filters, search and the list's frame.
// html.ts joins the parts, in order, inside one function: they share
// its scope, so names defined here are used in the other parts.
// deno-lint-ignore-file no-unused-vars

// ---- controls ----
const bar = el("div", { class: "vw-bar" });
const tabs = el("div", { class: "vw-tabs", role: "tablist" });
for (
  const [v, label] of [["list", "Samples"], ["disagree", "Disagreements"]]
) {
  tabs.append(el("button", {
    type: "button",
    "data-view": v,
    role: "tab",
    text: label,
    onclick: () => {
      state.view = v;
      state.group = "";
      update();
    },
  }));
}
const bySel = el("select", {
  id: "vw-by",
  onchange: () => {
    state.by = bySel.value;
    state.group = "";
    update();
  },
});
for (const a of axes) {
  bySel.append(el("option", { value: a, text: AXES[a] + " disagree" }));
}
const byBox = el("label", { class: "vw-by" }, "view ", bySel);
bar.append(tabs, byBox);
const selects = {};
function filterSelect(col, label, values) {
  const s = el("select", {
    "data-filter": col,
    onchange: () => {
      state.f[col] = s.value;
      if (col === "suite") {
        // A suite's dims filters only mean something for that suite.
        for (const k of Object.keys(state.f)) {
          if (k.startsWith("d:") && !k.startsWith("d:" + s.value + ":")) {
            delete state.f[k];
          }
        }
      }
      update();
    },
  }, el("option", { value: "", text: "all" }));
  if (col === "status") {
    s.append(el("option", { value: "!correct", text: "not correct" }));
  }
  for (const v of values) s.append(el("option", { value: v, text: v }));
  selects[col] = s;
  return el("label", { "data-filter-label": col }, label + " ", s);
}
const filterBox = el("span", { class: "vw-filters" });
for (const col of BASE) {
  const vals = distinct(col);
  if (col === "run" && vals.length < 2) continue;
  if (vals.length === 0) continue;
  filterBox.append(filterSelect(col, col, vals));
}
const dimBox = el("span", { class: "vw-dims" });
for (const s of suites) {
  const group = el("span", { class: "vw-dimgroup", "data-suite": s.name });
  group.append(el("span", { class: "vw-dimsuite", text: s.name + ":" }));
  for (const d of s.dims) {
    const vals = distinct(d.col);
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
    state.q = search.value;
    update();
  },
});
const regex = el("input", {
  type: "checkbox",
  id: "vw-regex",
  onchange: () => {
    state.re = regex.checked;
    update();
  },
});
const reset = el("button", {
  type: "button",
  id: "vw-reset",
  text: "reset",
  onclick: () => {
    state = blank();
    update();
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
  {
    class: "vw-scroll",
    id: "vw-scroll",
    tabindex: "0",
    role: "grid",
  },
  head,
  spacer,
);
const detail = document.getElementById("sample-detail");
const list = el("div", { class: "vw-list" }, scroller);
root.querySelector(".vw-panes").prepend(list);
root.insertBefore(count, root.querySelector(".vw-panes"));
root.insertBefore(bar, count);
