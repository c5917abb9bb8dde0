/**
 * Reads an arithmetic question out of prompt text: digits with
 * `+ - * × x ÷ /`, words ("plus", "times", "乘以"...), parentheses,
 * decimals, fractions, percentages and thousands separators.
 *
 * Written by hand rather than with mathjs' parser: the expression has to
 * be found inside prose first, natural-language operators and Chinese need
 * rewriting, and each operation must stay visible (the sim errs per
 * operation); mathjs' `parse` is also ~20× slower than this for short text.
 *
 * @module
 */
import { type ArithTask, bin, type Node, num, type Op } from "./_arith_ast.ts";
import { patternTask } from "./_word_problems.ts";

export type { ArithTask, Node, Op };
export { writeExpr } from "./_arith_ast.ts";

const SYMBOLS: Record<string, string> = {
  "（": "(",
  "）": ")",
  "＋": "+",
  "−": "-",
  "–": "-",
  "—": "-",
  "－": "-",
  "×": "*",
  "✕": "*",
  "∗": "*",
  "·": "*",
  "＊": "*",
  "÷": "/",
  "／": "/",
  "％": "%",
  "\\times": "*",
  "\\div": "/",
  "\\cdot": "*",
};
const SYMBOL_RE =
  /[（）＋−–—－×✕∗·＊÷／％]|\\times|\\div|\\cdot|[０-９]|的\s*(\d+)\s*次方/g;
const SEPARATED = /\d{1,3}(?:[,\u2009\u202f_]\d{3})+(?!\d)/g;
const WORD_OPS: Record<string, string> = {
  "multiplied by": "*",
  times: "*",
  乘以: "*",
  乘: "*",
  x: "*",
  "divided by": "/",
  除以: "/",
  over: "/",
  plus: "+",
  加上: "+",
  加: "+",
  minus: "-",
  减去: "-",
  减: "-",
  "to the power of": "^",
};
// Operator words only between operands: "3 plus 4", not "plus" in prose.
const WORD_RE =
  /(\d|\))\s*(multiplied by|times|乘以|乘|x|divided by|除以|over|plus|加上|加|minus|减去|减|to the power of)\s*(?=[\d(]|-\d)/gi;
const SQUARED_RE = /(\d|\))\s*squared\b/gi;

/**
 * Rewrites symbols, separators and operator words into ASCII. One pass
 * per kind with a lookup table: simChat must stay well under 50 µs.
 */
export function normalize(text: string): string {
  let s = text.replace(SYMBOL_RE, (m, power?: string) => {
    if (power !== undefined) return `^${power}`;
    const c = m.charCodeAt(0);
    if (c >= 0xff10 && c <= 0xff19) return String.fromCharCode(c - 0xfee0);
    return SYMBOLS[m] ?? m;
  });
  s = s.replace(SEPARATED, (m) => m.replace(/[,\u2009\u202f_]/g, ""));
  s = s.replace(
    WORD_RE,
    (_m, before: string, word: string) =>
      `${before} ${WORD_OPS[word.toLowerCase()] ?? word} `,
  );
  return s.replace(SQUARED_RE, "$1^2");
}

// Compiled once: simChat must stay well under 50 µs.
const isDigit = (ch: string | undefined): boolean =>
  ch !== undefined && ch >= "0" && ch <= "9";

/** Recursive-descent parser over the normalised candidate text. */
class Parser {
  private i = 0;
  constructor(private readonly s: string) {}

  parse(): Node | null {
    const node = this.sum();
    this.ws();
    return node && this.i === this.s.length ? node : null;
  }

  private ws(): void {
    while (this.s[this.i] === " ") this.i++;
  }

  private sum(): Node | null {
    let left = this.product();
    for (;;) {
      if (!left) return null;
      this.ws();
      const op = this.s[this.i];
      if (op !== "+" && op !== "-") return left;
      this.i++;
      const right = this.product();
      if (!right) return null;
      left = bin(op, left, right);
    }
  }

  private product(): Node | null {
    let left = this.unary();
    for (;;) {
      if (!left) return null;
      this.ws();
      const op = this.s[this.i];
      if (op !== "*" && op !== "/") return left;
      this.i++;
      const right = this.unary();
      if (!right) return null;
      left = bin(op, left, right);
    }
  }

  private unary(): Node | null {
    this.ws();
    if (this.s[this.i] === "-") {
      this.i++;
      const e = this.unary();
      return e && { t: "neg", e };
    }
    if (this.s[this.i] === "+") {
      this.i++;
      return this.unary();
    }
    return this.power();
  }

  private power(): Node | null {
    const base = this.atom();
    this.ws();
    if (!base || this.s[this.i] !== "^") return base;
    this.i++;
    const exp = this.unary();
    return exp && bin("^", base, exp);
  }

  private atom(): Node | null {
    this.ws();
    if (this.s[this.i] === "(") {
      this.i++;
      const inner = this.sum();
      this.ws();
      if (!inner || this.s[this.i] !== ")") return null;
      this.i++;
      return this.percent(inner);
    }
    // Digits, then an optional ".digits" (a trailing "." is not a number).
    const start = this.i;
    while (isDigit(this.s[this.i])) this.i++;
    if (this.i === start) return null;
    if (this.s[this.i] === "." && isDigit(this.s[this.i + 1])) {
      this.i++;
      while (isDigit(this.s[this.i])) this.i++;
    }
    return this.percent(num(this.s.slice(start, this.i)));
  }

  private percent(node: Node): Node {
    this.ws();
    if (this.s[this.i] !== "%") return node;
    this.i++;
    return bin("/", node, num("100"));
  }
}

function countOps(s: string): number {
  return (s.match(/(?<=[\d)%]\s*)[-+*/^]/g) ?? []).length;
}

const EXPR_CHARS = new Set("0123456789. +-*/()^%");

/** Maximal runs of expression characters that hold a digit. */
function candidates(s: string): string[] {
  const out: string[] = [];
  let start = -1, digit = false;
  for (let i = 0; i <= s.length; i++) {
    const ch = s[i];
    if (ch !== undefined && EXPR_CHARS.has(ch)) {
      if (start < 0) start = i;
      if (ch >= "0" && ch <= "9") digit = true;
      continue;
    }
    if (start >= 0 && digit) out.push(s.slice(start, i));
    start = -1;
    digit = false;
  }
  return out;
}

function expressionTask(s: string): ArithTask | null {
  let best: string | null = null;
  for (const raw of candidates(s)) {
    let c = raw.replace(/^[\s.+*/^)%]+|[\s.+\-*/^(]+$/g, "");
    // Drop unmatched parentheses at the ends.
    while (
      c.startsWith("(") &&
      c.split("(").length > c.split(")").length
    ) {
      c = c.slice(1).trim();
    }
    while (
      c.endsWith(")") &&
      c.split(")").length > c.split("(").length
    ) {
      c = c.slice(0, -1).trim();
    }
    // The last run with an operator is the question: examples and
    // context come before it, instructions after it carry no operators.
    if (countOps(c) >= 1) best = c;
  }
  if (!best) return null;
  const expr = new Parser(best).parse();
  if (!expr) return null;
  return { expr, fractions: /\d\/\d/.test(best), source: "expression" };
}

/**
 * Finds the arithmetic question in a prompt's text.
 *
 * @param text The user message.
 * @returns The task, or null when no arithmetic is recognised.
 */
export function parseArithmetic(text: string): ArithTask | null {
  const s = normalize(text);
  return patternTask(s) ?? expressionTask(s);
}

/** All numbers written in the text (after normalising), for guesses. */
export function numbersIn(text: string): string[] {
  return normalize(text).match(/\d+(?:\.\d+)?/g) ?? [];
}
