/**
 * The arithmetic skill: reads an expression, percentage or simple word
 * problem from the prompt, computes it exactly (mathjs fractions), and
 * errs per operation with the profile's calibrated probability.
 *
 * @module
 */
import {
  makeMistake,
  type MistakeContext,
} from "../../../providers/sim/mistakes.ts";
import {
  exact,
  type Fraction,
  fromBigInt,
  isInteger,
  placesFor,
  scaled,
  toBigInt,
  writeDecimal,
  writeFraction,
} from "../../../providers/sim/numbers.ts";
import { intBetween, pick, type Uniform } from "../../../providers/sim/rng.ts";
import {
  type ArithTask,
  type Node,
  numbersIn,
  type Op,
  parseArithmetic,
  writeExpr,
} from "./_arith_parse.ts";
import { passes } from "../../../providers/sim/skills/chance.ts";
import {
  defineSkill,
  type RegisteredSkill,
  type SkillAnswer,
  type SkillInput,
} from "../../../providers/sim/skills/types.ts";

/** Multiple-choice options ("A. ...", "B) ...") mean another skill's question. */
const OPTIONS =
  /(^|\n)\s*[A-D]\s*[.．、:：)]\s*\S[\s\S]*\n\s*[B-E]\s*[.．、:：)]/;
const QUESTION_CUE =
  /how (many|much)|what is|calculate|compute|多少|几|计算|求|\?|？/i;

/**
 * Effective digits of a number for difficulty: all digits, no sign or
 * point. With `stripZeros`, round numbers (two or more trailing zeros,
 * like 1000 or 2500) count only their significant digits: ×1000 is easy.
 * A single trailing zero still counts, which keeps random n-digit operands
 * on the calibrated n.
 */
function digitCount(f: Fraction, stripZeros: boolean): number {
  const text = isInteger(f)
    ? f.n.toString()
    : writeDecimal(f, 6).replace(/^-|\./g, "");
  const t = stripZeros ? text.replace(/(?<=\d)00+$/, "") : text;
  return Math.min(t.length, 40);
}

function carryCount(l: Fraction, r: Fraction, op: "+" | "-"): number {
  const places = Math.max(placesFor(l, 6), placesFor(r, 6));
  let a = scaled(l, places), b = scaled(r, places);
  if (a < 0n) a = -a;
  if (b < 0n) b = -b;
  if (op === "-" && b > a) [a, b] = [b, a];
  const sa = a.toString(), sb = b.toString();
  let carry = 0, count = 0;
  for (let k = 0; k < Math.max(sa.length, sb.length); k++) {
    const da = Number(sa[sa.length - 1 - k] ?? "0");
    const db = Number(sb[sb.length - 1 - k] ?? "0");
    carry = op === "+"
      ? (da + db + carry >= 10 ? 1 : 0)
      : (da - db - carry < 0 ? 1 : 0);
    count += carry;
  }
  return count;
}

/**
 * Effective size of one operation on the calibration scale, where an
 * n×n-digit product has size n. Addition is far easier: 0.5 + 0.12 per
 * digit + 0.1 per carry (a 20-digit sum with 10 carries ≈ a 4×4 product).
 */
function operationSize(
  op: "+" | "-" | "*" | "/" | "^",
  l: Fraction,
  r: Fraction,
  result: Fraction,
): number {
  const frac = isInteger(l) && isInteger(r) ? 0 : 0.4;
  switch (op) {
    case "+":
    case "-": {
      const digits = Math.max(digitCount(l, false), digitCount(r, false));
      const neg = op === "-" && result.s < 0n ? 0.2 : 0;
      return 0.5 + 0.12 * digits + 0.1 * carryCount(l, r, op) + neg + frac;
    }
    case "*": {
      const a = digitCount(l, true), b = digitCount(r, true);
      const lo = Math.min(a, b), hi = Math.max(a, b);
      return (lo <= 1 ? 0.6 + 0.15 * hi : Math.sqrt(a * b)) + frac;
    }
    case "/": {
      const q = digitCount(result, true), b = digitCount(r, true);
      const base = Math.min(q, b) <= 1
        ? 0.6 + 0.15 * Math.max(q, b)
        : Math.sqrt(q * b);
      return base + (isInteger(result) ? 0.3 : 1) + frac;
    }
    case "^":
      return 0.5 + 0.3 * digitCount(result, false);
  }
}

interface EvalState {
  input: SkillInput;
  steps: string[];
  /** Sum of operation sizes, and the largest. */
  sizeMax: number;
  sizeSum: number;
  detailed: boolean;
  /** Numbers are written as fractions (a/b literals, ratios). */
  fractions: boolean;
  /** The task is reducing a ratio: its one division is the work. */
  ratio: boolean;
}

/** Digits in a fraction's numerator and denominator. */
function fractionDigits(f: Fraction): number {
  return f.n.toString().length + (f.d === 1n ? 0 : f.d.toString().length);
}

class CannotEvaluate extends Error {}

const SYMBOL = { "+": "+", "-": "-", "*": "×", "/": "÷", "^": "^" } as const;

function show(f: Fraction): string {
  return isInteger(f) ? toBigInt(f).toString() : writeDecimal(f, 6);
}

function trueResult(
  op: "+" | "-" | "*" | "/" | "^",
  l: Fraction,
  r: Fraction,
): Fraction {
  switch (op) {
    case "+":
      return l.add(r);
    case "-":
      return l.sub(r);
    case "*":
      return l.mul(r);
    case "/":
      if (r.n === 0n) throw new CannotEvaluate("division by zero");
      return l.div(r);
    case "^": {
      if (!isInteger(r) || toBigInt(r) > 64n || toBigInt(r) < -8n) {
        throw new CannotEvaluate("exponent too large");
      }
      if (l.n === 0n && r.s < 0n) throw new CannotEvaluate("division by zero");
      return l.pow(r);
    }
  }
}

/** Long multiplication rows, as a careful reasoner writes them. */
function longMultiplication(l: bigint, r: bigint): string[] {
  const rd = (r < 0n ? -r : r).toString();
  if (rd.length < 2 || rd.length > 12) return [];
  const rows: string[] = [];
  for (let k = 0; k < rd.length; k++) {
    const d = BigInt(rd[rd.length - 1 - k]!);
    const place = 10n ** BigInt(k);
    rows.push(`    ${l} × ${d * place} = ${l * d * place}`);
  }
  return rows;
}

/** A slip in the numerator of a fraction result (denominator kept). */
function wrongNumerator(truth: Fraction, rng: Uniform): Fraction {
  const numerator = truth.s * truth.n;
  const wrong = makeMistake({ op: "*", correct: numerator }, rng).value;
  return fromBigInt(wrong).div(fromBigInt(truth.d));
}

/** A slip on one operation, on its decimal digits. */
function wrongValue(
  op: Op,
  l: Fraction,
  r: Fraction,
  truth: Fraction,
  rng: Uniform,
): Fraction {
  const places = placesFor(truth, 6);
  const ctx: MistakeContext = { op, correct: scaled(truth, places) };
  if (isInteger(l) && isInteger(r) && places === 0) {
    ctx.left = toBigInt(l);
    ctx.right = toBigInt(r);
  }
  const wrong = makeMistake(ctx, rng).value;
  return places === 0
    ? fromBigInt(wrong)
    : fromBigInt(wrong).div(fromBigInt(10n ** BigInt(places)));
}

function evaluate(node: Node, st: EvalState): Fraction {
  switch (node.t) {
    case "num":
      return node.v;
    case "neg":
      return evaluate(node.e, st).neg();
    case "bin": {
      const l = evaluate(node.l, st), r = evaluate(node.r, st);
      const truth = trueResult(node.op, l, r);
      const literal = node.l.t === "num" && node.r.t === "num";
      // "3/4" in a fraction question is notation, not a division to do.
      if (st.fractions && !st.ratio && node.op === "/" && literal) {
        return truth;
      }
      // Fraction work (common denominators, reducing) grows with the digits
      // of all numerators and denominators involved.
      const fractionWork = st.fractions &&
        (st.ratio || !isInteger(l) || !isInteger(r));
      const size = fractionWork
        ? 0.5 + 0.3 * (fractionDigits(l) + fractionDigits(r))
        : operationSize(node.op, l, r, truth);
      st.sizeMax = Math.max(st.sizeMax, size);
      st.sizeSum += size;
      const { rng } = st.input;
      let value = truth;
      if (!passes(st.input, size)) {
        value = fractionWork && !isInteger(truth)
          ? wrongNumerator(truth, rng)
          : wrongValue(node.op, l, r, truth, rng);
      }
      if (st.detailed && node.op === "*" && isInteger(l) && isInteger(r)) {
        const rows = longMultiplication(toBigInt(l), toBigInt(r));
        if (rows.length) {
          st.steps.push(
            st.input.instructions.chinese
              ? `  把 ${show(l)} 乘以 ${show(r)} 的每一位：`
              : `  Multiply ${show(l)} by each digit of ${show(r)}:`,
            ...rows,
          );
          st.steps.push(
            st.input.instructions.chinese
              ? `  各行相加：${show(value)}`
              : `  Adding the rows: ${show(value)}`,
          );
        }
      }
      st.steps.push(
        `${show(l)} ${SYMBOL[node.op]} ${show(r)} = ${show(value)}`,
      );
      return value;
    }
  }
}

function writeAnswer(
  value: Fraction,
  task: ArithTask,
  input: SkillInput,
): string {
  const { fraction, decimals } = input.instructions;
  if (!isInteger(value) && (fraction || task.fractions) && decimals === null) {
    return writeFraction(value);
  }
  if (decimals !== null) {
    const places = Math.min(decimals, 12);
    return writeScaledFixed(scaled(value, places), places);
  }
  return writeDecimal(value, 6);
}

/** Fixed decimals as asked ("2.50" for two places). */
function writeScaledFixed(v: bigint, places: number): string {
  const neg = v < 0n;
  const digits = (neg ? -v : v).toString().padStart(places + 1, "0");
  const body = places
    ? `${digits.slice(0, -places)}.${digits.slice(-places)}`
    : digits;
  return (neg ? "-" : "") + body;
}

function refusalText(chinese: boolean): string {
  return chinese
    ? "抱歉，没有计算器我无法准确计算这个结果。"
    : "I can't compute that without a calculator.";
}

function solveTask(task: ArithTask, input: SkillInput): SkillAnswer {
  const { profile, rng, instructions } = input;
  // Percentages and word problems are not restated as a bare expression.
  const restatement = task.source === "expression"
    ? writeExpr(task.expr, false, 0, false, task.fractions)
    : undefined;
  const toolExpression = writeExpr(task.expr, true);
  const st: EvalState = {
    input,
    steps: [],
    sizeMax: 0,
    sizeSum: 0,
    detailed: profile.thinking !== "none",
    fractions: task.fractions,
    ratio: task.source === "ratio",
  };
  let value: Fraction;
  try {
    value = evaluate(task.expr, st);
  } catch (error) {
    if (!(error instanceof CannotEvaluate)) throw error;
    return {
      answer: null,
      numeric: false,
      steps: [`${writeExpr(task.expr, false)}: ${error.message}`],
      difficulty: 0,
    };
  }
  const difficulty = st.sizeMax + 0.25 * (st.sizeSum - st.sizeMax);
  // Refusals grow with difficulty: ×(1 + size above 3).
  if (rng() < profile.refusalRate * (1 + Math.max(0, difficulty - 3))) {
    return {
      answer: null,
      numeric: false,
      steps: [],
      refusal: refusalText(instructions.chinese),
      toolExpression,
      difficulty,
    };
  }
  return {
    answer: writeAnswer(value, task, input),
    numeric: true,
    ...(restatement !== undefined ? { restatement } : {}),
    steps: st.steps,
    toolExpression,
    difficulty,
  };
}

/** A question with numbers the sim cannot parse: guess or admit it. */
function guess(numbers: string[], input: SkillInput): SkillAnswer {
  const { rng, instructions } = input;
  if (rng() < 0.5) {
    return { answer: null, numeric: false, steps: [], difficulty: 3 };
  }
  const [a, b] = numbers.slice(0, 2).map(exact) as [Fraction, Fraction];
  const combos = [
    a.add(b),
    a.mul(b),
    a.sub(b).abs(),
    a.add(b).add(fromBigInt(BigInt(intBetween(rng, 1, 9)))),
  ];
  const value = pick(rng, combos);
  return {
    answer: writeDecimal(value, 2),
    numeric: true,
    steps: [
      instructions.chinese ? "根据题意估算。" : "Combining the numbers given.",
    ],
    difficulty: 3,
  };
}

type Task = { kind: "parsed"; task: ArithTask } | {
  kind: "guess";
  numbers: string[];
};

/** The arithmetic skill for the registry. */
export const arithmeticSkill: RegisteredSkill = defineSkill<Task>({
  name: "arithmetic",
  match({ question }) {
    if (OPTIONS.test(question)) return null;
    const task = parseArithmetic(question);
    if (task) return { kind: "parsed", task };
    const numbers = numbersIn(question);
    return numbers.length >= 2 && QUESTION_CUE.test(question)
      ? { kind: "guess", numbers }
      : null;
  },
  solve(task, input) {
    return task.kind === "parsed"
      ? solveTask(task.task, input)
      : guess(task.numbers, input);
  },
});
