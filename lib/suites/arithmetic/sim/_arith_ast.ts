/**
 * The arithmetic skill's expression tree, and how it is written back out.
 *
 * @module
 */
import { exact, type Fraction } from "../../../providers/sim/numbers.ts";

/** A binary operator. */
export type Op = "+" | "-" | "*" | "/" | "^";

/** An expression tree node. */
export type Node =
  | { t: "num"; v: Fraction; src: string }
  | { t: "bin"; op: Op; l: Node; r: Node }
  | { t: "neg"; e: Node };

/** A parsed arithmetic question. */
export interface ArithTask {
  expr: Node;
  /** The question wrote fractions like `3/4`: answer with a fraction. */
  fractions: boolean;
  /** How it was recognised. */
  source: "expression" | "percent" | "ratio" | "word_problem";
}

/** A number node from its written form. */
export const num = (src: string): Node => ({ t: "num", v: exact(src), src });

/** A binary node. */
export const bin = (op: Op, l: Node, r: Node): Node => ({ t: "bin", op, l, r });

const PREC = { "+": 1, "-": 1, "*": 2, "/": 2, "^": 3 } as const;

/**
 * Writes an expression: ASCII (`"(12+7)*3-4"`, for a calculator) or for
 * reading (`"(12 + 7) × 3 − 4"`); `slash` keeps number/number as `3/4`.
 */
export function writeExpr(
  node: Node,
  ascii: boolean,
  parent = 0,
  right = false,
  slash = false,
): string {
  switch (node.t) {
    case "num":
      return node.src;
    case "neg": {
      const inner = writeExpr(node.e, ascii, 4, false, slash);
      return parent > 0 ? `(-${inner})` : `-${inner}`;
    }
    case "bin": {
      const p = PREC[node.op];
      const l = writeExpr(node.l, ascii, p, false, slash);
      const r = writeExpr(node.r, ascii, p, true, slash);
      const sym = ascii
        ? node.op
        : ({ "+": "+", "-": "−", "*": "×", "/": "÷", "^": "^" } as const)[
          node.op
        ];
      // Fractions like 3/4 read better unspaced with a slash.
      const body = ascii || (slash && node.op === "/" && node.l.t === "num" &&
          node.r.t === "num")
        ? `${l}${ascii ? sym : "/"}${r}`
        : `${l} ${sym} ${r}`;
      const wrap = p < parent || (p === parent && right && node.op !== "^") ||
        (p === parent && !right && node.op === "^");
      return wrap ? `(${body})` : body;
    }
  }
}
