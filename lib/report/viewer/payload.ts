/**
 * The data the sample viewer embeds in the page, as `viewerRows` writes it
 * and the page's script (`client/`) reads it: one type module both import,
 * so the two cannot drift apart.
 *
 * @module
 */
import type { DimValue } from "../../types.ts";

/** A stored cell: an index into `S` in an interned column, else the value. */
export type PayloadCell = DimValue;

/** One of a suite's dims as a viewer column. */
export interface PayloadDim {
  /** The column in `C`: `d:<suite>:<dim>`. */
  col: string;
  /** The dim's name. */
  name: string;
  /** Its human label (the filter's label). */
  label: string;
}

/** A suite present in the embedded rows, with its dims. */
export interface PayloadSuite {
  /** The suite's registry name. */
  name: string;
  /** Its dims that have a column. */
  dims: PayloadDim[];
}

/**
 * The packed rows: every distinct string once in `S`, columns in `C`
 * (the columns named in `I` hold indices into `S`, -1 for none; a column
 * absent from `C` is null on every row).
 */
export interface ViewerPayload {
  /** Rows embedded. */
  n: number;
  /** Rows in the frame. */
  total: number;
  /** The distinct strings. */
  S: string[];
  /** The interned columns (their cells index `S`). */
  I: string[];
  /** The columns, one cell per embedded row. */
  C: Record<string, PayloadCell[]>;
  /** Per row, its suite detail parts: indices into `S` of `DetailPart` JSON. */
  detail: number[][];
  /** The extracted answer's span in the reply, by row index, when known. */
  spans: Record<number, [number, number]>;
  /** The suites present in the rows, with their dims. */
  suites: PayloadSuite[];
}
