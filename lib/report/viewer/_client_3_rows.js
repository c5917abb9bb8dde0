// The sample viewer's script, part 3 of 6: filtering, search, sort, the list's columns and the disagreement groups.
// html.ts joins the parts, in order, inside one function: they share
// its scope, so names defined here are used in the other parts.
// deno-lint-ignore-file no-unused-vars

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
const dimsOf = (name) => (suites.find((s) => s.name === name) || {}).dims || [];
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
