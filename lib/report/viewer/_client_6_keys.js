// The sample viewer's script, part 6 of 6: keyboard navigation and start-up.
// html.ts joins the parts, in order, inside one function: they share
// its scope, so names defined here are used in the other parts.

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
