// The sample viewer's script, part 1 of 6: the data, a row's values, the state and its form in the URL fragment, small DOM helpers.
// html.ts joins the parts, in order, inside one function: they share
// its scope, so names defined here are used (and assigned) in the others.
// deno-lint-ignore-file no-unused-vars prefer-const

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
  return [...seen].sort((a, b) => a.localeCompare(b, "en", { numeric: true }));
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
