/**
 * A fitted error model per model: a logistic regression of "the row is
 * correct" on the question's difficulty and the template, over the scored
 * rows (`isScored`, the one rule every table uses; a failed request of a
 * keyed question counts as not correct).
 *
 * The design (`_error_design.ts`) has, for each family, an indicator column
 * (its own intercept) and its size: two operand slopes (`digits_a:<f>`,
 * `digits_b:<f>`) when the rows record both operands' digits (products and
 * quotients do) and the pairs asked do not lie on one line, else one
 * `digits:<f>` slope when the family was asked at two or more digit counts
 * (an all-square grid of products, `digits_a = digits_b`, gets one slope:
 * two would be collinear with the intercept); one `carries` column: the
 * carries of an addition or the borrows of a subtraction (the `carries` dim
 * the generator records; 0 for other families); and, when the model ran
 * more than one template, a `template:<t>` indicator per template against
 * the baseline (`direct` when it ran, else the first template present), so
 * the templates share every difficulty slope and each shifts the log odds
 * by its own constant. There is no global intercept. Estimates are log odds
 * of a correct answer, fitted by iteratively reweighted least squares with
 * a ridge penalty of `ridge/2·‖β‖²` (default 0.01) that keeps them finite
 * when a family is all right or all wrong (separation); intervals are 95%
 * Wald intervals from the inverse penalised Fisher information.
 *
 * What it reports: each template's effect against the baseline, as the
 * odds ratio of a correct answer at equal difficulty (`exp β_template`);
 * the per-carry effect as an error odds ratio (`exp(−β_carries)`) and as
 * the change in error rate for one more carry at the model's mean
 * addition/subtraction question under the baseline template; predicted
 * accuracy with its interval per (template, family) at digits not asked,
 * with the family's mean carries and operand digits per digit (the
 * design's other features); and the rows the fit least expected (largest
 * Pearson residual: correct where it predicted ≈0, wrong where it
 * predicted ≈1), first — where a wrong key or a bad extraction shows.
 *
 * What the sim implies (checked by tests/suites/arithmetic/error_model_test.ts):
 * the sim's arithmetic skill errs on an n-digit addition or subtraction with
 * c carries with the chance of one operation of effective size
 * `s = 0.5 + 0.12·n + 0.1·c` (`operationSize` in sim/skill.ts), passing
 * with `passChance(s) = averagePassRate(s − skillShift)·(1 − slipRate)`.
 * So at fixed digits one more carry adds 0.1 to the size, and the per-carry
 * effect on the log odds is `logit P(s + 0.1) − logit P(s)`: negative, and
 * not constant (the calibration curve is not logistic in size). The value
 * a fit of these rows estimates is the logistic projection of that curve
 * over the questions asked — the same fit on each question's chance of
 * being right instead of its drawn outcome (a numeric `correct`). A product
 * of a- and b-digit operands (a, b ≥ 2) has size `√(a·b)`, symmetric in the
 * operands; and a chain-of-thought prompt changes only how the sim writes
 * its answer, not the chance of each operation, so the implied template
 * effect of `cot` against `direct` is zero.
 *
 * @module
 */
import { isScored } from "../../judge/status.ts";
import { Z95 } from "../../report/wilson.ts";
import { dot, fitLogistic, quadratic, sigmoid } from "./_logistic.ts";
import { design, type Features, type Point } from "./_error_design.ts";

/** Options for {@linkcode fitErrorModels}. */
export interface ErrorModelOptions {
  /** Ridge penalty on every coefficient. @default {0.01} */
  ridge?: number;
  /** Digit counts to predict accuracy at, per family. @default {1..12} */
  sizes?: readonly number[];
  /** How many least-expected rows to keep per model. @default {10} */
  surprises?: number;
  /**
   * The template the others are measured against (the first template
   * present stands in when a model did not run it). @default {"direct"}
   */
  baseline?: string;
}

/** One coefficient (log odds of a correct answer) with its 95% interval. */
export interface ErrorModelCoefficient {
  /**
   * `family:<f>` (intercept), `digits:<f>`, `digits_a:<f>` or
   * `digits_b:<f>` (slopes), `carries`, or `template:<t>` (against the
   * baseline).
   */
  name: string;
  /** The fitted value. */
  estimate: number;
  /** Its standard error (inverse penalised Fisher information). */
  se: number;
  /** The 95% Wald interval's low end. */
  lo: number;
  /** Its high end. */
  hi: number;
}

/** What one more carry (or borrow) does to a model's errors. */
export interface CarryEffect {
  /** Error odds ratio per extra carry, `exp(−β_carries)`, and its interval. */
  oddsRatio: number;
  /** The odds ratio's 95% interval, low end. */
  oddsRatioLo: number;
  /** Its high end. */
  oddsRatioHi: number;
  /**
   * Change in error rate for one more carry at the mean addition/
   * subtraction question the model was asked, under the baseline template
   * (delta-method interval).
   */
  errorRateChange: number;
  /** The change's 95% interval, low end. */
  errorRateChangeLo: number;
  /** Its high end. */
  errorRateChangeHi: number;
  /** The error rate at that mean question. */
  errorRateAtMean: number;
}

/** What one template does against the baseline, at equal difficulty. */
export interface TemplateEffect {
  /** The template. */
  template: string;
  /** Its scored rows. */
  n: number;
  /** Log odds of a correct answer added by the template (`β_template`). */
  logOdds: number;
  /** Its 95% interval, low end. */
  logOddsLo: number;
  /** Its high end. */
  logOddsHi: number;
  /** Odds ratio of a correct answer against the baseline, `exp β`. */
  oddsRatio: number;
  /** Its 95% interval, low end. */
  oddsRatioLo: number;
  /** Its high end. */
  oddsRatioHi: number;
}

/** Predicted accuracy at one size of one family under one template. */
export interface ErrorModelPrediction {
  /** The template. */
  template: string;
  /** The family. */
  family: string;
  /** The digit count. */
  digits: number;
  /** Carries assumed: the family's mean carries per digit × digits. */
  carries: number;
  /**
   * Operand digits assumed when the family has operand slopes (the
   * family's mean operand digits per digit × digits), else null.
   */
  digitsA: number | null;
  /** The second operand's, likewise. */
  digitsB: number | null;
  /** Predicted accuracy. */
  accuracy: number;
  /** Its 95% interval, low end. */
  lo: number;
  /** Its high end. */
  hi: number;
  /** Whether rows of this template, family and digit count were fitted. */
  asked: boolean;
}

/** A row whose outcome the fit least expected. */
export interface ErrorModelSurprise {
  /** The row's question. */
  question_id: string;
  /** Its template. */
  template: string;
  /** Its family. */
  family: string;
  /** Its digit count, when it has one. */
  digits: number | null;
  /** Its carries or borrows (0 for other families). */
  carries: number;
  /** The row's verdict. */
  status: string;
  /** Predicted chance of a correct answer. */
  predicted: number;
  /** Pearson residual `(y − p)/√(p(1 − p))`. */
  residual: number;
}

/** The fitted error model of one model, over all its templates. */
export interface ErrorModel {
  /** The model. */
  model: string;
  /**
   * The template the others are measured against, and at which the carry
   * effect is stated (`direct` when it ran, else the first present).
   */
  baseline: string;
  /** The templates fitted, the baseline first. */
  templates: string[];
  /** Scored rows fitted. */
  n: number;
  /** Whether the Newton steps settled. */
  converged: boolean;
  /** The fitted coefficients with their intervals. */
  coefficients: ErrorModelCoefficient[];
  /** Covariance of the estimates, in the order of `coefficients`. */
  covariance: number[][];
  /**
   * Null when no row had a carry or borrow to learn from, or when the
   * addition and subtraction rows were all right (or all wrong): then
   * only the ridge bounds the effect, and its interval means nothing.
   */
  carry: CarryEffect | null;
  /** Each template other than the baseline against it (empty for one). */
  templateEffects: TemplateEffect[];
  /** Predicted accuracy per template, family and digit count. */
  predictions: ErrorModelPrediction[];
  /** The least-expected rows, most surprising first. */
  surprises: ErrorModelSurprise[];
}

/** A row as stored (`dims` nested) or as a frame record (dims flat). */
export type ErrorModelRow = Record<string, unknown>;

/** Whether the addition and subtraction rows hold both outcomes. */
function mixed(data: readonly Point[]): boolean {
  const carrying = data.filter((p) => p.family === "add" || p.family === "sub");
  return carrying.some((p) => p.y > 0) && carrying.some((p) => p.y < 1);
}

const num = (v: unknown): number | null =>
  typeof v === "number" && Number.isFinite(v)
    ? v
    : typeof v === "bigint"
    ? Number(v)
    : null;

/** The scored rows with a family, as points; others are left out. */
function points(rows: readonly ErrorModelRow[]): Point[] {
  const out: Point[] = [];
  for (const raw of rows) {
    const dims = typeof raw.dims === "object" && raw.dims !== null
      ? raw.dims as Record<string, unknown>
      : {};
    const row = { ...dims, ...raw };
    const status = row.status == null ? null : String(row.status);
    const expected = row.expected == null ? null : String(row.expected);
    if (!isScored({ status, expected }) || row.family == null) continue;
    out.push({
      id: String(row.question_id ?? ""),
      family: String(row.family),
      template: String(row.template ?? ""),
      digits: num(row.digits),
      digitsA: num(row.digits_a),
      digitsB: num(row.digits_b),
      carries: num(row.carries) ?? 0,
      status: status ?? "",
      y: typeof row.correct === "number"
        ? row.correct
        : row.correct === true || status === "correct"
        ? 1
        : 0,
    });
  }
  return out;
}

function carryEffect(
  data: readonly Point[],
  at: (p: Point) => number[],
  c: number,
  coef: number[],
  cov: number[][],
): CarryEffect {
  const se = Math.sqrt(cov[c]![c]!), b = coef[c]!;
  const carrying = data.filter((p) => p.family === "add" || p.family === "sub");
  const rows = (carrying.length ? carrying : data).map(at);
  const mean = rows[0]!.map((_, i) =>
    rows.reduce((s, r) => s + r[i]!, 0) / rows.length
  );
  const next = mean.map((v, i) => i === c ? v + 1 : v);
  const p0 = sigmoid(dot(mean, coef)), p1 = sigmoid(dot(next, coef));
  // Δerror = p0 − p1; its gradient in β for the delta method.
  const grad = mean.map((v, i) => p0 * (1 - p0) * v - p1 * (1 - p1) * next[i]!);
  const half = Z95 * Math.sqrt(quadratic(grad, cov));
  return {
    oddsRatio: Math.exp(-b),
    oddsRatioLo: Math.exp(-b - Z95 * se),
    oddsRatioHi: Math.exp(-b + Z95 * se),
    errorRateChange: p0 - p1,
    errorRateChangeLo: p0 - p1 - half,
    errorRateChangeHi: p0 - p1 + half,
    errorRateAtMean: 1 - p0,
  };
}

/** The family's mean of `value(p)/digits` over its rows with digits. */
function perDigit(
  rows: readonly Point[],
  value: (p: Point) => number | null,
): number {
  return rows.reduce((s, p) => s + (value(p) ?? 0) / p.digits!, 0) /
    rows.length;
}

function predictions(
  data: readonly Point[],
  templates: readonly string[],
  operands: ReadonlySet<string>,
  features: (p: Features) => number[],
  coef: number[],
  cov: number[][],
  sizes: readonly number[],
): ErrorModelPrediction[] {
  const out: ErrorModelPrediction[] = [];
  const families = [...new Set(data.map((p) => p.family))].sort();
  for (const family of families) {
    const rows = data.filter((p) =>
      p.family === family && p.digits !== null && p.digits > 0
    );
    if (!rows.length) continue;
    const carriesPer = perDigit(rows, (p) => p.carries);
    const split = operands.has(family);
    const aPer = perDigit(rows, (p) => p.digitsA);
    const bPer = perDigit(rows, (p) => p.digitsB);
    for (const template of templates) {
      const asked = new Set(
        rows.filter((p) => p.template === template).map((p) => p.digits),
      );
      for (const digits of sizes) {
        const carries = carriesPer * digits;
        const digitsA = split ? aPer * digits : null;
        const digitsB = split ? bPer * digits : null;
        const x = features({
          family,
          template,
          digits,
          digitsA,
          digitsB,
          carries,
        });
        const eta = dot(x, coef), se = Math.sqrt(quadratic(x, cov));
        out.push({
          template,
          family,
          digits,
          carries,
          digitsA,
          digitsB,
          accuracy: sigmoid(eta),
          lo: sigmoid(eta - Z95 * se),
          hi: sigmoid(eta + Z95 * se),
          asked: asked.has(digits),
        });
      }
    }
  }
  return out;
}

function fitOne(
  model: string,
  data: readonly Point[],
  options: Required<ErrorModelOptions>,
): ErrorModel {
  const { names, features, carryIndex, templates, baseline, operands } = design(
    data,
    options.baseline,
  );
  const fit = fitLogistic(
    data.map(features),
    data.map((p) => p.y),
    { ridge: options.ridge },
  );
  const { coef, cov } = fit;
  const coefficients = names.map((name, i) => {
    const se = Math.sqrt(cov[i]![i]!), estimate = coef[i]!;
    return {
      name,
      estimate,
      se,
      lo: estimate - Z95 * se,
      hi: estimate + Z95 * se,
    };
  });
  const templateEffects = coefficients.filter((c) =>
    c.name.startsWith("template:")
  ).map((c) => {
    const template = c.name.slice("template:".length);
    return {
      template,
      n: data.filter((p) => p.template === template).length,
      logOdds: c.estimate,
      logOddsLo: c.lo,
      logOddsHi: c.hi,
      oddsRatio: Math.exp(c.estimate),
      oddsRatioLo: Math.exp(c.lo),
      oddsRatioHi: Math.exp(c.hi),
    };
  });
  const surprises = data.map((point) => {
    const p = sigmoid(dot(features(point), coef));
    const residual = (point.y - p) / Math.sqrt(Math.max(p * (1 - p), 1e-12));
    return {
      question_id: point.id,
      template: point.template,
      family: point.family,
      digits: point.digits,
      carries: point.carries,
      status: point.status,
      predicted: p,
      residual,
    };
  }).sort((a, b) => Math.abs(b.residual) - Math.abs(a.residual))
    .slice(0, options.surprises);
  return {
    model,
    baseline,
    templates,
    n: data.length,
    converged: fit.converged,
    coefficients,
    covariance: cov,
    carry: carryIndex < 0 || !mixed(data) ? null : carryEffect(
      data,
      // The headline carry effect is stated under the baseline template.
      (p) => features({ ...p, template: baseline }),
      carryIndex,
      coef,
      cov,
    ),
    templateEffects,
    predictions: predictions(
      data,
      templates,
      operands,
      features,
      coef,
      cov,
      options.sizes,
    ),
    surprises,
  };
}

/**
 * Fits the error model of each model in `rows`, over all its templates:
 * see the module doc for the design, the penalty and what is reported.
 *
 * @param rows Result rows (`dims` nested, as stored) or frame records (dims
 *   as columns); each needs `model`, `template`, `status`, `family`, and
 *   `digits`/`digits_a`/`digits_b`/`carries` where the family has them. A
 *   row is correct when its `correct` is true or its status is `correct`;
 *   a numeric `correct` in [0, 1] is taken as the row's chance of being
 *   correct, which fits the logistic projection of a known error model
 *   (what the sim implies).
 * @param options Ridge penalty, sizes to predict at, surprises to keep,
 *   baseline template.
 * @returns One error model per model, in order of first row.
 * @throws {RangeError} When `ridge` is not a positive number.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { fitErrorModels } from "./error_model.ts";
 *
 * const rows = [];
 * for (let i = 0; i < 800; i++) {
 *   const digits = 1 + (i % 8), carries = i % (digits + 1);
 *   const template = i % 16 < 8 ? "direct" : "cot";
 *   // Right up to 5 digits (6 with cot), wrong beyond; one 2-digit slip.
 *   const correct = digits <= (template === "cot" ? 6 : 5) && i !== 9;
 *   rows.push({
 *     model: "m", template, question_id: `q${i}`, expected: "1",
 *     status: correct ? "correct" : "wrong", dims: { family: "add", digits, carries },
 *   });
 * }
 * const [fit] = fitErrorModels(rows, { sizes: [3, 10] });
 * assert.equal(fit!.n, 800);
 * assert.equal(fit!.baseline, "direct");
 * assert.equal(fit!.templateEffects[0]!.template, "cot");
 * assert.ok(fit!.templateEffects[0]!.oddsRatioLo > 1);
 * const at = (d: number) =>
 *   fit!.predictions.find((p) => p.template === "direct" && p.digits === d)!;
 * assert.ok(at(3).accuracy > 0.9 && at(10).accuracy < 0.1);
 * assert.equal(at(10).asked, false);
 * assert.equal(fit!.surprises[0]!.question_id, "q9");
 * ```
 */
export function fitErrorModels(
  rows: readonly ErrorModelRow[],
  options: ErrorModelOptions = {},
): ErrorModel[] {
  const {
    ridge = 0.01,
    sizes = Array.from({ length: 12 }, (_, i) => i + 1),
    surprises = 10,
    baseline = "direct",
  } = options;
  if (!(ridge > 0) || !Number.isFinite(ridge)) {
    throw new RangeError(
      `Cannot fit the error model: ridge must be a positive number, got ${ridge}; pass a small penalty such as 0.01 (it keeps the fit finite under separation)`,
    );
  }
  const groups = new Map<string, ErrorModelRow[]>();
  for (const row of rows) {
    const model = String(row.model ?? "");
    const group = groups.get(model) ?? [];
    group.push(row);
    groups.set(model, group);
  }
  const out: ErrorModel[] = [];
  for (const [model, groupRows] of groups) {
    const data = points(groupRows);
    if (data.length === 0) continue;
    out.push(fitOne(model, data, { ridge, sizes, surprises, baseline }));
  }
  return out;
}
