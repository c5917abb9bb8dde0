/// <reference lib="dom" />
/// <reference lib="dom.iterable" />
/**
 * What the viewer's parts share while the page is open: the rows, the
 * state, what the list shows now and its scroll position. One object,
 * made by `main.ts` and passed to each part.
 *
 * @module
 */
import type { Group, Groups, Shape } from "./_query.ts";
import type { ViewState } from "./_state.ts";
import type { Table } from "./_table.ts";

/** The height of one list row (px); the windowed list relies on it. */
export const ROW_H = 26;

/** The viewer's shared, mutable state. */
export interface Viewer {
  /** The `#viewer` element. */
  readonly root: HTMLElement;
  /** The embedded rows. */
  readonly table: Table;
  /** The runs and suites present. */
  readonly shape: Shape;
  /** The axes on which the rows differ (model, template, run). */
  readonly axes: string[];
  /** What is shown; replaced whole on reset and on a new fragment. */
  state: ViewState;
  /** The samples list's rows, in order (list view). */
  order: number[];
  /** The groups listed (disagreement view). */
  groupOrder: Group[];
  /** The disagreement view's groups. */
  groups: Groups;
  /** The members seen along the axis (disagreement view). */
  members: string[];
  /** The list's scroll position (px), read on scroll only. */
  scrollTop: number;
  /** The list's visible height (px), read on scroll only. */
  viewH: number;
  /** Keeps the state in the fragment and redraws. */
  update(): void;
  /** Opens a sample by key. */
  open(key: string): void;
}

/** How many rows the list shows in the current view. */
export function listed(v: Viewer): number {
  return v.state.view === "list" ? v.order.length : v.groupOrder.length;
}
