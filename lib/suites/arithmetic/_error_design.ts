/**
 * The error model's design: which columns a model's rows support and the
 * features of one question. Private to `error_model.ts`.
 *
 * Columns, in order: an indicator per family (its own intercept); per
 * family, either two operand slopes (`digits_a:<f>`, `digits_b:<f>`) when
 * its rows record both operands' digits and the pairs asked do not lie on
 * one line (else the pair would be collinear with the intercept and the
 * fit singular: an all-square grid has `digits_a = digits_b`), or one
 * `digits:<f>` slope when it was asked at two or more digit counts, or
 * none; one `carries` column when some row has a carry or borrow; and a
 * `template:<t>` indicator per template other than the baseline
 * (treatment coding), when the model ran more than one.
 *
 * @module
 */

/** One scored row, as the fit sees it. */
export interface Point {
  /** The row's question. */
  id: string;
  /** Its family. */
  family: string;
  /** Its template. */
  template: string;
  /** Its digit count, when it has one. */
  digits: number | null;
  /** Digits of the first operand, when recorded. */
  digitsA: number | null;
  /** Digits of the second operand, when recorded. */
  digitsB: number | null;
  /** Carries or borrows (0 for other families). */
  carries: number;
  /** The row's verdict. */
  status: string;
  /** 1 when correct (or the chance of it, in [0, 1]). */
  y: number;
}

/** What a question's features are computed from. */
export type Features = Pick<
  Point,
  "family" | "template" | "digits" | "digitsA" | "digitsB" | "carries"
>;

/** A model's design. */
export interface Design {
  /** Families, sorted. */
  families: string[];
  /** Templates in order of first row; the baseline first. */
  templates: string[];
  /** The template the other templates' indicators are against. */
  baseline: string;
  /** Families fitted with one slope per operand. */
  operands: ReadonlySet<string>;
  /** Column names. */
  names: string[];
  /** A question's features, one per column. */
  features: (p: Features) => number[];
  /** The `carries` column, or −1. */
  carryIndex: number;
}

/**
 * Whether the (a, b) pairs span a plane with the intercept: the scatter
 * matrix's determinant, in integers scaled by n² (exact for digit counts),
 * is positive.
 */
function notCollinear(pairs: readonly [number, number][]): boolean {
  const n = pairs.length;
  let sa = 0, sb = 0, saa = 0, sbb = 0, sab = 0;
  for (const [a, b] of pairs) {
    sa += a, sb += b, saa += a * a, sbb += b * b, sab += a * b;
  }
  const vaa = n * saa - sa * sa, vbb = n * sbb - sb * sb;
  const vab = n * sab - sa * sb;
  return vaa * vbb - vab * vab > 0;
}

/**
 * The design for one model's points.
 *
 * @param data The model's scored rows.
 * @param baseline The preferred baseline template; the first template
 *   present stands in when the model did not run it.
 */
export function design(data: readonly Point[], baseline: string): Design {
  const families = [...new Set(data.map((p) => p.family))].sort();
  const seen = [...new Set(data.map((p) => p.template))];
  const base = seen.includes(baseline) ? baseline : seen[0] ?? baseline;
  const others = seen.filter((t) => t !== base);
  const operands = new Set<string>();
  const sloped: string[] = [];
  for (const f of families) {
    const rows = data.filter((p) => p.family === f);
    const pairs = rows.flatMap((p): [number, number][] =>
      p.digitsA !== null && p.digitsB !== null ? [[p.digitsA, p.digitsB]] : []
    );
    if (pairs.length === rows.length && notCollinear(pairs)) operands.add(f);
    else if (
      new Set(rows.filter((p) => p.digits !== null).map((p) => p.digits))
        .size >= 2
    ) sloped.push(f);
  }
  const operandFamilies = families.filter((f) => operands.has(f));
  const carries = data.some((p) => p.carries !== 0);
  const names = [
    ...families.map((f) => `family:${f}`),
    ...sloped.map((f) => `digits:${f}`),
    ...operandFamilies.flatMap((f) => [`digits_a:${f}`, `digits_b:${f}`]),
    ...(carries ? ["carries"] : []),
    ...others.map((t) => `template:${t}`),
  ];
  const features = (p: Features): number[] => [
    ...families.map((f) => p.family === f ? 1 : 0),
    ...sloped.map((f) => p.family === f ? p.digits ?? 0 : 0),
    ...operandFamilies.flatMap((f) =>
      p.family === f ? [p.digitsA ?? 0, p.digitsB ?? 0] : [0, 0]
    ),
    ...(carries ? [p.carries] : []),
    ...others.map((t) => p.template === t ? 1 : 0),
  ];
  return {
    families,
    templates: [base, ...others],
    baseline: base,
    operands,
    names,
    features,
    carryIndex: carries ? names.indexOf("carries") : -1,
  };
}
