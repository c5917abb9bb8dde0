/**
 * A fitted error model per model (and per template when there are more):
 * a logistic regression of "the row is correct" on the question's
 * difficulty, over the scored rows (`isScored`, the one rule every table
 * uses; a failed request of a keyed question counts as not correct).
 *
 * The design has, for each family, an indicator column (its own
 * intercept) and a digits slope (when the family was asked at two or more
 * digit counts), and one `carries` column: the carries of an addition or
 * the borrows of a subtraction (the `carries` dim the generator records;
 * 0 for other families). There is no global intercept. Estimates are
 * log odds of a correct answer, fitted by iteratively reweighted least
 * squares with a ridge penalty of `ridge/2·‖β‖²` (default 0.01) that keeps
 * them finite when a family is all right or all wrong (separation);
 * intervals are 95% Wald intervals from the inverse penalised Fisher
 * information.
 *
 * What it reports: the per-carry effect as an error odds ratio
 * (`exp(−β_carries)`) and as the change in error rate for one more carry
 * at the model's mean addition/subtraction question; predicted accuracy
 * with its interval at digits not asked; and the rows the fit least
 * expected (largest Pearson residual: correct where it predicted ≈0, wrong
 * where it predicted ≈1), first — where a wrong key or a bad extraction
 * shows.
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
 * being right instead of its drawn outcome (a numeric `correct`).
 *
 * @module
 */
import { isScored } from "../../judge/status.ts";
import { Z95 } from "../../report/wilson.ts";
import { dot, fitLogistic, quadratic, sigmoid } from "./_logistic.ts";

/** Options for {@linkcode fitErrorModels}. */
export interface ErrorModelOptions {
  /** Ridge penalty on every coefficient. @default {0.01} */
  ridge?: number;
  /** Digit counts to predict accuracy at, per family. @default {1..12} */
  sizes?: readonly number[];
  /** How many least-expected rows to keep per model. @default {10} */
  surprises?: number;
}

/** One coefficient (log odds of a correct answer) with its 95% interval. */
export interface ErrorModelCoefficient {
  /** `family:<f>` (intercept), `digits:<f>` (slope) or `carries`. */
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
   * subtraction question the model was asked (delta-method interval).
   */
  errorRateChange: number;
  /** The change's 95% interval, low end. */
  errorRateChangeLo: number;
  /** Its high end. */
  errorRateChangeHi: number;
  /** The error rate at that mean question. */
  errorRateAtMean: number;
}

/** Predicted accuracy at one size of one family. */
export interface ErrorModelPrediction {
  /** The family. */
  family: string;
  /** The digit count. */
  digits: number;
  /** Carries assumed: the family's mean carries per digit × digits. */
  carries: number;
  /** Predicted accuracy. */
  accuracy: number;
  /** Its 95% interval, low end. */
  lo: number;
  /** Its high end. */
  hi: number;
  /** Whether rows of this family and digit count were in the fit. */
  asked: boolean;
}

/** A row whose outcome the fit least expected. */
export interface ErrorModelSurprise {
  /** The row's question. */
  question_id: string;
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

/** The fitted error model of one model (and template). */
export interface ErrorModel {
  /** The model. */
  model: string;
  /** The template. */
  template: string;
  /** Scored rows fitted. */
  n: number;
  /** Whether the Newton steps settled. */
  converged: boolean;
  /** The fitted coefficients with their intervals. */
  coefficients: ErrorModelCoefficient[];
  /**
   * Null when no row had a carry or borrow to learn from, or when the
   * addition and subtraction rows were all right (or all wrong): then
   * only the ridge bounds the effect, and its interval means nothing.
   */
  carry: CarryEffect | null;
  /** Predicted accuracy per family and digit count. */
  predictions: ErrorModelPrediction[];
  /** The least-expected rows, most surprising first. */
  surprises: ErrorModelSurprise[];
}

/** A row as stored (`dims` nested) or as a frame record (dims flat). */
export type ErrorModelRow = Record<string, unknown>;

interface Point {
  id: string;
  family: string;
  digits: number | null;
  carries: number;
  status: string;
  y: number;
}

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
      digits: num(row.digits),
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

/** The design: column names and a row's features. */
function design(data: readonly Point[]) {
  const families = [...new Set(data.map((p) => p.family))].sort();
  const sloped = families.filter((f) =>
    new Set(
      data.filter((p) => p.family === f && p.digits !== null)
        .map((p) => p.digits),
    ).size >= 2
  );
  const carries = data.some((p) => p.carries !== 0);
  const names = [
    ...families.map((f) => `family:${f}`),
    ...sloped.map((f) => `digits:${f}`),
    ...(carries ? ["carries"] : []),
  ];
  const features = (
    p: Pick<Point, "family" | "digits" | "carries">,
  ): number[] => [
    ...families.map((f) => p.family === f ? 1 : 0),
    ...sloped.map((f) => p.family === f ? p.digits ?? 0 : 0),
    ...(carries ? [p.carries] : []),
  ];
  return {
    families,
    names,
    features,
    carryIndex: carries ? names.length - 1 : -1,
  };
}

/** Logit-scale Wald interval at `x`, mapped to a probability. */
function predict(x: readonly number[], coef: number[], cov: number[][]) {
  const eta = dot(x, coef), se = Math.sqrt(quadratic(x, cov));
  return {
    p: sigmoid(eta),
    lo: sigmoid(eta - Z95 * se),
    hi: sigmoid(eta + Z95 * se),
  };
}

function carryEffect(
  data: readonly Point[],
  features: (p: Point) => number[],
  c: number,
  coef: number[],
  cov: number[][],
): CarryEffect {
  const se = Math.sqrt(cov[c]![c]!), b = coef[c]!;
  const carrying = data.filter((p) => p.family === "add" || p.family === "sub");
  const rows = (carrying.length ? carrying : data).map(features);
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

function fitOne(
  model: string,
  template: string,
  data: readonly Point[],
  options: Required<ErrorModelOptions>,
): ErrorModel {
  const { families, names, features, carryIndex } = design(data);
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
  const predictions: ErrorModelPrediction[] = [];
  for (const family of families) {
    const rows = data.filter((p) => p.family === family && p.digits !== null);
    if (!rows.length) continue;
    const perDigit = rows.reduce((s, p) => s + p.carries / p.digits!, 0) /
      rows.length;
    const asked = new Set(rows.map((p) => p.digits));
    for (const digits of options.sizes) {
      const carries = perDigit * digits;
      const { p, lo, hi } = predict(
        features({ family, digits, carries }),
        coef,
        cov,
      );
      predictions.push({
        family,
        digits,
        carries,
        accuracy: p,
        lo,
        hi,
        asked: asked.has(digits),
      });
    }
  }
  const surprises = data.map((point) => {
    const p = sigmoid(dot(features(point), coef));
    const residual = (point.y - p) / Math.sqrt(Math.max(p * (1 - p), 1e-12));
    return {
      question_id: point.id,
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
    template,
    n: data.length,
    converged: fit.converged,
    coefficients,
    carry: carryIndex < 0 || !mixed(data)
      ? null
      : carryEffect(data, features, carryIndex, coef, cov),
    predictions,
    surprises,
  };
}

/**
 * Fits the error model of each model (and template) in `rows`: see the
 * module doc for the design, the penalty and what is reported.
 *
 * @param rows Result rows (`dims` nested, as stored) or frame records (dims
 *   as columns); each needs `model`, `template`, `status`, `family`, and
 *   `digits`/`carries` where the family has them. A row is correct when its
 *   `correct` is true or its status is `correct`; a numeric `correct` in
 *   [0, 1] is taken as the row's chance of being correct, which fits the
 *   logistic projection of a known error model (what the sim implies).
 * @param options Ridge penalty, sizes to predict at, surprises to keep.
 * @returns One error model per (model, template), in order of first row.
 * @throws {RangeError} When `ridge` is not a positive number.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { fitErrorModels } from "./error_model.ts";
 *
 * const rows = [];
 * for (let i = 0; i < 400; i++) {
 *   const digits = 1 + (i % 8), carries = i % (digits + 1);
 *   // Right up to 5 digits, wrong beyond; one 2-digit slip.
 *   const correct = digits <= 5 && i !== 9;
 *   rows.push({
 *     model: "m", template: "direct", question_id: `q${i}`, expected: "1",
 *     status: correct ? "correct" : "wrong", dims: { family: "add", digits, carries },
 *   });
 * }
 * const [fit] = fitErrorModels(rows, { sizes: [3, 10] });
 * assert.equal(fit!.n, 400);
 * const at = (d: number) => fit!.predictions.find((p) => p.digits === d)!;
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
  } = options;
  if (!(ridge > 0) || !Number.isFinite(ridge)) {
    throw new RangeError(
      `Cannot fit the error model: ridge must be a positive number, got ${ridge}; pass a small penalty such as 0.01 (it keeps the fit finite under separation)`,
    );
  }
  const groups = new Map<
    string,
    { model: string; template: string; rows: ErrorModelRow[] }
  >();
  for (const row of rows) {
    const model = String(row.model ?? ""),
      template = String(row.template ?? "");
    const key = JSON.stringify([model, template]);
    const group = groups.get(key) ?? { model, template, rows: [] };
    group.rows.push(row);
    groups.set(key, group);
  }
  const out: ErrorModel[] = [];
  for (const { model, template, rows: groupRows } of groups.values()) {
    const data = points(groupRows);
    if (data.length === 0) continue;
    out.push(fitOne(model, template, data, { ridge, sizes, surprises }));
  }
  return out;
}
