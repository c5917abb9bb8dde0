/**
 * Private helpers of the arithmetic analysis: row accessors. (The column
 * check is the generic `requireColumns` of lib/report/columns.ts.)
 *
 * @module
 */
export type Row = Record<string, unknown>;

export const str = (c: string) => (d: Row) => String(d[c]);
