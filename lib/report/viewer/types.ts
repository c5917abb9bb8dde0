/**
 * The contract between the sample viewer and the suites: the row a suite's
 * `detail` hook receives and the parts it returns, which the generic
 * viewer draws without knowing the suite.
 *
 * @module
 */
import type { DimSpec, DimValue } from "../../types.ts";

/** A scalar a detail part shows. */
export type DetailValue = string | number | boolean | null;

/** Labelled values (e.g. "sandbox status: timeout"). */
export interface DetailFields {
  /** Which kind of part. */
  kind: "fields";
  /** The part's heading. */
  title: string;
  /** Label and value pairs, in order. */
  fields: [string, DetailValue][];
}

/** A block of text shown whole; `code` keeps it monospaced and unwrapped. */
export interface DetailText {
  /** Which kind of part. */
  kind: "text";
  /** The part's heading. */
  title: string;
  /** The text. */
  text: string;
  /** Monospaced and unwrapped (code, matrices, stderr). @default false */
  code?: boolean;
}

/** A small table (a matrix, a list of tests). */
export interface DetailTable {
  /** Which kind of part. */
  kind: "table";
  /** The part's heading. */
  title: string;
  /** Column headings (may be empty for a bare matrix). */
  columns: string[];
  /** The cells, row by row. */
  rows: DetailValue[][];
  /** Cells monospaced. @default false */
  code?: boolean;
}

/** One part of a sample's suite-specific detail. */
export type DetailPart = DetailFields | DetailText | DetailTable;

/** What a suite's `detail` hook returns for one row. */
export interface SampleDetail {
  /** The parts, drawn in order under the suite's name. */
  parts: DetailPart[];
  /**
   * The extracted answer's span in `response` (`[start, end)`, UTF-16
   * offsets), highlighted in the reply; without it the viewer marks the
   * last occurrence of the extracted text.
   */
  span?: [number, number];
}

/**
 * One result row as the detail hook sees it: the row's fields (as in
 * `ResultRow`; absent or null when not stored) with this suite's dims and
 * metrics gathered back into objects.
 */
export interface SampleRow {
  /** Any `ResultRow` field (`question`, `response`, `expected`, ...). */
  readonly [field: string]: unknown;
  /** This suite's dims of the row. */
  readonly dims: Readonly<Record<string, DimValue>>;
  /** This suite's per-row metrics (names without a `metric_` prefix). */
  readonly metrics: Readonly<Record<string, DimValue>>;
}

/** A suite as the viewer sees it: its name, dims and optional detail hook. */
export interface ViewerSuite {
  /** The suite's registry name. */
  name: string;
  /** Its declared dims (the viewer offers one filter per dim). */
  dims: readonly DimSpec[];
  /** What the viewer shows of one row beyond the generic fields. */
  detail?(row: SampleRow): SampleDetail | Promise<SampleDetail>;
}
