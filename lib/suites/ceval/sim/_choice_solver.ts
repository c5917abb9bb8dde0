/**
 * The sim's tiny multiple-choice solver: it can work out the options of a
 * question only when the stem is a bare arithmetic expression ("计算
 * (2 + 3) × 4 的值。") or a number sequence with a blank ("数列 2, 4, 8,
 * 16, ( )"), a linear equation ("方程 2x + 6 = 0 的解是"), a derivative
 * at a point ("函数 f(x) = x² 在 x = 3 处的导数值") or the determinant
 * of a small matrix literal: it computes the value exactly and looks for
 * the option that states it. Everything else (facts, definitions, most of mathematics) is
 * beyond it; the skill then guesses.
 *
 * Written by hand: finding the expression inside Chinese prose and
 * continuing a sequence is not something a library does; the arithmetic
 * itself is exact over fractions with mathjs' grammar (`lib/math/expr.ts`,
 * which gives mathjs' values without loading mathjs at start-up).
 *
 * @module
 */
import {
  derivativeAt as derivativeOf,
  determinant as det,
  evaluateRational,
  formatRational,
  type Fraction,
  fraction,
} from "../../../math/mod.ts";

/** A solved question: the computed value and the letter stating it. */
export interface Solved {
  letter: string;
  value: string;
  /** Working lines for chain-of-thought replies. */
  steps: string[];
  /** Operations involved (for difficulty). */
  ops: number;
}

const SYMBOLS: Record<string, string> = {
  "×": "*",
  "÷": "/",
  "−": "-",
  "－": "-",
  "＋": "+",
  "（": "(",
  "）": ")",
  "²": "^2",
  "³": "^3",
};

function normalizeExpr(text: string): string {
  return text.replace(/[×÷−－＋（）²³]/g, (c) => SYMBOLS[c] ?? c).trim();
}

/** Writes a fraction as "-3" or "5/6". */
const ratio = formatRational;

function value(expr: string): string | null {
  if (!/^[\d+\-*/^(). ]+$/.test(expr) || !/\d/.test(expr)) return null;
  try {
    return ratio(evaluateRational(expr));
  } catch {
    return null;
  }
}

/** The root of a linear equation in x ("2x + 6" = "0"), or null. */
function linearRoot(lhs: string, rhs: string): string | null {
  const side = /^[\dx+\-*/^(). ]+$/;
  if (!side.test(lhs) || !side.test(rhs) || !/x/.test(lhs + rhs)) return null;
  try {
    const f = `(${lhs}) - (${rhs})`;
    const at = (x: bigint): Fraction => evaluateRational(f, { x: fraction(x) });
    const f0 = at(0n), f1 = at(1n), f2 = at(2n);
    const slope = f1.sub(f0);
    // Linear only: f(2) − f(1) must equal f(1) − f(0), and the slope ≠ 0.
    if (!f2.sub(f1).equals(slope) || slope.n === 0n) return null;
    return ratio(f0.neg().div(slope));
  } catch {
    return null;
  }
}

/** f'(a) of a polynomial-like expression in x, exactly; null if unreadable. */
function derivativeAt(expr: string, a: string): string | null {
  if (!/^[\dx+\-*/^(). ]+$/.test(expr)) return null;
  try {
    return ratio(derivativeOf(expr, "x", fraction(a)));
  } catch {
    return null;
  }
}

/** The determinant of a small integer matrix literal "[[1, 2], [3, 4]]". */
function determinant(literal: string): string | null {
  try {
    const rows = JSON.parse(literal) as number[][];
    const square = rows.every((r) =>
      Array.isArray(r) && r.length === rows.length &&
      r.every((v) => typeof v === "number")
    );
    if (!square) return null; // (mathjs' det refuses other shapes too)
    return ratio(det(rows.map((r) => r.map((v) => fraction(v)))));
  } catch {
    return null;
  }
}

/** An option's number ("42", "-3", "x = 4", "12.5 天", "1/4") or null. */
function optionValue(text: string): string | null {
  const m =
    /^(?:[a-z]\s*=\s*)?(-?\d+(?:\.\d+)?(?:\/\d+)?)\s*(?:[^\d\s.\/]{0,3})$/
      .exec(text.replace(/−/g, "-").trim());
  if (m === null) return null;
  try {
    return ratio(fraction(m[1]!));
  } catch {
    return null;
  }
}

function match(
  options: Record<string, string>,
  target: string,
): string | null {
  const hits = Object.entries(options).filter(([, t]) =>
    optionValue(t) === target
  );
  return hits.length === 1 ? hits[0]![0] : null;
}

function nextTerm(nums: bigint[]): { value: bigint; rule: string } | null {
  if (nums.length < 3) return null;
  const n = nums.length;
  const d = nums[1]! - nums[0]!;
  if (nums.every((x, i) => i === 0 || x - nums[i - 1]! === d)) {
    return { value: nums[n - 1]! + d, rule: `相邻两项的差都是 ${d}` };
  }
  if (nums[0] !== 0n && nums[1]! % nums[0]! === 0n) {
    const r = nums[1]! / nums[0]!;
    if (nums.every((x, i) => i === 0 || x === nums[i - 1]! * r)) {
      return { value: nums[n - 1]! * r, rule: `后一项是前一项的 ${r} 倍` };
    }
  }
  if (nums.every((x, i) => i < 2 || x === nums[i - 1]! + nums[i - 2]!)) {
    return {
      value: nums[n - 1]! + nums[n - 2]!,
      rule: "从第三项起每一项等于前两项之和",
    };
  }
  const root = (x: bigint) => {
    const r = BigInt(Math.round(Math.sqrt(Number(x))));
    return r * r === x ? r : null;
  };
  const roots = nums.map(root);
  if (
    roots.every((r, i) => r !== null && (i === 0 || r === roots[i - 1]! + 1n))
  ) {
    const r = roots[n - 1]! + 1n;
    return { value: r * r, rule: "各项依次是连续整数的平方" };
  }
  return null;
}

/**
 * Solves the stem when it is an expression or a sequence with a blank.
 *
 * @returns The letter whose option states the value, or null.
 */
export function solveChoice(
  stem: string,
  options: Record<string, string>,
): Solved | null {
  const expr =
    /(?:计算|求|Calculate|Compute|What is)\s*[:：]?\s*(.+?)\s*(?:的值|的结果|=|\?|？|。|$)/i
      .exec(stem);
  if (expr !== null) {
    const e = normalizeExpr(expr[1]!);
    const v = value(e);
    if (v !== null) {
      const letter = match(options, v);
      if (letter === null) return null;
      const ops = (e.match(/[+\-*/^]/g) ?? []).length;
      return {
        letter,
        value: v,
        steps: [`${expr[1]!.trim()} = ${v}`],
        ops,
      };
    }
  }
  const deriv =
    /函数\s*[a-z]\(x\)\s*=\s*(.+?)\s*在\s*x\s*=\s*(-?\d+)\s*处的导数值/
      .exec(stem);
  if (deriv !== null) {
    const at = derivativeAt(normalizeExpr(deriv[1]!), deriv[2]!);
    const letter = at === null ? null : match(options, at);
    if (at === null || letter === null) return null;
    return {
      letter,
      value: at,
      steps: [`f'(${deriv[2]}) = ${at}`],
      ops: 3,
    };
  }
  const det = /矩阵\s*(\[\s*\[[\d\s,\-\]\[]+\]\s*\])\s*的行列式/.exec(stem);
  if (det !== null) {
    const v = determinant(det[1]!);
    const letter = v === null ? null : match(options, v);
    if (v === null || letter === null) return null;
    return { letter, value: v, steps: [`det ${det[1]} = ${v}`], ops: 3 };
  }
  const eq = /方程\s*(.+?)\s*=\s*(.+?)\s*的解/.exec(stem);
  if (eq !== null) {
    const root = linearRoot(normalizeExpr(eq[1]!), normalizeExpr(eq[2]!));
    const letter = root === null ? null : match(options, root);
    if (root === null || letter === null) return null;
    return {
      letter,
      value: root,
      steps: [`${eq[1]!.trim()} = ${eq[2]!.trim()}`, `解得 x = ${root}`],
      ops: 2,
    };
  }
  const seq =
    /(?:数列|sequence)\s*[:：]?\s*((?:-?\d+\s*[,，、]\s*){2,}-?\d+)\s*[,，、]?\s*[(（]\s*[)）]/i
      .exec(stem);
  if (seq !== null) {
    const nums = seq[1]!.split(/[,，、]/).map((s) => BigInt(s.trim()));
    const next = nextTerm(nums);
    if (next === null) return null;
    const v = next.value.toString();
    const letter = match(options, v);
    if (letter === null) return null;
    return {
      letter,
      value: v,
      steps: [`观察数列：${next.rule}`, `所以括号内应填 ${v}`],
      ops: 1,
    };
  }
  return null;
}
