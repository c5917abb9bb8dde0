/**
 * Plain arithmetic expressions (numbers, `+ - * / ^`, parentheses,
 * implicit multiplication, `sqrt(…)`, named variables), read with mathjs'
 * grammar and evaluated in floating point or exactly, without loading
 * mathjs (see `_expr_parse.ts` for why).
 *
 * @module
 */
import { type ExprNode, parseExpr } from "./_expr_parse.ts";
import { type Fraction, fraction } from "./rational.ts";

const noValue = (why: string): never => {
  throw new RangeError(`Cannot evaluate: ${why}`);
};

function real(n: ExprNode): number {
  switch (n.k) {
    case "const":
      return Number(n.text);
    case "paren":
      return real(n.a);
    case "unary":
      return n.op === "-" ? -real(n.a) : real(n.a);
    case "bin": {
      const a = real(n.a), b = real(n.b);
      switch (n.op) {
        case "+":
          return a + b;
        case "-":
          return a - b;
        case "*":
          return a * b;
        case "/":
          return a / b;
        case "^":
          // mathjs gives a complex number here.
          if (a < 0 && !Number.isInteger(b)) noValue("complex power");
          return Math.pow(a, b);
      }
      break;
    }
    case "call": {
      if (n.name !== "sqrt" || n.args.length !== 1) {
        noValue(`unknown function ${n.name}`);
      }
      const x = real(n.args[0]!);
      // mathjs gives a complex number below zero.
      if (!(x >= 0)) noValue("square root of a negative number");
      return Math.sqrt(x);
    }
    case "sym":
      noValue(`unknown symbol ${n.name}`);
  }
  return noValue("unsupported expression");
}

/**
 * Evaluates an expression in floating point, as mathjs' `evaluate` does
 * for numbers, `+ - * / ^`, parentheses and `sqrt`.
 *
 * @param text E.g. `"(1 + sqrt(5))/2"`, `"1/2sqrt(3)"`.
 * @returns The value, finite.
 * @throws {SyntaxError} when mathjs could not parse it.
 * @throws {RangeError} when it has no finite real value (a negative
 *   square root, a division by zero, an unknown name).
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { evaluateReal } from "./expr.ts";
 * assert.equal(evaluateReal("1/2sqrt(4)"), 1); // (1/2)·√4, as mathjs reads it
 * assert.throws(() => evaluateReal("sqrt(-1)"), RangeError);
 * ```
 */
export function evaluateReal(text: string): number {
  const v = real(parseExpr(text));
  if (!Number.isFinite(v)) noValue(`"${text}" is not finite`);
  return v;
}

const ZERO = fraction(0n);

function power(a: Fraction, b: Fraction): Fraction {
  if (a.n === 0n && b.s < 0n && b.n !== 0n) noValue("division by zero");
  // fraction.js returns null when the power is irrational; mathjs then
  // falls back to a float, which has no exact value to give.
  return a.pow(b) ?? noValue("irrational power");
}

function exact(
  n: ExprNode,
  scope: Readonly<Record<string, Fraction>>,
): Fraction {
  switch (n.k) {
    case "const":
      return fraction(n.text);
    case "sym":
      return scope[n.name] ?? noValue(`unknown symbol ${n.name}`);
    case "paren":
      return exact(n.a, scope);
    case "unary":
      return n.op === "-" ? exact(n.a, scope).neg() : exact(n.a, scope);
    case "bin": {
      const a = exact(n.a, scope), b = exact(n.b, scope);
      switch (n.op) {
        case "+":
          return a.add(b);
        case "-":
          return a.sub(b);
        case "*":
          return a.mul(b);
        case "/":
          return b.n === 0n ? noValue("division by zero") : a.div(b);
        case "^":
          return power(a, b);
      }
      break;
    }
    case "call":
      return noValue(`no exact value for ${n.name}()`);
  }
  return noValue("unsupported expression");
}

/**
 * A subtree's derivative, and its value when asked for. As in mathjs'
 * `derivative`, a subtree without the variable is a constant with
 * derivative 0 whose value is only computed where the derivative uses it
 * (so an unknown name in it does no harm unless it is needed).
 */
interface Dual {
  dep: boolean;
  v: () => Fraction;
  d: Fraction;
}

function lazy(f: () => Fraction): () => Fraction {
  let memo: Fraction | undefined;
  return () => memo ??= f();
}

function dual(n: ExprNode, variable: string, at: Fraction): Dual {
  const constant = (): Dual => ({
    dep: false,
    v: lazy(() => exact(n, { [variable]: at })),
    d: ZERO,
  });
  switch (n.k) {
    case "const":
      return constant();
    case "sym":
      return n.name === variable
        ? { dep: true, v: () => at, d: fraction(1n) }
        : constant();
    case "paren":
      return dual(n.a, variable, at);
    case "call": {
      const c = constant();
      if (n.args.some((a) => dual(a, variable, at).dep)) {
        noValue(`no exact derivative of ${n.name}()`);
      }
      return c;
    }
    case "unary": {
      const a = dual(n.a, variable, at);
      if (n.op === "+") return a;
      return { dep: a.dep, v: lazy(() => a.v().neg()), d: a.d.neg() };
    }
    case "bin": {
      const a = dual(n.a, variable, at), b = dual(n.b, variable, at);
      if (!a.dep && !b.dep) return constant();
      const dep = true;
      switch (n.op) {
        case "+":
          return { dep, v: lazy(() => a.v().add(b.v())), d: a.d.add(b.d) };
        case "-":
          return { dep, v: lazy(() => a.v().sub(b.v())), d: a.d.sub(b.d) };
        case "*": {
          const left = a.dep ? a.d.mul(b.v()) : ZERO;
          const right = b.dep ? a.v().mul(b.d) : ZERO;
          return { dep, v: lazy(() => a.v().mul(b.v())), d: left.add(right) };
        }
        case "/": {
          const v = lazy(() => exact(n, { [variable]: at }));
          const den = b.v();
          if (den.n === 0n) noValue("division by zero");
          // (u/v)' = (u'v − uv') / v²
          const top = (a.dep ? a.d.mul(den) : ZERO).sub(
            b.dep ? a.v().mul(b.d) : ZERO,
          );
          return { dep, v, d: top.div(den.mul(den)) };
        }
        case "^": {
          if (b.dep) noValue("a variable exponent has no exact value");
          // (u^c)' = c·u^(c−1)·u'
          const c = b.v();
          const d = c.mul(power(a.v(), c.sub(fraction(1n)))).mul(a.d);
          return { dep, v: lazy(() => power(a.v(), c)), d };
        }
      }
      break;
    }
  }
  return noValue("unsupported expression");
}

/**
 * Evaluates an expression exactly over fractions, as mathjs' `evaluate`
 * does with `{ number: "Fraction" }` (`"0.1"` is 1/10), with variables
 * from `scope`.
 *
 * @param text E.g. `"(2 + 3) * 4 / 6"`, `"2x^2 - 1"`.
 * @param scope Values of the variables.
 * @returns The exact value.
 * @throws {SyntaxError} when mathjs could not parse it.
 * @throws {RangeError} when it has no exact value: a division by zero, an
 *   irrational power, a function, an unknown name.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { evaluateRational, formatRational, fraction } from "./mod.ts";
 * assert.equal(formatRational(evaluateRational("1/3 + 0.5")), "5/6");
 * assert.equal(formatRational(evaluateRational("2x^2 - 1", { x: fraction(3n) })), "17");
 * ```
 */
export function evaluateRational(
  text: string,
  scope: Readonly<Record<string, Fraction>> = {},
): Fraction {
  return exact(parseExpr(text), scope);
}

/**
 * The derivative of an expression in one variable at a point, exactly:
 * the value mathjs' `derivative(text, variable)` evaluated with fractions
 * gives, for sums, products, quotients and constant powers.
 *
 * @param text E.g. `"x^3 - 2x"`.
 * @param variable The variable's name.
 * @param at The point.
 * @returns The exact derivative at `at`.
 * @throws {SyntaxError} when mathjs could not parse it.
 * @throws {RangeError} when it has no exact value there (a division by
 *   zero, an irrational power, a variable exponent, a function).
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { derivativeAt, formatRational, fraction } from "./mod.ts";
 * assert.equal(formatRational(derivativeAt("x^3 - 2x", "x", fraction(2n))), "10");
 * assert.equal(formatRational(derivativeAt("1/x", "x", fraction(2n))), "-1/4");
 * ```
 */
export function derivativeAt(
  text: string,
  variable: string,
  at: Fraction,
): Fraction {
  return dual(parseExpr(text), variable, at).d;
}
