/**
 * The calculator tool of the arithmetic control group: evaluates an
 * expression exactly with mathjs' parser (no `eval`) and fraction
 * arithmetic, allowing only numbers, + - * / ^, parentheses and %.
 *
 * @module
 */
import { all, create, fraction, type MathNode } from "mathjs";
import {
  decimalString,
  formatRational,
  type Fraction,
} from "../../math/rational.ts";

const math = create(all ?? {}, { number: "Fraction" });

const MAX_EXPRESSION = 2000;

function evaluate(node: MathNode): Fraction {
  switch (node.type) {
    case "ConstantNode": {
      const v = (node as unknown as { value: unknown }).value;
      if (v !== null && typeof v === "object" && "n" in v && "d" in v) {
        return v as Fraction;
      }
      // mathjs writes the 100 of a percentage as a plain number.
      if (typeof v === "number" && Number.isSafeInteger(v)) {
        return fraction(BigInt(v));
      }
      throw new SyntaxError(`unsupported constant ${String(v)}`);
    }
    case "ParenthesisNode":
      return evaluate((node as unknown as { content: MathNode }).content);
    case "OperatorNode": {
      const { fn, args } = node as unknown as { fn: string; args: MathNode[] };
      const [x, y] = args.map(evaluate);
      if (x === undefined) throw new SyntaxError("missing operand");
      switch (fn) {
        case "unaryMinus":
          return x.neg();
        case "unaryPlus":
          return x;
      }
      if (y === undefined) throw new SyntaxError("missing operand");
      switch (fn) {
        case "add":
          return x.add(y);
        case "subtract":
          return x.sub(y);
        case "multiply":
          return x.mul(y);
        case "divide":
          if (y.n === 0n) throw new RangeError("division by zero");
          return x.div(y);
        case "mod":
          if (y.n === 0n) throw new RangeError("modulo by zero");
          return x.mod(y);
        case "pow": {
          if (y.d !== 1n) throw new RangeError("only integer powers are exact");
          const digits = x.n.toString().length + x.d.toString().length;
          if (y.n * BigInt(digits) > 100_000n) {
            throw new RangeError("the power is too large");
          }
          if (x.n === 0n && y.s < 0n) throw new RangeError("division by zero");
          return x.pow(y);
        }
      }
      throw new SyntaxError(`unsupported operator "${fn}"`);
    }
  }
  throw new SyntaxError(`unsupported syntax (${node.type})`);
}

/**
 * Evaluates an arithmetic expression exactly.
 *
 * @param expression E.g. `"(12 + 7) × 3 / 4"`, `"15% * 200"`, `"1,234 * 5"`.
 * @returns A terminating decimal (`"42.75"`) or an exact fraction (`"1/3"`).
 * @throws {SyntaxError} or {RangeError} for what it cannot evaluate.
 */
export function calculate(expression: string): string {
  if (expression.length > MAX_EXPRESSION) {
    throw new RangeError(
      `the expression is longer than ${MAX_EXPRESSION} characters`,
    );
  }
  const text = expression
    .replace(/[×·]/g, "*")
    .replace(/÷/g, "/")
    .replace(/[−–]/g, "-")
    .replace(/(\d),(?=\d{3}(?!\d))/g, "$1");
  if (!/^[\d\s+\-*/^().%]*$/.test(text) || !/\d/.test(text)) {
    throw new SyntaxError(
      "only numbers, + - * / ^, parentheses, decimals and % are allowed",
    );
  }
  const value = evaluate(math.parse(text));
  let d = value.d;
  while (d % 2n === 0n) d /= 2n;
  while (d % 5n === 0n) d /= 5n;
  return d === 1n ? decimalString(value, 0) : formatRational(value);
}

/**
 * The suite's tool executor: runs `calculator` calls and reports errors as
 * the tool's answer (never throws).
 */
export function executeArithmeticTool(name: string, args: string): string {
  if (name !== "calculator") {
    return `Error: Cannot run tool "${name}": only "calculator" is offered`;
  }
  let expression: unknown;
  try {
    expression = (JSON.parse(args) as { expression?: unknown }).expression;
  } catch {
    return `Error: Cannot run calculator: arguments are not JSON: ${
      args.slice(0, 200)
    }`;
  }
  if (typeof expression !== "string") {
    return 'Error: Cannot run calculator: expected {"expression": "<text>"}';
  }
  try {
    return calculate(expression);
  } catch (error) {
    return `Error: Cannot evaluate "${expression.slice(0, 200)}": ${
      (error as Error).message
    }`;
  }
}
