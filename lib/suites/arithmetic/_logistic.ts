/**
 * A ridge-penalised logistic regression fitted by iteratively reweighted
 * least squares (Newton–Raphson on the canonical logit link), with the
 * covariance of the estimates from the inverse of the penalised Fisher
 * information.
 *
 * Written by hand: the npm registry's logistic-regression packages
 * (`ml-logistic-regression`, gradient descent) give no standard errors,
 * and `glm` (1.0.0) is an unmaintained 2014 release; the fit is a dozen
 * lines over mathjs' matrix inverse, which the project already uses.
 *
 * @module
 */
import { inv } from "mathjs";

/** How `fitLogistic` fits. */
export interface FitLogisticOptions {
  /** Penalty weight on every coefficient. */
  ridge: number;
  /** Newton steps at most. @default 100 */
  maxIterations?: number;
  /** Stop when no coefficient moves by more. @default 1e-9 */
  tolerance?: number;
}

/** A fitted logistic regression. */
export interface LogisticFit {
  /** Coefficients, one per design column (log odds of `y = 1`). */
  coef: number[];
  /** Covariance of `coef`: the inverse penalised Fisher information. */
  cov: number[][];
  /** Newton steps taken. */
  iterations: number;
  /** Whether the largest step fell below the tolerance. */
  converged: boolean;
}

/**
 * The logistic function.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { sigmoid } from "./_logistic.ts";
 * assert.equal(sigmoid(0), 0.5);
 * assert.ok(Math.abs(sigmoid(Math.log(3)) - 0.75) < 1e-12);
 * ```
 */
export const sigmoid = (x: number): number => 1 / (1 + Math.exp(-x));

/**
 * The dot product of two equal-length vectors.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { dot } from "./_logistic.ts";
 * assert.equal(dot([1, 2, 3], [4, 5, 6]), 32);
 * ```
 */
export const dot = (a: readonly number[], b: readonly number[]): number =>
  a.reduce((s, v, i) => s + v * b[i]!, 0);

/**
 * The quadratic form `g′ Σ g` (the variance of `g·β` when `Σ` is the
 * covariance of `β`).
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { quadratic } from "./_logistic.ts";
 * assert.equal(quadratic([1, 1], [[4, 1], [1, 9]]), 15);
 * ```
 */
export const quadratic = (
  g: readonly number[],
  cov: readonly (readonly number[])[],
): number => g.reduce((s, gi, i) => s + gi * dot(cov[i]!, g), 0);

/**
 * Fits `P(y = 1 | x) = σ(x·β)` maximising the log likelihood minus
 * `ridge/2 · ‖β‖²`. The penalty keeps the estimates finite under
 * separation (a group all right or all wrong) and the information
 * invertible when columns are collinear; at `ridge` = 0.01 it moves an
 * estimate backed by a few dozen rows by well under its standard error.
 *
 * @param x Design rows (include a column of ones for an intercept).
 * @param y Outcomes, 0 or 1 (or a share in [0, 1]).
 * @param options The penalty, and when to stop.
 * @returns Coefficients, their covariance, and whether the fit converged.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { fitLogistic } from "./_logistic.ts";
 *
 * // 3 of 4 right at x = 0, 1 of 4 at x = 1: β = (log 3, −2·log 3).
 * const x = [0, 0, 0, 0, 1, 1, 1, 1].map((v) => [1, v]);
 * const fit = fitLogistic(x, [1, 1, 1, 0, 1, 0, 0, 0], { ridge: 0 });
 * assert.ok(fit.converged);
 * assert.ok(Math.abs(fit.coef[0]! - Math.log(3)) < 1e-9);
 * assert.ok(Math.abs(fit.coef[1]! + 2 * Math.log(3)) < 1e-9);
 * // All right: the ridge keeps the estimate finite.
 * assert.ok(fitLogistic([[1], [1]], [1, 1], { ridge: 0.01 }).coef[0]! < 20);
 * ```
 */
export function fitLogistic(
  x: readonly (readonly number[])[],
  y: readonly number[],
  { ridge, maxIterations = 100, tolerance = 1e-9 }: FitLogisticOptions,
): LogisticFit {
  let coef = new Array<number>(x[0]?.length ?? 0).fill(0);
  for (let iteration = 1; iteration <= maxIterations; iteration++) {
    const { grad, info } = penalisedScore(x, y, coef, ridge);
    const step = (inv(info) as number[][]).map((row) => dot(row, grad));
    coef = coef.map((b, i) => b + step[i]!);
    const converged = Math.max(0, ...step.map(Math.abs)) < tolerance;
    if (converged || iteration === maxIterations) {
      const cov = inv(penalisedScore(x, y, coef, ridge).info) as number[][];
      return { coef, cov, iterations: iteration, converged };
    }
  }
  return { coef, cov: [], iterations: 0, converged: true };
}

/**
 * The gradient of the penalised log likelihood at `coef` and the
 * penalised Fisher information `X′WX + ridge·I` (W = p(1 − p)).
 */
function penalisedScore(
  x: readonly (readonly number[])[],
  y: readonly number[],
  coef: readonly number[],
  ridge: number,
): { grad: number[]; info: number[][] } {
  const k = coef.length;
  const grad = coef.map((b) => -ridge * b);
  const info = Array.from(
    { length: k },
    (_, i) => Array.from({ length: k }, (_, j) => i === j ? ridge : 0),
  );
  for (const [r, row] of x.entries()) {
    const p = sigmoid(dot(row, coef));
    const w = Math.max(p * (1 - p), 1e-12);
    const residual = y[r]! - p;
    for (let i = 0; i < k; i++) {
      const xi = row[i]!;
      if (xi === 0) continue;
      grad[i]! += xi * residual;
      const infoRow = info[i]!;
      for (let j = 0; j < k; j++) infoRow[j]! += w * xi * row[j]!;
    }
  }
  return { grad, info };
}
