/**
 * Aggregation of the algorithm-code suite's rows (a frame from `loadRuns`):
 * unbiased pass@k per problem and its mean, the first-attempt pass rate
 * (`pass_at_k.ts`), the four score components (correctness, complexity,
 * robustness, performance) and their weighted score, the score under other
 * weightings with how much the model ranking moves (`weighted_score.ts`),
 * and the required × measured complexity matrix (`complexity_matrix.ts`).
 * Pure functions over a frame. The rank statistics they use are generic
 * (`lib/report/rank.ts`) and re-exported here.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import pl from "nodejs-polars";
 * import { passAtKTable } from "./aggregate.ts";
 * const frame = pl.DataFrame({ model: ["m", "m"], problem: ["p", "p"], correct: [true, false] });
 * assert.equal(passAtKTable(frame, { ks: [1] }).toRecords()[0]!["pass@1"], 0.5);
 * ```
 *
 * @module
 */
export {
  passAtKCurve,
  passAtKTable,
  type PassAtKTableOptions,
} from "./pass_at_k.ts";
export {
  ALTERNATIVE_WEIGHTINGS,
  codeScores,
  type CodeScoresOptions,
  type CodeWeights,
  DEFAULT_WEIGHTS,
  type WeightingSensitivity,
  weightingSensitivity,
  type WeightingSensitivityOptions,
} from "./weighted_score.ts";
export { COMPLEXITY_ORDER, complexityMatrix } from "./complexity_matrix.ts";
export { kendallTauB, ranks } from "../../report/rank.ts";
