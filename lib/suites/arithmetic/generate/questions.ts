/**
 * The bare-arithmetic question generator: seeded, pure, with difficulty
 * knobs per family.
 *
 * @module
 */
import { formatRational } from "../../../math/rational.ts";
import type { Question } from "../../../types.ts";
import type { FamilyGenerator, Level } from "./_draft.ts";
import { addition, division, multiplication, subtraction } from "./_integer.ts";
import { decimals } from "./_decimal.ts";
import { fractions } from "./_fraction.ts";
import { percentages } from "./_percent.ts";
import { expression } from "./_expr.ts";
import { wordProblem } from "./_word.ts";
import { createRng } from "../../../math/rng.ts";

/** The arithmetic families. */
export const ARITHMETIC_FAMILIES = [
  "add",
  "sub",
  "mul",
  "div",
  "decimal",
  "fraction",
  "percent",
  "expr",
  "word",
] as const;

/** One arithmetic family name. */
export type ArithmeticFamily = typeof ARITHMETIC_FAMILIES[number];

/** Question language(s). */
export type ArithmeticLanguage = "en" | "zh" | "both";

const GENERATORS: Record<ArithmeticFamily, FamilyGenerator> = {
  add: addition,
  sub: subtraction,
  mul: multiplication,
  div: division,
  decimal: decimals,
  fraction: fractions,
  percent: percentages,
  expr: expression,
  word: wordProblem,
};

/** Options for {@linkcode generateArithmetic}. */
export interface GenerateArithmeticOptions {
  /** Sweep seed. */
  seed: number;
  /** Families to generate. @default ["add", "sub"] */
  families?: readonly ArithmeticFamily[];
  /** Difficulty levels: digits per operand (see the suite docs per family). @default [2, 4, 8] */
  digits?: readonly number[];
  /** Multiplication operand digit pairs; overrides `digits` for `mul` when given. */
  mulDigits?: readonly (readonly [number, number])[];
  /** Exact carries (add) / borrows (sub) wanted; random when omitted. */
  carries?: number;
  /** Operation counts for `expr`. @default [2, 3, 4, 5] */
  ops?: readonly number[];
  /** Division modes. @default ["exact", "decimal"] */
  division?: readonly ("exact" | "decimal")[];
  /** Decimals for rounded division results. @default 2 */
  precision?: number;
  /** Questions per (family, level, mode). @default 20 */
  count?: number;
  /** Language of the question text. @default "en" */
  language?: ArithmeticLanguage;
}

/** The (key, level) cells one family expands to. */
function cells(
  family: ArithmeticFamily,
  o: Required<Omit<GenerateArithmeticOptions, "carries" | "mulDigits">> & {
    carries?: number;
    mulDigits?: readonly (readonly [number, number])[];
  },
): { key: string; level: Level }[] {
  const out: { key: string; level: Level }[] = [];
  for (const d of o.digits) {
    switch (family) {
      case "add":
      case "sub":
        if (o.carries === undefined) {
          out.push({ key: `d${d}`, level: { digits: d } });
        } else {out.push({
            key: `d${d}c${o.carries}`,
            level: { digits: d, carries: o.carries },
          });}
        break;
      case "mul":
        if (o.mulDigits === undefined) {
          out.push({ key: `d${d}x${d}`, level: { digits: d, digitsB: d } });
        }
        break;
      case "div":
        for (const mode of o.division) {
          out.push(
            mode === "exact"
              ? { key: `d${d}e`, level: { digits: d, division: "exact" } }
              : {
                key: `d${d}p${o.precision}`,
                level: {
                  digits: d,
                  division: "decimal",
                  precision: o.precision,
                },
              },
          );
        }
        break;
      case "expr":
        for (const ops of o.ops) {
          out.push({ key: `d${d}o${ops}`, level: { digits: d, ops } });
        }
        break;
      default:
        out.push({ key: `d${d}`, level: { digits: d } });
    }
  }
  if (family === "mul" && o.mulDigits !== undefined) {
    for (const [a, b] of o.mulDigits) {
      out.push({ key: `d${a}x${b}`, level: { digits: a, digitsB: b } });
    }
  }
  return out;
}

/**
 * Generates arithmetic questions. Pure: the same options give the same
 * questions, across versions. Each question's numbers come from a generator
 * seeded by its id without the language, so English and Chinese variants of
 * one item hold the same numbers.
 *
 * Ids look like `arithmetic/add/d4/s42/3/en`.
 *
 * @param options Families, levels, count, language and seed.
 * @returns The questions, in family → level → index → language order.
 * @throws {RangeError} for digit counts outside 1–20.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { generateArithmetic } from "./questions.ts";
 * const qs = generateArithmetic({ seed: 1, families: ["add"], digits: [3], count: 2 });
 * assert.equal(qs.length, 2);
 * assert.match(qs[0]!.text, /^What is \d{3} \+ \d{3}\?$/);
 * assert.deepEqual(qs, generateArithmetic({ seed: 1, families: ["add"], digits: [3], count: 2 }));
 * ```
 */
export function generateArithmetic(
  options: GenerateArithmeticOptions,
): Question[] {
  const {
    seed,
    families = ["add", "sub"],
    digits = [2, 4, 8],
    ops = [2, 3, 4, 5],
    division = ["exact", "decimal"],
    precision = 2,
    count = 20,
    language = "en",
  } = options;
  for (const d of digits) {
    if (!Number.isInteger(d) || d < 1 || d > 20) {
      throw new RangeError(
        `Cannot generate arithmetic: digits must be integers 1-20, got ${d}`,
      );
    }
  }
  const languages = language === "both" ? ["en", "zh"] as const : [language];
  const out: Question[] = [];
  const o = {
    seed,
    families,
    digits,
    ops,
    division,
    precision,
    count,
    language,
    ...(options.carries === undefined ? {} : { carries: options.carries }),
    ...(options.mulDigits === undefined
      ? {}
      : { mulDigits: options.mulDigits }),
  };
  for (const family of families) {
    for (const { key, level } of cells(family, o)) {
      for (let i = 0; i < count; i++) {
        const base = `arithmetic/${family}/${key}/s${seed}/${i}`;
        const draft = GENERATORS[family](createRng(base), level);
        for (const lang of languages) {
          out.push({
            id: `${base}/${lang}`,
            suite: "arithmetic",
            text: draft.text[lang],
            answer: { kind: "rational", value: formatRational(draft.answer) },
            dims: {
              family,
              language: lang,
              level: key,
              digits: level.digits,
              carries: null,
              ops: null,
              ...draft.dims,
            },
            payload: { family, ...draft.payload },
          });
        }
      }
    }
  }
  return out;
}
