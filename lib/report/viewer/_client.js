// The sample viewer's script, inlined into the report page.
//
// Written by hand, not taken from a table or grid library: the report must
// stay one file that opens with no network, so any library would be
// inlined too, and what is needed here (filter, search, sort, a windowed
// list, a detail pane, state in the fragment) is a few hundred lines of
// plain DOM code. Row text is only ever set through textContent, never
// parsed as HTML.
(function () {
  "use strict";
  const started = performance.now();
  const root = document.getElementById("viewer");
  const D = JSON.parse(document.getElementById("viewer-data").textContent);
  const S = D.S, C = D.C, N = D.n;
  const INTERNED = new Set(D.I);
  const ROW_H = 26;
  const BASE = ["run", "suite", "model", "template", "status"];
  const AXES = { model: "models", template: "templates", run: "runs" };
  const SEARCHED = ["question", "response", "explanation", "reasoning"];

  /** A row's value of a column: text, number, boolean or null. */
  function val(col, i) {
    const a = C[col];
    if (!a) return null;
    const x = a[i];
    if (INTERNED.has(col)) return x < 0 || x === null ? null : S[x];
    return x === undefined ? null : x;
  }
  const sidx = (col, i) => (C[col] ? C[col][i] : -1);
  const suites = D.suites;
  const distinct = (col) => {
    const seen = new Set();
    for (let i = 0; i < N; i++) {
      const v = val(col, i);
      if (v !== null) seen.add(String(v));
    }
    return [...seen].sort((a, b) =>
      a.localeCompare(b, "en", { numeric: true })
    );
  };
  const runs = distinct("run");
  const suiteNames = distinct("suite");
  const axes = Object.keys(AXES).filter((a) => distinct(a).length > 1);

  // ---- state, and its form in the URL fragment ----
  let state = blank();
  function blank() {
    return {
      view: "list",
      by: axes.includes("model") ? "model" : (axes[0] || "model"),
      f: {},
      q: "",
      re: false,
      sort: "",
      open: "",
      group: "",
    };
  }
  function toHash(s) {
    const p = new URLSearchParams();
    if (s.view !== "list") p.set("view", s.view);
    if (s.view === "disagree") p.set("by", s.by);
    for (const [k, v] of Object.entries(s.f)) if (v !== "") p.set("f." + k, v);
    if (s.q) p.set("q", s.q);
    if (s.re) p.set("re", "1");
    if (s.sort) p.set("sort", s.sort);
    if (s.group) p.set("group", s.group);
    if (s.open) p.set("open", s.open);
    return "#explore?" + p.toString();
  }
  function fromHash(h) {
    const s = blank();
    if (!h.startsWith("#explore")) return null;
    const p = new URLSearchParams(h.slice(h.indexOf("?") + 1));
    for (const [k, v] of p) {
      if (k.startsWith("f.")) s.f[k.slice(2)] = v;
      else if (k === "view" && (v === "list" || v === "disagree")) s.view = v;
      else if (k === "by" && AXES[v]) s.by = v;
      else if (k === "q") s.q = v;
      else if (k === "re") s.re = v === "1";
      else if (k === "sort") s.sort = v;
      else if (k === "open") s.open = v;
      else if (k === "group") s.group = v;
    }
    return s;
  }
  function commit() {
    const h = toHash(state);
    if (location.hash !== h) history.replaceState(null, "", h);
  }

  // ---- small DOM helpers ----
  function el(tag, attrs, ...kids) {
    const e = document.createElement(tag);
    for (const [k, v] of Object.entries(attrs || {})) {
      if (v === null || v === undefined || v === false) continue;
      if (k === "class") e.className = v;
      else if (k === "text") e.textContent = String(v);
      else if (k.startsWith("on")) e.addEventListener(k.slice(2), v);
      else e.setAttribute(k, v === true ? "" : String(v));
    }
    for (const k of kids) if (k !== null && k !== undefined) e.append(k);
    return e;
  }
  // Thousands separators by hand: toLocaleString's first call loads ICU data
  // (tens of ms on a slow machine).
  const fmt = (x) => String(x).replace(/\B(?=(\d{3})+(?!\d))/g, ",");

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

  // ---- filtering, search, sort ----
  const low = new Map();
  function lower(i) {
    let s = low.get(i);
    if (s === undefined) low.set(i, s = S[i].toLowerCase());
    return s;
  }
  let searchError = "";
  function matcher() {
    searchError = "";
    if (!state.q) return null;
    if (state.re) {
      try {
        const re = new RegExp(state.q, "i");
        return (i) =>
          SEARCHED.some((c) => {
            const x = sidx(c, i);
            return x >= 0 && re.test(S[x]);
          });
      } catch (e) {
        searchError = "not a regular expression: " + e.message;
        return () => false;
      }
    }
    const term = state.q.toLowerCase();
    return (i) =>
      SEARCHED.some((c) => {
        const x = sidx(c, i);
        return x >= 0 && lower(x).includes(term);
      });
  }
  function filtered(ignoreStatus) {
    const want = Object.entries(state.f).filter(([k, v]) =>
      v !== "" && C[k] && !(ignoreStatus && k === "status")
    );
    const m = matcher();
    const out = [];
    for (let i = 0; i < N; i++) {
      let ok = true;
      for (const [k, v] of want) {
        const x = val(k, i);
        if (k === "status" && v === "!correct") ok = x !== "correct";
        else ok = x !== null && String(x) === v;
        if (!ok) break;
      }
      if (ok && m && !m(i)) ok = false;
      if (ok) out.push(i);
    }
    return out;
  }
  function sortKey(col, i) {
    if (col === "tokens") {
      return (val("prompt_tokens", i) || 0) +
        (val("completion_tokens", i) || 0);
    }
    if (col === "dims") return dimsText(i);
    return val(col, i);
  }
  function sorted(idx, sort) {
    if (!sort) return idx;
    const desc = sort.startsWith("-");
    const col = desc ? sort.slice(1) : sort;
    const keys = new Map(idx.map((i) => [i, sortKey(col, i)]));
    return idx.slice().sort((a, b) => {
      const x = keys.get(a), y = keys.get(b);
      if (x === y) return a - b;
      if (x === null) return 1;
      if (y === null) return -1;
      const c = typeof x === "number" && typeof y === "number"
        ? x - y
        : String(x).localeCompare(String(y), "en", { numeric: true });
      return desc ? -c : c;
    });
  }

  // ---- list columns ----
  const suiteOf = (i) => val("suite", i);
  const dimsOf = (name) =>
    (suites.find((s) => s.name === name) || {}).dims || [];
  function dimsText(i) {
    return dimsOf(suiteOf(i)).map((d) => {
      const v = val(d.col, i);
      return v === null ? null : d.name + "=" + v;
    }).filter(Boolean).join(" ");
  }
  function columns() {
    const cols = [];
    if (runs.length > 1) cols.push(["run", "run", "8rem"]);
    const one = state.f.suite || (suiteNames.length === 1 ? suiteNames[0] : "");
    if (!one) cols.push(["suite", "suite", "6rem"]);
    cols.push(
      ["model", "model", "9rem"],
      ["question_id", "question", "minmax(12rem,2fr)"],
      ["template", "template", "7rem"],
      ["sample", "sample", "3.5rem"],
      ["status", "status", "6rem"],
    );
    if (one) {
      for (const d of dimsOf(one)) {
        cols.push([d.col, d.name, "minmax(4rem,1fr)"]);
      }
    } else cols.push(["dims", "dims", "minmax(10rem,2fr)"]);
    cols.push(["tokens", "tokens", "4.5rem"], ["latency_ms", "ms", "4.5rem"]);
    return cols;
  }
  function cellText(col, i) {
    if (col === "tokens") return sortKey("tokens", i);
    if (col === "dims") return dimsText(i);
    return val(col, i);
  }

  // ---- disagreements: the paired view ----
  const GROUP_FIELDS = [
    "run",
    "suite",
    "model",
    "question_id",
    "template",
    "sample",
  ];
  function groups(idx) {
    const by = state.by;
    const map = new Map();
    for (const i of idx) {
      const g = GROUP_FIELDS.filter((f) => f !== by).map((f) => val(f, i)).join(
        "|",
      );
      let e = map.get(g);
      if (!e) map.set(g, e = { key: g, first: i, members: new Map() });
      const m = String(val(by, i));
      if (!e.members.has(m)) e.members.set(m, i);
    }
    const all = [...map.values()].filter((g) => g.members.size > 1);
    const differ = all.filter((g) => {
      const c = [...g.members.values()].map((i) =>
        val("status", i) === "correct"
      );
      return c.some(Boolean) && !c.every(Boolean);
    });
    return { all, differ };
  }
  function binomTail(n, m) {
    // P(X <= m) for X ~ Binomial(n, 1/2), in log space.
    let logC = 0, total = 0;
    for (let i = 0; i <= m; i++) {
      if (i > 0) logC += Math.log((n - i + 1) / i);
      total += Math.exp(logC - n * Math.LN2);
    }
    return total;
  }
  const mcnemar = (b, c) =>
    b + c === 0 ? 1 : Math.min(1, 2 * binomTail(b + c, Math.min(b, c)));

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
      g.hidden =
        !(state.f.suite === g.dataset.suite || suiteNames.length === 1);
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

  // ---- the detail pane ----
  function block(title, part, ...kids) {
    return el(
      "section",
      { class: "vw-part", "data-part": part },
      el("h4", { text: title }),
      ...kids,
    );
  }
  function pre(text, cls) {
    return el("pre", { class: cls || "", text: text === null ? "" : text });
  }
  function highlighted(text, span, cls) {
    const p = el("pre", { class: cls || "" });
    if (!span) {
      p.textContent = text;
      return p;
    }
    p.append(
      text.slice(0, span[0]),
      el("mark", { class: "vw-extracted", text: text.slice(span[0], span[1]) }),
      text.slice(span[1]),
    );
    return p;
  }
  function spanOf(i, reply) {
    const s = D.spans[i];
    if (s) return s;
    const x = val("extracted", i);
    if (x === null || x === "" || !reply) return null;
    const at = reply.lastIndexOf(x);
    return at < 0 ? null : [at, at + x.length];
  }
  function fields(pairs) {
    const dl = el("dl", { class: "vw-fields" });
    for (const [k, v] of pairs) {
      if (v === null || v === undefined || v === "") continue;
      dl.append(el("dt", { text: k }), el("dd", { text: String(v) }));
    }
    return dl;
  }
  function suitePart(p) {
    if (p.kind === "fields") return block(p.title, "suite", fields(p.fields));
    if (p.kind === "text") {
      return block(p.title, "suite", pre(p.text, p.code ? "code" : "wrap"));
    }
    const t = el("table", { class: "vw-table" + (p.code ? " code" : "") });
    if (p.columns.length) {
      t.append(
        el(
          "thead",
          {},
          el("tr", {}, ...p.columns.map((c) => el("th", { text: c }))),
        ),
      );
    }
    t.append(
      el(
        "tbody",
        {},
        ...p.rows.map((r) =>
          el(
            "tr",
            {},
            ...r.map((c) => el("td", { text: c === null ? "" : String(c) })),
          )
        ),
      ),
    );
    return block(p.title, "suite", el("div", { class: "vw-scrollx" }, t));
  }
  function messages(json) {
    let list;
    try {
      list = JSON.parse(json);
    } catch {
      return [pre(json, "wrap")];
    }
    return list.map((m) =>
      el(
        "div",
        { class: "vw-msg" },
        el("span", { class: "vw-role", text: m.role || "?" }),
        pre(
          typeof m.content === "string"
            ? m.content
            : JSON.stringify(m.content ?? m, null, 1),
          "wrap",
        ),
      )
    );
  }
  function sampleDetail(i) {
    const key = val("key", i);
    const st = val("status", i);
    const reply = val("response", i) || "";
    const code = reply.includes("```") ? "code" : "wrap";
    const transcript = val("transcript", i);
    const parts = [
      el("h3", { text: val("model", i) + " · " + val("question_id", i) }),
      fields([
        ["key", key],
        ["suite", val("suite", i)],
        ["template", val("template", i)],
        ["sample", val("sample", i)],
        ["run", runs.length > 1 ? val("run", i) : null],
      ]),
      block(
        "Verdict",
        "verdict",
        el(
          "p",
          {},
          el("span", { class: "st st-" + st, text: st }),
          val("error_class", i) ? " · " + val("error_class", i) : "",
        ),
        fields([["explanation", val("explanation", i)], [
          "relative error",
          val("rel_error", i),
        ]]),
      ),
      block(
        "Prompt",
        "prompt",
        el("p", {
          class: "note",
          text: "The question as asked with template “" + val("template", i) +
            "”" + (transcript
              ? "; the tool turns follow."
              : " (the row keeps the question text; the template adds its instructions around it)."),
        }),
        pre(val("question", i), "wrap"),
        ...(transcript ? messages(transcript) : []),
      ),
    ];
    const reasoning = val("reasoning", i);
    if (reasoning) {
      parts.push(
        block(
          "Reasoning (kept apart from the reply)",
          "reasoning",
          pre(reasoning, "wrap"),
        ),
      );
    }
    parts.push(
      block("Reply", "reply", highlighted(reply, spanOf(i, reply), code)),
    );
    const x = val("extracted", i);
    parts.push(
      block(
        "Extracted answer",
        "extracted",
        fields([["rule", val("extract_rule", i)]]),
        x === null
          ? el("p", { class: "note", text: "nothing extracted" })
          : pre(x, x.includes("\n") ? "code" : "wrap"),
      ),
    );
    parts.push(block("Expected", "expected", pre(val("expected", i), "wrap")));
    for (const p of D.detail[i] || []) parts.push(suitePart(JSON.parse(S[p])));
    parts.push(block(
      "Call",
      "call",
      fields([
        ["prompt tokens", val("prompt_tokens", i)],
        ["completion tokens", val("completion_tokens", i)],
        ["latency (ms)", val("latency_ms", i)],
        ["attempts", val("attempts", i)],
        ["finish reason", val("finish_reason", i)],
        ["cached", val("cached", i)],
        ["error", val("error_kind", i)],
        ["error message", val("error_message", i)],
      ]),
    ));
    return parts;
  }
  function groupDetail(g) {
    const cols = [...g.members.entries()].sort((a, b) =>
      a[0].localeCompare(b[0], "en", { numeric: true })
    );
    const i0 = g.first;
    const box = el("div", { class: "vw-side" });
    for (const [m, i] of cols) {
      const st = val("status", i);
      const reply = val("response", i) || "";
      box.append(
        el(
          "div",
          { class: "vw-sidecol", "data-key": val("key", i), "data-member": m },
          el(
            "h4",
            {},
            el("button", {
              type: "button",
              class: "vw-link",
              text: m,
              title: "open this sample",
              onclick: () => open(val("key", i)),
            }),
          ),
          el("p", {}, el("span", { class: "st st-" + st, text: st })),
          fields([["extracted", val("extracted", i)], [
            "explanation",
            val("explanation", i),
          ]]),
          highlighted(
            reply,
            spanOf(i, reply),
            reply.includes("```") ? "code" : "wrap",
          ),
        ),
      );
    }
    return [
      el("h3", { text: val("question_id", i0) }),
      fields([
        ["suite", val("suite", i0)],
        ["model", state.by !== "model" ? val("model", i0) : null],
        ["template", state.by !== "template" ? val("template", i0) : null],
        ["sample", val("sample", i0)],
      ]),
      block("Question", "prompt", pre(val("question", i0), "wrap")),
      block("Expected", "expected", pre(val("expected", i0), "wrap")),
      block("Side by side", "side", box),
    ];
  }
  function pairsDetail() {
    const t = el("table", { class: "vw-table", id: "vw-pairs" });
    t.append(
      el(
        "thead",
        {},
        el(
          "tr",
          {},
          ...["A", "B", "pairs", "only A right", "only B right", "McNemar p"]
            .map((h) => el("th", { text: h })),
        ),
      ),
    );
    const body = el("tbody");
    for (let a = 0; a < members.length; a++) {
      for (let b = a + 1; b < members.length; b++) {
        let n = 0, oa = 0, ob = 0;
        for (const g of view.all) {
          const ia = g.members.get(members[a]), ib = g.members.get(members[b]);
          if (ia === undefined || ib === undefined) continue;
          n++;
          const ca = val("status", ia) === "correct",
            cb = val("status", ib) === "correct";
          if (ca && !cb) oa++;
          if (cb && !ca) ob++;
        }
        if (n === 0) continue;
        const p = mcnemar(oa, ob);
        body.append(
          el(
            "tr",
            {},
            ...[
              members[a],
              members[b],
              fmt(n),
              fmt(oa),
              fmt(ob),
              p < 0.001 ? p.toExponential(1) : p.toFixed(3),
            ].map((c) => el("td", { text: c })),
          ),
        );
      }
    }
    t.append(body);
    return [
      el("h3", { text: "Pairs of " + AXES[state.by] }),
      el("p", {
        class: "note",
        text: "Over the questions both answered (same suite, question, " +
          GROUP_FIELDS.filter((f) =>
            f !== state.by && f !== "suite" && f !== "question_id"
          ).join(", ") +
          "), with the filters above; the exact McNemar test on the pairs only one got right. Pick a question on the left to see the replies side by side.",
      }),
      el("div", { class: "vw-scrollx" }, t),
    ];
  }
  function drawDetail() {
    let kids;
    const i = state.open ? indexOfKey(state.open) : -1;
    if (i >= 0) kids = sampleDetail(i);
    else if (state.view === "disagree") {
      const g = state.group && view.all.find((x) => x.key === state.group);
      kids = g ? groupDetail(g) : pairsDetail();
    } else {
      kids = [
        el("p", {
          class: "note",
          text: state.open
            ? "Sample " + state.open + " is not among the embedded rows."
            : "Pick a sample on the left (or press j / k) to see it in full.",
        }),
      ];
    }
    const shown = (i >= 0 ? state.open : "") + "/" + state.view + "/" +
      state.group;
    detail.dataset.key = i >= 0 ? state.open : "";
    detail.replaceChildren(...kids);
    if (detail.dataset.shown !== shown && detail.dataset.shown) {
      detail.scrollTop = 0;
    }
    detail.dataset.shown = shown;
  }

  // ---- keyboard: next / previous ----
  function move(d) {
    if (order.length === 0) return;
    let at;
    if (state.view === "list") {
      at = order.findIndex((i) => val("key", i) === state.open);
    } else {
      at = order.findIndex((g) => g.key === state.group);
    }
    const k = at < 0
      ? (d > 0 ? 0 : order.length - 1)
      : Math.max(0, Math.min(order.length - 1, at + d));
    if (state.view === "list") state.open = val("key", order[k]);
    else {
      state.group = order[k].key;
      state.open = "";
    }
    const y = k * ROW_H;
    if (y < scrollTop) scrollListTo(y);
    else if (y + ROW_H > scrollTop + viewH) scrollListTo(y + ROW_H - viewH);
    update();
  }
  document.addEventListener("keydown", (e) => {
    if (e.altKey || e.ctrlKey || e.metaKey) return;
    const t = e.target;
    if (t && /^(INPUT|SELECT|TEXTAREA)$/.test(t.tagName)) {
      if (e.key === "Escape") t.blur();
      return;
    }
    const inside = root.contains(t);
    if (e.key === "j" || (inside && e.key === "ArrowDown")) {
      e.preventDefault();
      move(1);
    } else if (e.key === "k" || (inside && e.key === "ArrowUp")) {
      e.preventDefault();
      move(-1);
    } else if (e.key === "/" && inside) {
      e.preventDefault();
      search.focus();
    }
  });
  addEventListener("hashchange", () => {
    const s = fromHash(location.hash);
    if (s) {
      state = s;
      draw();
    }
  });
  const first = fromHash(location.hash);
  if (first) state = first;
  draw();
  if (first) {
    root.scrollIntoView();
    if (state.open && state.view === "list") {
      const k = order.findIndex((i) => val("key", i) === state.open);
      if (k >= 0) {
        scrollListTo(Math.max(0, k * ROW_H - viewH / 2));
        drawRows();
      }
    }
  }
  root.dataset.ready = "true";
  // When the script began and how long it took (ms), for the page's tests.
  root.dataset.start = String(Math.round(started));
  root.dataset.ms = String(Math.round(performance.now() - started));
})();
