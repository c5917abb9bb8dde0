/**
 * Compound expressions: `ops` operations (+, -, ×) over `digits`-digit
 * operands, with parentheses only where precedence needs them.
 *
 * @module
 */
import { fraction } from "../../../math/rational.ts";
import type { Fraction } from "../../../math/rational.ts";
import type { Draft, Level } from "./_draft.ts";
import type { Rng } from "../../../math/rng.ts";

type Node = { kind: "num"; text: string } | {
  kind: "op";
  op: "+" | "-" | "×";
  left: Node;
  right: Node;
};

const PREC = { "+": 1, "-": 1, "×": 2 } as const;

/** A random tree with exactly `ops` operator nodes. */
function tree(rng: Rng, ops: number, digits: number): Node {
  if (ops === 0) return { kind: "num", text: rng.digits(rng.int(1, digits)) };
  const leftOps = rng.int(0, ops - 1);
  return {
    kind: "op",
    op: rng.pick(["+", "-", "×"] as const),
    left: tree(rng, leftOps, digits),
    right: tree(rng, ops - 1 - leftOps, digits),
  };
}

function render(node: Node): string {
  if (node.kind === "num") return node.text;
  const p = PREC[node.op];
  const wrap = (child: Node, right: boolean): string => {
    const s = render(child);
    if (child.kind === "num") return s;
    const c = PREC[child.op];
    return c < p || (right && c === p && node.op === "-") ? `(${s})` : s;
  };
  return `${wrap(node.left, false)} ${node.op} ${wrap(node.right, true)}`;
}

function value(node: Node): Fraction {
  if (node.kind === "num") return fraction(BigInt(node.text));
  const l = value(node.left), r = value(node.right);
  return node.op === "+" ? l.add(r) : node.op === "-" ? l.sub(r) : l.mul(r);
}

/** A compound expression. */
export function expression(rng: Rng, level: Level): Draft {
  const ops = level.ops ?? 2;
  const root = tree(rng, ops, level.digits);
  const text = render(root);
  return {
    text: { en: `What is ${text}?`, zh: `计算 ${text}。` },
    answer: value(root),
    dims: { ops, parentheses: text.includes("(") },
    payload: { op: "expr", expression: text },
  };
}
