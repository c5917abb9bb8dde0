/**
 * mathjs' expression grammar, cut down to numbers, symbols, `+ - * / ^`
 * (and `.*`, `./`, `.^`), parentheses and one-argument function calls: a
 * tokenizer and recursive-descent parser that build the same tree mathjs
 * 15 builds (`parse.js`), so an evaluation gives the value mathjs gives.
 *
 * Written by hand rather than calling mathjs: importing mathjs builds its
 * whole function set (about 0.3 s and 60 MB), and these expressions are
 * read in every sweep. Kept from mathjs: implicit multiplication (`2x`,
 * `2sqrt(3)`, `(1)(2)`, but not `2 3`), its "rule 2" (`1/2x` is
 * `(1/2)·x`), unary signs below `^`, `^` right-associative, and its
 * whitespace and newline handling. Tests compare with mathjs on random
 * expressions.
 *
 * @module
 */

/** A parsed node. */
export type ExprNode =
  | { k: "const"; text: string }
  | { k: "sym"; name: string }
  | { k: "unary"; op: "-" | "+"; a: ExprNode }
  | { k: "bin"; op: "+" | "-" | "*" | "/" | "^"; a: ExprNode; b: ExprNode }
  | { k: "paren"; a: ExprNode }
  | { k: "call"; name: string; args: ExprNode[] };

type Tok =
  | { t: "num"; v: string }
  | { t: "sym"; v: string }
  | { t: "op"; v: string }
  | { t: "nl" }
  | { t: "end" };

const isDigit = (c: string) => c >= "0" && c <= "9";
const isAlpha = (c: string) =>
  /^[a-zA-Z_$\u00C0-\u02AF\u0370-\u03FF\u2100-\u214F]$/.test(c);
const fail = (text: string, why: string): never => {
  throw new SyntaxError(`Cannot parse "${text.slice(0, 80)}": ${why}`);
};

function tokenize(text: string): Tok[] {
  const out: Tok[] = [];
  let i = 0, depth = 0;
  const at = (k: number) => text.charAt(k);
  const isDecimalMark = (c: string, next: string) =>
    c === "." && next !== "/" && next !== "*" && next !== "^";
  while (true) {
    for (let c = at(i);; c = at(++i)) {
      const space = c === " " || c === "\t" || c === "\u00A0" ||
        (c === "\n" && depth > 0);
      if (!space) break;
    }
    const c = at(i);
    if (c === "") break;
    if (c === "\n") {
      out.push({ t: "nl" });
      i++;
      continue;
    }
    const c2 = text.slice(i, i + 2);
    if (c2 === ".*" || c2 === "./" || c2 === ".^") {
      out.push({ t: "op", v: c2 });
      i += 2;
      continue;
    }
    if ("+-*/^()".includes(c)) {
      if (c === "(") depth++;
      if (c === ")") depth--;
      out.push({ t: "op", v: c });
      i++;
      continue;
    }
    if (isDigit(c) || c === ".") {
      // mathjs reads "0x1f", "0b101", "0o17" as radix literals: not read here.
      if (/^0[box]$/.test(c2)) fail(text, "radix literals not read");
      let s = "";
      if (c === ".") {
        s += at(i++);
        if (!isDigit(at(i))) fail(text, `unexpected "." at ${i - 1}`);
      } else {
        while (isDigit(at(i))) s += at(i++);
        if (isDecimalMark(at(i), at(i + 1))) s += at(i++);
      }
      while (isDigit(at(i))) s += at(i++);
      if (at(i) === "e" || at(i) === "E") fail(text, "exponents not read");
      out.push({ t: "num", v: s });
      continue;
    }
    if (isAlpha(c)) {
      let s = "";
      while (isAlpha(at(i)) || isDigit(at(i))) s += at(i++);
      out.push({ t: "sym", v: s });
      continue;
    }
    fail(text, `unexpected "${c}" at ${i}`);
  }
  out.push({ t: "end" });
  return out;
}

/**
 * Parses `text` as mathjs does for this grammar.
 *
 * @throws {SyntaxError} where mathjs' parser would throw, and for a
 *   newline that would make it a block of several expressions.
 */
export function parseExpr(text: string): ExprNode {
  const tokens = tokenize(text);
  let pos = 0;
  const tok = () => tokens[pos]!;
  const isOp = (v: string) => {
    const t = tok();
    return t.t === "op" && t.v === v;
  };
  const opText = () => (tok() as { v: string }).v;
  // mathjs' getTokenSkipNewline: after an operator, newlines are skipped.
  const advance = () => {
    pos++;
    while (tok().t === "nl") pos++;
  };
  const isConst = (n: ExprNode) => n.k === "const";
  const isOperator = (n: ExprNode) => n.k === "unary" || n.k === "bin";

  function addSub(): ExprNode {
    let node = mulDiv();
    while (isOp("+") || isOp("-")) {
      const op = opText() as "+" | "-";
      advance();
      node = { k: "bin", op, a: node, b: mulDiv() };
    }
    return node;
  }
  function mulDiv(): ExprNode {
    let node = implicit();
    while (isOp("*") || isOp("/") || isOp(".*") || isOp("./")) {
      const op = opText().endsWith("*") ? "*" : "/";
      advance();
      node = { k: "bin", op, a: node, b: implicit() };
    }
    return node;
  }
  function implicit(): ExprNode {
    let node = rule2();
    let last = node;
    while (
      tok().t === "sym" || isOp("(") ||
      (tok().t === "num" && !isConst(last) && !isOperator(last))
    ) {
      last = rule2();
      node = { k: "bin", op: "*", a: node, b: last };
    }
    return node;
  }
  // "1/2x" is (1/2)·x: a number divided by a number, then a symbol or "(".
  function rule2(): ExprNode {
    let node = unary();
    let last = node;
    while (
      isOp("/") &&
      (isConst(last) || (last.k === "unary" && isConst(last.a)))
    ) {
      const slash = pos;
      advance();
      if (tok().t === "num") {
        const number = pos;
        advance();
        if (tok().t === "sym" || isOp("(")) {
          pos = number;
          last = unary();
          node = { k: "bin", op: "/", a: node, b: last };
          continue;
        }
      }
      pos = slash;
      break;
    }
    return node;
  }
  function unary(): ExprNode {
    if (isOp("-") || isOp("+")) {
      const op = opText() as "-" | "+";
      advance();
      return { k: "unary", op, a: unary() };
    }
    return power();
  }
  function power(): ExprNode {
    const node = primary();
    if (isOp("^") || isOp(".^")) {
      advance();
      return { k: "bin", op: "^", a: node, b: unary() };
    }
    return node;
  }
  function primary(): ExprNode {
    const t = tok();
    if (t.t === "num") {
      pos++;
      return { k: "const", text: t.v };
    }
    if (t.t === "sym") {
      pos++;
      if (!isOp("(")) return { k: "sym", name: t.v };
      advance();
      const args: ExprNode[] = [];
      if (!isOp(")")) args.push(addSub());
      if (!isOp(")")) fail(text, "expected )");
      pos++;
      return { k: "call", name: t.v, args };
    }
    if (isOp("(")) {
      advance();
      const a = addSub();
      if (!isOp(")")) fail(text, "expected )");
      pos++;
      return { k: "paren", a };
    }
    return fail(text, "expected a value");
  }

  const node = addSub();
  // A newline or anything else left over: mathjs makes a block (a result
  // set, not a value) or throws.
  if (tok().t !== "end") fail(text, "unexpected text after the expression");
  return node;
}
