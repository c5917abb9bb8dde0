/**
 * The embedded rows as the page reads them: a row's value of a column,
 * a column's distinct values, a suite's dims. No DOM.
 *
 * @module
 */
import type {
  PayloadCell,
  PayloadDim,
  PayloadSuite,
  ViewerPayload,
} from "../payload.ts";

/** Read access to the packed rows. */
export interface Table {
  /** The payload as embedded. */
  readonly data: ViewerPayload;
  /** Rows embedded. */
  readonly n: number;
  /** The suites present, with their dims. */
  readonly suites: PayloadSuite[];
  /** A row's value of a column: text, number, boolean or null. */
  val(col: string, i: number): PayloadCell;
  /** A row's index into `S` in an interned column (-1 for none). */
  sidx(col: string, i: number): number;
  /** A string of `S`, lower-cased once. */
  lower(x: number): string;
  /** A column's distinct values as text, in natural order. */
  distinct(col: string): string[];
  /** The dims of the suite so named (none for an unknown suite). */
  dimsOf(name: PayloadCell): PayloadDim[];
  /** A row's dims as `name=value` words. */
  dimsText(i: number): string;
  /** The row whose key is `key`, or -1. */
  indexOfKey(key: string): number;
}

/** Text in natural order (`a2` before `a10`). */
export const natural = (a: string, b: string): number =>
  a.localeCompare(b, "en", { numeric: true });

/**
 * Opens the payload for reading.
 *
 * @param data What `viewerRows` packed.
 * @returns The rows' accessors.
 */
export function openTable(data: ViewerPayload): Table {
  const { S, C, n: N } = data;
  const interned = new Set(data.I);
  const val = (col: string, i: number): PayloadCell => {
    const a = C[col];
    if (!a) return null;
    const x = a[i];
    if (interned.has(col)) {
      return x === null || x === undefined || (x as number) < 0
        ? null
        : S[x as number] ?? null;
    }
    return x === undefined ? null : x;
  };
  const sidx = (col: string, i: number): number =>
    C[col] ? (C[col][i] as number) : -1;
  const low = new Map<number, string>();
  const lower = (x: number): string => {
    let s = low.get(x);
    if (s === undefined) low.set(x, s = (S[x] ?? "").toLowerCase());
    return s;
  };
  const distinct = (col: string): string[] => {
    const seen = new Set<string>();
    for (let i = 0; i < N; i++) {
      const v = val(col, i);
      if (v !== null) seen.add(String(v));
    }
    return [...seen].sort(natural);
  };
  const dimsOf = (name: PayloadCell): PayloadDim[] =>
    data.suites.find((s) => s.name === name)?.dims ?? [];
  const dimsText = (i: number): string =>
    dimsOf(val("suite", i)).map((d) => {
      const v = val(d.col, i);
      return v === null ? null : d.name + "=" + v;
    }).filter(Boolean).join(" ");
  const indexOfKey = (key: string): number => {
    const x = S.indexOf(key);
    return x < 0 || !C.key ? -1 : C.key.indexOf(x);
  };
  return {
    data,
    n: N,
    suites: data.suites,
    val,
    sidx,
    lower,
    distinct,
    dimsOf,
    dimsText,
    indexOfKey,
  };
}
