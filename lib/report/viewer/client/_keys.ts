/// <reference lib="dom" />
/// <reference lib="dom.iterable" />
/**
 * Keyboard navigation: j / k (↓ / ↑ inside the viewer) for the next and
 * previous sample or group, / to search, Escape to leave a field.
 *
 * @module
 */
import type { Controls } from "./_controls.ts";
import { scrollListTo } from "./_list.ts";
import { listed, ROW_H, type Viewer } from "./_viewer.ts";

/** Opens the sample or group `d` places on, scrolling it into view. */
function move(v: Viewer, ui: Controls, d: number): void {
  const n = listed(v);
  if (n === 0) return;
  const list = v.state.view === "list";
  const at = list
    ? v.order.findIndex((i) => v.table.val("key", i) === v.state.open)
    : v.groupOrder.findIndex((g) => g.key === v.state.group);
  const k = at < 0 ? (d > 0 ? 0 : n - 1) : Math.max(0, Math.min(n - 1, at + d));
  if (list) v.state.open = String(v.table.val("key", v.order[k]!));
  else {
    v.state.group = v.groupOrder[k]!.key;
    v.state.open = "";
  }
  const y = k * ROW_H;
  if (y < v.scrollTop) scrollListTo(v, ui, y);
  else if (y + ROW_H > v.scrollTop + v.viewH) {
    scrollListTo(v, ui, y + ROW_H - v.viewH);
  }
  v.update();
}

/** Listens for the viewer's keys on the document. */
export function listenKeys(v: Viewer, ui: Controls): void {
  document.addEventListener("keydown", (e) => {
    if (e.altKey || e.ctrlKey || e.metaKey) return;
    const t = e.target instanceof Element ? e.target : null;
    if (t && /^(INPUT|SELECT|TEXTAREA)$/.test(t.tagName)) {
      if (e.key === "Escape" && t instanceof HTMLElement) t.blur();
      return;
    }
    const inside = v.root.contains(t);
    if (e.key === "j" || (inside && e.key === "ArrowDown")) {
      e.preventDefault();
      move(v, ui, 1);
    } else if (e.key === "k" || (inside && e.key === "ArrowUp")) {
      e.preventDefault();
      move(v, ui, -1);
    } else if (e.key === "/" && inside) {
      e.preventDefault();
      ui.search.focus();
    }
  });
}
