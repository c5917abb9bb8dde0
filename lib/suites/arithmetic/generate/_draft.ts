/**
 * The shape every arithmetic family generator returns before it becomes a
 * `Question` (id, language and text are attached by `generateArithmetic`).
 *
 * @module
 */
import type { Fraction } from "../../../math/rational.ts";
import type { DimValue } from "../../../types.ts";
import type { Rng } from "../../../math/rng.ts";

/** The difficulty knobs one family generator receives. */
export interface Level {
  /** Digits per operand (add/sub/div/decimal/percent/expr/word) or of the first operand (mul). */
  digits: number;
  /** Digits of the second operand (mul). */
  digitsB?: number;
  /** Exact number of carries (add) or borrows (sub) wanted. */
  carries?: number;
  /** Operations in a compound expression (expr). */
  ops?: number;
  /** Decimals to round to (division with a decimal result). */
  precision?: number;
  /** Division mode. */
  division?: "exact" | "decimal";
}

/** A generated item, before language selection. */
export interface Draft {
  /** Question text per language, without instructions. */
  text: { en: string; zh: string };
  /** Exact answer. */
  answer: Fraction;
  /** Flat dims (family, digits... are added by the caller when missing). */
  dims: Record<string, DimValue>;
  /** Operands and operator for templates, the sim and forensics. */
  payload: Record<string, unknown>;
}

/** A family generator: pure in (rng, level). */
export type FamilyGenerator = (rng: Rng, level: Level) => Draft;
