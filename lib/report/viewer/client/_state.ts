/**
 * The viewer's state (view, filters, search, sort, the open sample or
 * group) and its form in the URL fragment (`#explore?…`). No DOM.
 *
 * @module
 */

/** The axes the disagreement view pairs over, with their plural names. */
export const AXES: Readonly<Record<string, string>> = {
  model: "models",
  template: "templates",
  run: "runs",
};

/** What the viewer shows. */
export interface ViewState {
  /** The samples list or the disagreement view. */
  view: "list" | "disagree";
  /** The axis the disagreement view pairs over (a key of {@linkcode AXES}). */
  by: string;
  /** Filters: column to wanted value ("" for all). */
  f: Record<string, string>;
  /** The search text. */
  q: string;
  /** Whether the search is a regular expression. */
  re: boolean;
  /** The sort column, `-` before it for descending; "" for row order. */
  sort: string;
  /** The open sample's key, or "". */
  open: string;
  /** The open disagreement group's key, or "". */
  group: string;
}

/**
 * The state of a fresh page.
 *
 * @param axes The axes on which the rows differ.
 * @returns The state.
 */
export function blankState(axes: readonly string[]): ViewState {
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

/**
 * The fragment that keeps a state (defaults left out).
 *
 * @param s The state.
 * @returns `#explore?…`.
 */
export function toHash(s: ViewState): string {
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

/**
 * The state a fragment keeps, or null when it is not the viewer's.
 *
 * @param h The fragment (`location.hash`).
 * @param axes The axes on which the rows differ (for the default axis).
 * @returns The state, or null.
 */
export function fromHash(h: string, axes: readonly string[]): ViewState | null {
  const s = blankState(axes);
  if (!h.startsWith("#explore")) return null;
  const p = new URLSearchParams(h.slice(h.indexOf("?") + 1));
  for (const [k, v] of p) {
    if (k.startsWith("f.")) s.f[k.slice(2)] = v;
    else if (k === "view" && (v === "list" || v === "disagree")) s.view = v;
    else if (k === "by" && Object.hasOwn(AXES, v)) s.by = v;
    else if (k === "q") s.q = v;
    else if (k === "re") s.re = v === "1";
    else if (k === "sort") s.sort = v;
    else if (k === "open") s.open = v;
    else if (k === "group") s.group = v;
  }
  return s;
}
