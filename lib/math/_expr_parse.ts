/**
 * Evaluates the plain arithmetic an eigenvalue is rewritten to (numbers,
 * `+ - * /`, parentheses, `sqrt(…)`) in floating point, with the same
 * grammar and the same order of operations as mathjs' `evaluate` on such
 * text, so a value is the same double mathjs gives.
 *
 * Written by hand rather than calling mathjs: importing mathjs builds its
 * whole function set (about 0.3 s and 60 MB), and extraction runs in every
 * sweep. The port follows mathjs 15's parser (`parse.js`): implicit
 * multiplication (`2sqrt(3)`, `(1)(2)`), its "rule 2" (`1/2sqrt(3)` is
 * `(1/2)·sqrt(3)`), unary signs, `.*` and `./`, and its whitespace and
 * newline handling. Anything mathjs would reject, or would not turn into a
 * real number (a negative square root is complex there), gives null. A
 * test compares it with mathjs on random expressions.
 *
 * @module
 */

type Tok =
  | { t: "num"; v: number }
  | { t: "sym"; v: string }
  | { t: "op"; v: string }
  | { t: "nl" }
  | { t: "end" };

/** A parsed node: constants, unary and binary operators, groups, calls. */
type Node =
  | { k: "const"; v: number }
  | { k: "unary"; op: string; a: Node }
  | { k: "bin"; op: string; a: Node; b: Node }
  | { k: "paren"; a: Node }
  | { k: "call"; name: string; args: Node[] }
  | { k: "sym"; name: string };

class Reject extends Error {}

const isDigit = (c: string) => c >= "0" && c <= "9";
const isAlpha = (c: string) => /^[a-zA-Z_$\u00C0-\u02AF]$/.test(c);

/** mathjs' tokenizer, for the characters this grammar allows. */
function tokenize(text: string): Tok[] {
  const out: Tok[] = [];
  let i = 0, depth = 0;
  const at = (k: number) => text.charAt(k);
  const isDecimalMark = (c: string, next: string) =>
    c === "." && next !== "/" && next !== "*" && next !== "^";
  while (true) {
    while (true) {
      const c = at(i);
      if (
        c === " " || c === "\t" || c === "\u00A0" || (c === "\n" && depth > 0)
      ) {
        i++;
      } else break;
    }
    const c = at(i);
    if (c === "") break;
    if (c === "\n") {
      out.push({ t: "nl" });
      i++;
      continue;
    }
    const c2 = text.slice(i, i + 2);
    if (c2 === ".*" || c2 === "./") {
      out.push({ t: "op", v: c2 }); // dotMultiply, dotDivide: no "rule 2"
      i += 2;
      continue;
    }
    if ("+-*/".includes(c)) {
      out.push({ t: "op", v: c });
      i++;
      continue;
    }
    if (c === "(" || c === ")") {
      depth += c === "(" ? 1 : -1;
      out.push({ t: "op", v: c });
      i++;
      continue;
    }
    if (isDigit(c) || c === ".") {
      let s = "";
      if (c === ".") {
        s += c;
        i++;
        if (!isDigit(at(i))) throw new Reject(); // a bare "." delimiter
      } else {
        while (isDigit(at(i))) s += at(i++);
        if (isDecimalMark(at(i), at(i + 1))) s += at(i++);
      }
      while (isDigit(at(i))) s += at(i++);
      if (at(i) === "e" || at(i) === "E") throw new Reject();
      out.push({ t: "num", v: Number(s) });
      continue;
    }
    if (isAlpha(c)) {
      let s = "";
      while (isAlpha(at(i)) || isDigit(at(i))) s += at(i++);
      out.push({ t: "sym", v: s });
      continue;
    }
    throw new Reject();
  }
  out.push({ t: "end" });
  return out;
}

/** mathjs' recursive descent, cut down to this grammar. */
function parse(tokens: Tok[]): Node {
  let pos = 0;
  const tok = () => tokens[pos]!;
  const isOp = (v: string) => {
    const t = tok();
    return t.t === "op" && t.v === v;
  };
  // getTokenSkipNewline: after an operator, newlines are skipped.
  const advanceSkipNl = () => {
    pos++;
    while (tok().t === "nl") pos++;
  };
  const isConst = (n: Node) => n.k === "const";
  const rule2Node = (n: Node) =>
    isConst(n) || (n.k === "unary" && isConst(n.a));

  function addSub(): Node {
    let node = mulDiv();
    while (isOp("+") || isOp("-")) {
      const op = (tok() as { v: string }).v;
      advanceSkipNl();
      node = { k: "bin", op, a: node, b: mulDiv() };
    }
    return node;
  }
  function mulDiv(): Node {
    let node = implicit();
    while (isOp("*") || isOp("/") || isOp(".*") || isOp("./")) {
      const op = (tok() as { v: string }).v;
      advanceSkipNl();
      node = { k: "bin", op, a: node, b: implicit() };
    }
    return node;
  }
  function implicit(): Node {
    let node = rule2();
    let last = node;
    while (true) {
      const t = tok();
      if (
        t.t === "sym" ||
        (t.t === "num" && !isConst(last) && last.k !== "unary" &&
          last.k !== "bin") ||
        isOp("(")
      ) {
        last = rule2();
        node = { k: "bin", op: "*", a: node, b: last };
      } else break;
    }
    return node;
  }
  function rule2(): Node {
    let node = unary();
    let last = node;
    while (isOp("/") && rule2Node(last)) {
      const saved = pos;
      advanceSkipNl();
      if (tok().t === "num") {
        const afterSlash = pos;
        advanceSkipNl();
        const t = tok();
        if (t.t === "sym" || isOp("(")) {
          pos = afterSlash;
          last = unary();
          node = { k: "bin", op: "/", a: node, b: last };
          continue;
        }
      }
      pos = saved;
      break;
    }
    return node;
  }
  function unary(): Node {
    if (isOp("-") || isOp("+")) {
      const op = (tok() as { v: string }).v;
      advanceSkipNl();
      return { k: "unary", op, a: unary() };
    }
    return primary();
  }
  function primary(): Node {
    const t = tok();
    if (t.t === "num") {
      pos++;
      return { k: "const", v: t.v };
    }
    if (t.t === "sym") {
      pos++;
      if (isOp("(")) {
        advanceSkipNl();
        const args: Node[] = [];
        if (!isOp(")")) args.push(addSub());
        if (!isOp(")")) throw new Reject();
        pos++;
        return { k: "call", name: t.v, args };
      }
      return { k: "sym", name: t.v };
    }
    if (isOp("(")) {
      advanceSkipNl();
      const a = addSub();
      if (!isOp(")")) throw new Reject();
      pos++;
      return { k: "paren", a };
    }
    throw new Reject();
  }

  const node = addSub();
  // A newline or anything else left over: mathjs makes a block (a result
  // set, not a number) or throws; either way, no value.
  if (tok().t !== "end") throw new Reject();
  return node;
}

function evaluateNode(n: Node): number {
  switch (n.k) {
    case "const":
      return n.v;
    case "paren":
      return evaluateNode(n.a);
    case "unary": {
      const a = evaluateNode(n.a);
      return n.op === "-" ? -a : a;
    }
    case "bin": {
      const a = evaluateNode(n.a), b = evaluateNode(n.b);
      if (n.op === "+") return a + b;
      if (n.op === "-") return a - b;
      if (n.op === "*" || n.op === ".*") return a * b;
      return a / b;
    }
    case "call": {
      if (n.name !== "sqrt" || n.args.length !== 1) throw new Reject();
      const x = evaluateNode(n.args[0]!);
      // mathjs returns a complex number below zero.
      if (!(x >= 0)) throw new Reject();
      return Math.sqrt(x);
    }
    case "sym":
      throw new Reject();
  }
}

/**
 * Evaluates `text` as mathjs' `evaluate` would, for numbers, `+ - * /`,
 * parentheses and `sqrt`; null when mathjs would fail or give no finite
 * real number.
 */
export function evaluatePlain(text: string): number | null {
  try {
    const v = evaluateNode(parse(tokenize(text)));
    return Number.isFinite(v) ? v : null;
  } catch (error) {
    if (error instanceof Reject) return null;
    throw error;
  }
}
