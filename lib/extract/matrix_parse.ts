/**
 * Finds matrices in text, in every form this project writes or reads:
 * LaTeX environments (`bmatrix`, `pmatrix`, `vmatrix`, `matrix`), nested
 * lists (`[[-3, 5], [1, 2]]`, a flat `[1, 2]` as a vector), visual tables
 * (`| -3   5 |` rows) and plain rows of numbers. Shared by the matrix
 * extractor, the LinAlg-Bench loader and the sim's linear-algebra skill.
 *
 * Written by hand: no library parses LaTeX matrices, and the table and row
 * forms are this project's own.
 *
 * @module
 */
import { formatRational, parseRational } from "../math/rational.ts";
import { normalizeChars } from "./_normalize.ts";

/** How a matrix was written. */
export type MatrixForm = "latex" | "list" | "table" | "rows";

/** A matrix found in text. */
export interface FoundMatrix {
  /** Rows of exact rational strings. */
  rows: string[][];
  /** How the matrix was written (LaTeX environment, nested list, rows of text). */
  form: MatrixForm;
  /** Character span in the text. */
  span: [number, number];
}

const ENTRY = String
  .raw`[-+]?\s*(?:\\[dt]?frac\s*\{\s*[-+]?\d+\s*\}\s*\{\s*\d+\s*\}|\d+(?:\.\d+)?(?:\s*/\s*\d+)?)`;
const ENTRY_RE = new RegExp(`^${ENTRY}$`);

/**
 * Parses one matrix entry (`-3`, `1/2`, `0.5`, `\frac{-1}{2}`, `-\dfrac{3}{4}`)
 * to a rational string, or null.
 */
export function parseEntry(raw: string): string | null {
  let text = normalizeChars(raw).replace(/\$/g, "").trim();
  text = text.replace(/^\{(.*)\}$/, "$1").trim();
  if (!ENTRY_RE.test(text)) return null;
  const neg = /^-/.test(text);
  text = text.replace(/^[-+]\s*/, "");
  const frac = /^\\[dt]?frac\s*\{\s*([-+]?\d+)\s*\}\s*\{\s*(\d+)\s*\}$/.exec(
    text,
  );
  const body = frac ? `${frac[1]}/${frac[2]}` : text.replace(/\s+/g, "");
  try {
    const value = parseRational(body);
    return formatRational(neg ? value.neg() : value);
  } catch {
    return null;
  }
}

function parseRowsWith(lines: string[], split: RegExp): string[][] | null {
  const rows: string[][] = [];
  for (const line of lines) {
    if (line.trim() === "") continue;
    const cells = line.split(split).map((c) => c.trim()).filter((c) =>
      c !== ""
    );
    const parsed = cells.map(parseEntry);
    if (parsed.length === 0 || parsed.some((v) => v === null)) return null;
    rows.push(parsed as string[]);
  }
  if (rows.length === 0) return null;
  const width = rows[0]!.length;
  return rows.every((r) => r.length === width) ? rows : null;
}

function latexMatrices(text: string): FoundMatrix[] {
  const out: FoundMatrix[] = [];
  const re =
    /\\begin\{([bpvBV]?matrix|array)\}(?:\{[^}]*\})?([\s\S]*?)\\end\{\1\}/g;
  for (const m of text.matchAll(re)) {
    const lines = m[2]!.split(/\\\\|\\cr\b/);
    const rows = parseRowsWith(lines, /&/);
    if (rows) {
      out.push({ rows, form: "latex", span: [m.index, m.index + m[0].length] });
    }
  }
  return out;
}

/** Index of the bracket closing the one at `start`, or -1. */
function closing(text: string, start: number): number {
  let depth = 0;
  for (let i = start; i < text.length; i++) {
    const ch = text[i];
    if (ch === "[") depth++;
    else if (ch === "]") {
      depth--;
      if (depth === 0) return i;
    } else if (!/[\d\s,.\-+/]/.test(ch!)) return -1;
  }
  return -1;
}

function listMatrices(text: string): FoundMatrix[] {
  const out: FoundMatrix[] = [];
  let i = 0;
  while (i < text.length) {
    const start = text.indexOf("[", i);
    if (start < 0) break;
    const end = closing(text, start);
    if (end < 0) {
      i = start + 1;
      continue;
    }
    const body = text.slice(start, end + 1);
    let rows: string[][] | null = null;
    if (/^\[\s*\[/.test(body)) {
      const inner = [...body.slice(1, -1).matchAll(/\[([^\[\]]*)\]/g)].map((
        m,
      ) => m[1]!);
      rows = parseRowsWith(inner, /,/);
    } else {
      const flat = parseRowsWith([body.slice(1, -1)], /,/);
      // A flat list of two or more numbers is a vector (one column).
      if (flat && flat[0]!.length >= 2 && body.includes(",")) {
        rows = flat[0]!.map((v) => [v]);
      }
    }
    if (rows) out.push({ rows, form: "list", span: [start, end + 1] });
    i = end + 1;
  }
  return out;
}

function lineBlocks(
  text: string,
  accept: (line: string) => boolean,
): { lines: string[]; span: [number, number] }[] {
  const blocks: { lines: string[]; span: [number, number] }[] = [];
  let pos = 0;
  let current: { lines: string[]; span: [number, number] } | null = null;
  for (const line of text.split("\n")) {
    const end = pos + line.length;
    if (accept(line)) {
      if (current) {
        current.lines.push(line);
        current.span[1] = end;
      } else current = { lines: [line], span: [pos, end] };
    } else if (current) {
      blocks.push(current);
      current = null;
    }
    pos = end + 1;
  }
  if (current) blocks.push(current);
  return blocks;
}

const TABLE_LINE = /^\s*\|.*\|\s*$/;
const TABLE_RULE = /^\s*\|?[\s:|-]+\|?\s*$/;

function tableMatrices(text: string): FoundMatrix[] {
  const out: FoundMatrix[] = [];
  for (const block of lineBlocks(text, (l) => TABLE_LINE.test(l))) {
    const lines = block.lines.filter((l) => !TABLE_RULE.test(l)).map((l) =>
      l.trim().replace(/^\|/, "").replace(/\|$/, "")
    );
    const rows = parseRowsWith(lines, /[\s|]+(?=[-+\d\\])/);
    if (rows) out.push({ rows, form: "table", span: block.span });
  }
  return out;
}

const PLAIN_ROW = new RegExp(
  String.raw`^\s*${ENTRY}(?:\s*[,\s&]\s*${ENTRY})+\s*$`,
);

function plainRows(text: string): FoundMatrix[] {
  const out: FoundMatrix[] = [];
  for (const block of lineBlocks(text, (l) => PLAIN_ROW.test(l))) {
    const rows = parseRowsWith(block.lines, /\s*[,&]\s*|\s+(?=[-+\d\\])/);
    if (rows) out.push({ rows, form: "rows", span: block.span });
  }
  return out;
}

/**
 * Every matrix in the text, in order of position (LaTeX, lists, tables;
 * plain rows of numbers only with `plainRows`). Overlapping finds keep the
 * first form found.
 */
export function findMatrices(
  text: string,
  options: { plainRows?: boolean } = {},
): FoundMatrix[] {
  const all = [
    ...latexMatrices(text),
    ...listMatrices(text),
    ...tableMatrices(text),
    ...(options.plainRows ? plainRows(text) : []),
  ];
  all.sort((a, b) => a.span[0] - b.span[0]);
  const out: FoundMatrix[] = [];
  for (const m of all) {
    const last = out[out.length - 1];
    if (last && m.span[0] < last.span[1]) continue;
    out.push(m);
  }
  return out;
}

/**
 * Matrices named in a problem statement (`A = …`, `B = …`, `x = …`), by
 * name. A name is the letter before `=` just ahead of the matrix.
 */
export function namedMatrices(text: string): Map<string, FoundMatrix> {
  const named = new Map<string, FoundMatrix>();
  for (const m of findMatrices(text)) {
    const before = text.slice(Math.max(0, m.span[0] - 40), m.span[0]);
    // A literal "\\n" (backslash, n) before the name counts as a line break.
    const label = /(?:^|[^A-Za-z\\]|\\n)([A-Za-z])\s*=\s*(?:\$\s*)?$/
      .exec(before);
    if (label && !named.has(label[1]!)) named.set(label[1]!, m);
  }
  return named;
}
