// The sample viewer's script, part 4 of 6: drawing the windowed list.
// html.ts joins the parts, in order, inside one function: they share
// its scope, so names defined here are used in the other parts.
// deno-lint-ignore-file no-unused-vars

// ---- drawing ----
let order = [];
let members = [];
let view = { all: [], differ: [] };
function update() {
  commit();
  draw();
}
function draw() {
  root.dataset.view = state.view;
  for (const b of tabs.children) {
    b.setAttribute("aria-selected", String(b.dataset.view === state.view));
  }
  byBox.hidden = state.view !== "disagree";
  bySel.value = state.by;
  for (const [col, s] of Object.entries(selects)) {
    s.value = state.f[col] || "";
  }
  for (const g of dimBox.children) {
    g.hidden = !(state.f.suite === g.dataset.suite || suiteNames.length === 1);
  }
  search.value = state.q;
  regex.checked = state.re;
  if (state.view === "list") {
    const idx = filtered(false);
    order = sorted(idx, state.sort);
    const by = {};
    for (const i of idx) {
      const s = val("status", i);
      by[s] = (by[s] || 0) + 1;
    }
    count.textContent = (searchError ? searchError + ". " : "") +
      fmt(idx.length) + " of " + fmt(N) + " samples match" +
      (idx.length
        ? " (" + Object.entries(by).sort().map(([s, k]) =>
          s + " " + fmt(k)
        ).join(", ") + ")"
        : "") +
      ".";
  } else {
    view = groups(filtered(true));
    members = [...new Set(view.all.flatMap((g) => [...g.members.keys()]))]
      .sort((a, b) => a.localeCompare(b, "en", { numeric: true }));
    order = view.differ;
    count.textContent = (searchError ? searchError + ". " : "") +
      fmt(view.differ.length) + " questions where the " + AXES[state.by] +
      " got different verdicts, of " + fmt(view.all.length) +
      " answered by two or more" +
      (state.f.status ? " (the status filter is not applied here)" : "") +
      ".";
  }
  drawHead();
  spacer.style.height = order.length * ROW_H + "px";
  drawRows();
  drawDetail();
}
function template(cols) {
  return cols.map((c) => c[2]).join(" ");
}
function drawHead() {
  head.replaceChildren();
  if (state.view === "list") {
    const cols = columns();
    head.style.gridTemplateColumns = template(cols);
    for (const [col, label] of cols) {
      const mark = state.sort === col
        ? " ▲"
        : state.sort === "-" + col
        ? " ▼"
        : "";
      head.append(el("button", {
        type: "button",
        class: "vw-sort",
        "data-sort": col,
        role: "columnheader",
        text: label + mark,
        onclick: () => {
          state.sort = state.sort === col
            ? "-" + col
            : state.sort === "-" + col
            ? ""
            : col;
          update();
        },
      }));
    }
  } else {
    const cols = groupColumns();
    head.style.gridTemplateColumns = template(cols);
    for (const [, label] of cols) head.append(el("span", { text: label }));
  }
}
function groupColumns() {
  const cols = [];
  if (!state.f.suite && suiteNames.length > 1) {
    cols.push(["suite", "suite", "6rem"]);
  }
  if (state.by !== "run" && runs.length > 1) {
    cols.push(["run", "run", "8rem"]);
  }
  cols.push(["question_id", "question", "minmax(12rem,2fr)"]);
  if (state.by !== "model") cols.push(["model", "model", "9rem"]);
  if (state.by !== "template") cols.push(["template", "template", "7rem"]);
  cols.push(["sample", "sample", "3.5rem"]);
  for (const m of members) cols.push(["m:" + m, m, "minmax(3rem,1fr)"]);
  return cols;
}
function drawRows() {
  // The list's height is read on scroll only, so drawing never forces a
  // layout of the whole report.
  const top = scrollTop;
  const h = viewH;
  const from = Math.max(0, Math.floor(top / ROW_H) - 10);
  const to = Math.min(order.length, Math.ceil((top + h) / ROW_H) + 10);
  const frag = document.createDocumentFragment();
  const cols = state.view === "list" ? columns() : groupColumns();
  const grid = template(cols);
  for (let k = from; k < to; k++) {
    frag.append(
      state.view === "list"
        ? sampleRow(order[k], k, cols, grid)
        : groupRow(order[k], k, cols, grid),
    );
  }
  rowsBox.replaceChildren(frag);
}
function sampleRow(i, k, cols, grid) {
  const key = val("key", i);
  const r = el("div", {
    class: "vw-row",
    role: "row",
    "data-key": key,
    "data-status": val("status", i),
    "aria-selected": String(state.open === key),
    onclick: () => open(key),
  });
  r.style.top = k * ROW_H + "px";
  r.style.gridTemplateColumns = grid;
  for (const [col] of cols) {
    const t = cellText(col, i);
    r.append(
      el("span", {
        "data-col": col,
        class: col === "status" ? "st st-" + t : null,
        text: t === null ? "" : t,
        title: t === null ? null : t,
      }),
    );
  }
  return r;
}
function groupRow(g, k, cols, grid) {
  const r = el("div", {
    class: "vw-row",
    role: "row",
    "data-group": g.key,
    "aria-selected": String(state.group === g.key && !state.open),
    onclick: () => {
      state.group = g.key;
      state.open = "";
      update();
    },
  });
  r.style.top = k * ROW_H + "px";
  r.style.gridTemplateColumns = grid;
  for (const [col] of cols) {
    if (col.startsWith("m:")) {
      const i = g.members.get(col.slice(2));
      if (i === undefined) {
        r.append(
          el("span", { class: "st", text: "·", title: "not answered" }),
        );
        continue;
      }
      const st = val("status", i);
      r.append(el("span", {
        class: "st st-" + st,
        "data-key": val("key", i),
        "data-member": col.slice(2),
        title: st,
        text: st === "correct" ? "✓ " + st : "✗ " + st,
      }));
    } else {
      const t = val(col, g.first);
      r.append(el("span", { "data-col": col, text: t === null ? "" : t }));
    }
  }
  return r;
}
let scrollTop = 0, viewH = Math.max(420, innerHeight - 190);
scroller.addEventListener("scroll", () =>
  requestAnimationFrame(() => {
    scrollTop = scroller.scrollTop;
    viewH = scroller.clientHeight;
    drawRows();
  }));
function scrollListTo(y) {
  scroller.scrollTop = y;
  scrollTop = scroller.scrollTop;
}

function indexOfKey(key) {
  const a = C.key;
  const x = S.indexOf(key);
  return x < 0 ? -1 : a.indexOf(x);
}
function open(key) {
  state.open = key;
  update();
}
