/**
 * Which rows the viewer lists and how: filters, search, sort, the list's
 * columns and the disagreement groups. No DOM.
 *
 * @module
 */
import type { PayloadCell } from "../payload.ts";
import type { ViewState } from "./_state.ts";
import type { Table } from "./_table.ts";

/** The text fields the search reads. */
const SEARCHED = ["question", "response", "explanation", "reasoning"];

/** The fields that make one question's answers one group, with the axis. */
export const GROUP_FIELDS = [
  "run",
  "suite",
  "model",
  "question_id",
  "template",
  "sample",
];

/** A list column: field, heading, CSS grid width. */
export type Column = [col: string, label: string, width: string];

/** One question answered along the paired axis. */
export interface Group {
  /** The other group fields' values joined by `|`. */
  key: string;
  /** The group's first row. */
  first: number;
  /** Axis value to that member's row. */
  members: Map<string, number>;
}

/** The groups answered by two or more, and those whose verdicts differ. */
export interface Groups {
  /** Every group with two or more members. */
  all: Group[];
  /** Those with both a correct and a not correct member. */
  differ: Group[];
}

/** The rows that pass the state's filters and search. */
export interface Filtered {
  /** Row indices, in row order. */
  idx: number[];
  /** Why the search matched nothing ("" when it is valid). */
  error: string;
}

/** The search as a row test (null for no search), or why it is invalid. */
function matcher(
  t: Table,
  s: ViewState,
): { test: ((i: number) => boolean) | null; error: string } {
  if (!s.q) return { test: null, error: "" };
  const S = t.data.S;
  if (s.re) {
    try {
      const re = new RegExp(s.q, "i");
      return {
        test: (i) =>
          SEARCHED.some((c) => {
            const x = t.sidx(c, i);
            return x >= 0 && re.test(S[x] ?? "");
          }),
        error: "",
      };
    } catch (e) {
      return {
        test: () => false,
        error: "not a regular expression: " + (e as Error).message,
      };
    }
  }
  const term = s.q.toLowerCase();
  return {
    test: (i) =>
      SEARCHED.some((c) => {
        const x = t.sidx(c, i);
        return x >= 0 && t.lower(x).includes(term);
      }),
    error: "",
  };
}

/**
 * The rows that pass the filters and the search.
 *
 * @param t The rows.
 * @param s The state.
 * @param ignoreStatus Leave the status filter out (the disagreement view).
 * @returns The rows and the search's error.
 */
export function filtered(
  t: Table,
  s: ViewState,
  ignoreStatus: boolean,
): Filtered {
  const want = Object.entries(s.f).filter(([k, v]) =>
    v !== "" && t.data.C[k] && !(ignoreStatus && k === "status")
  );
  const m = matcher(t, s);
  const idx = [];
  for (let i = 0; i < t.n; i++) {
    let ok = true;
    for (const [k, v] of want) {
      const x = t.val(k, i);
      if (k === "status" && v === "!correct") ok = x !== "correct";
      else ok = x !== null && String(x) === v;
      if (!ok) break;
    }
    if (ok && m.test && !m.test(i)) ok = false;
    if (ok) idx.push(i);
  }
  return { idx, error: m.error };
}

/** What a column sorts by, and shows. */
export function cellText(t: Table, col: string, i: number): PayloadCell {
  if (col === "tokens") {
    return (Number(t.val("prompt_tokens", i)) || 0) +
      (Number(t.val("completion_tokens", i)) || 0);
  }
  if (col === "dims") return t.dimsText(i);
  return t.val(col, i);
}

/**
 * Rows sorted by a column (`-col` descending; nulls last; ties in row
 * order).
 *
 * @param t The rows.
 * @param idx The rows to sort.
 * @param sort The state's sort ("" keeps `idx`).
 * @returns The sorted rows.
 */
export function sorted(t: Table, idx: number[], sort: string): number[] {
  if (!sort) return idx;
  const desc = sort.startsWith("-");
  const col = desc ? sort.slice(1) : sort;
  const keys = new Map(idx.map((i) => [i, cellText(t, col, i)]));
  return idx.slice().sort((a, b) => {
    const x = keys.get(a) ?? null, y = keys.get(b) ?? null;
    if (x === y) return a - b;
    if (x === null) return 1;
    if (y === null) return -1;
    const c = typeof x === "number" && typeof y === "number"
      ? x - y
      : String(x).localeCompare(String(y), "en", { numeric: true });
    return desc ? -c : c;
  });
}

/** What the list's columns depend on beyond the state. */
export interface Shape {
  /** The runs present. */
  runs: string[];
  /** The suites present. */
  suiteNames: string[];
}

/**
 * The samples list's columns: a suite's dims each in a column when one
 * suite is shown, else all dims in one.
 */
export function columns(t: Table, s: ViewState, shape: Shape): Column[] {
  const cols: Column[] = [];
  if (shape.runs.length > 1) cols.push(["run", "run", "8rem"]);
  const one = s.f.suite ||
    (shape.suiteNames.length === 1 ? shape.suiteNames[0]! : "");
  if (!one) cols.push(["suite", "suite", "6rem"]);
  cols.push(
    ["model", "model", "9rem"],
    ["question_id", "question", "minmax(12rem,2fr)"],
    ["template", "template", "7rem"],
    ["sample", "sample", "3.5rem"],
    ["status", "status", "6rem"],
  );
  if (one) {
    for (const d of t.dimsOf(one)) {
      cols.push([d.col, d.name, "minmax(4rem,1fr)"]);
    }
  } else cols.push(["dims", "dims", "minmax(10rem,2fr)"]);
  cols.push(["tokens", "tokens", "4.5rem"], ["latency_ms", "ms", "4.5rem"]);
  return cols;
}

/**
 * The disagreement list's columns: the group fields other than the axis,
 * then one per member (`m:<member>`).
 */
export function groupColumns(
  s: ViewState,
  shape: Shape,
  members: readonly string[],
): Column[] {
  const cols: Column[] = [];
  if (!s.f.suite && shape.suiteNames.length > 1) {
    cols.push(["suite", "suite", "6rem"]);
  }
  if (s.by !== "run" && shape.runs.length > 1) {
    cols.push(["run", "run", "8rem"]);
  }
  cols.push(["question_id", "question", "minmax(12rem,2fr)"]);
  if (s.by !== "model") cols.push(["model", "model", "9rem"]);
  if (s.by !== "template") cols.push(["template", "template", "7rem"]);
  cols.push(["sample", "sample", "3.5rem"]);
  for (const m of members) cols.push(["m:" + m, m, "minmax(3rem,1fr)"]);
  return cols;
}

/**
 * The rows grouped by everything but the axis `by`: the groups answered
 * by two or more, and those whose verdicts differ.
 */
export function groups(t: Table, idx: readonly number[], by: string): Groups {
  const map = new Map<string, Group>();
  for (const i of idx) {
    const g = GROUP_FIELDS.filter((f) => f !== by).map((f) => t.val(f, i))
      .join("|");
    let e = map.get(g);
    if (!e) map.set(g, e = { key: g, first: i, members: new Map() });
    const m = String(t.val(by, i));
    if (!e.members.has(m)) e.members.set(m, i);
  }
  const all = [...map.values()].filter((g) => g.members.size > 1);
  const differ = all.filter((g) => {
    const c = [...g.members.values()].map((i) =>
      t.val("status", i) === "correct"
    );
    return c.some(Boolean) && !c.every(Boolean);
  });
  return { all, differ };
}
