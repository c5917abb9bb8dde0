/**
 * The plan's precision and power: per suite, the 95% interval each
 * model's accuracy will have at the planned rows, and how many questions
 * the paired test needs to tell two models apart by a given difference,
 * with what those questions cost (see `power.ts` for the statistics).
 *
 * @module
 */
import { addCost, type TokenCost } from "./cost.ts";
import {
  detectableDifference,
  mcnemarQuestions,
  wilsonHalfWidth,
} from "./power.ts";

/** What the precision and power are computed for. */
export interface PrecisionOptions {
  /**
   * The accuracy to assume for every model (0–1). Without it, a model's
   * accuracy measured by an earlier run of the same model and suite is
   * used, else 0.5 (where the interval is widest).
   */
  accuracy?: number;
  /** The accuracy difference to detect (0–1). @default {0.05} */
  difference?: number;
  /** The power wanted. @default {0.8} */
  power?: number;
  /** Two-sided significance level. @default {0.05} */
  alpha?: number;
  /**
   * The share of questions two models answer differently (0–1).
   * @default {the share an earlier run of the models measured, else 2·p·(1 − p) at the suite's mean assumed accuracy p: errors independent between models}
   */
  discordant?: number;
}

/** Where a model's assumed accuracy came from. */
export type AccuracySource = "given" | "measured" | "assumed";

/** One model's precision in one suite. */
export interface ModelPrecision {
  /** The model's name in the config. */
  model: string;
  /** The rows the sweep writes for it in the suite. */
  rows: number;
  /** The accuracy assumed (0–1). */
  accuracy: number;
  /** Given (`accuracy`), measured by an earlier run, or the default 0.5. */
  source: AccuracySource;
  /** Half the 95% interval's width at that accuracy and those rows (0–1). */
  halfWidth: number;
}

/** One suite's precision and power. */
export interface SuitePrecision {
  /** The suite's name. */
  suite: string;
  /** Each model's precision in the suite. */
  models: ModelPrecision[];
  /** Paired questions two models share (the fewest rows of a model). */
  paired: number;
  /** The discordant share assumed. */
  discordant: number;
  /** Given, measured by an earlier run's paired rows, or from independent errors. */
  discordantSource: "given" | "measured" | "independent errors";
  /** Questions needed to detect `difference`; null when it cannot exist (difference > discordant share). */
  needed: number | null;
  /** The difference detectable at the planned questions; null when none is. */
  detectable: number | null;
  /** What `needed` questions cost for every priced model of the suite. */
  neededCost: TokenCost | null;
  /** Models of the suite without a price (not in `neededCost`). */
  unpriced: string[];
}

/** The precision and power of a plan. */
export interface PlanPrecision {
  /** The difference to detect (0–1). */
  difference: number;
  /** The power wanted. */
  power: number;
  /** The two-sided significance level. */
  alpha: number;
  /** One entry per suite, in the plan's order. */
  suites: SuitePrecision[];
}

/** What the precision needs of one plan row. */
export interface PrecisionRow {
  /** The model's name. */
  model: string;
  /** The suite's name. */
  suite: string;
  /** Rows the sweep writes. */
  rows: number;
  /** Their cost; null without a price. */
  cost: TokenCost | null;
}

/** What earlier runs measured, for the precision's defaults. */
export interface MeasuredFigures {
  /** A model's accuracy in a suite (its scored rows), or null. */
  accuracy(model: string, suite: string): number | null;
  /** The share of paired questions two models answered differently, or null. */
  discordant(suite: string): number | null;
}

/**
 * Precision and power per suite from a plan's rows.
 *
 * @param rows The plan's rows (model × suite × template).
 * @param measured What earlier runs measured: accuracies and discordant
 *   shares (each null where nothing was).
 * @param options The assumptions.
 * @returns One entry per suite, in the rows' order.
 * @throws {RangeError} when an option is outside (0, 1).
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { planPrecision } from "./precision.ts";
 * const rows = ["a", "b"].map((model) => ({
 *   model, suite: "arithmetic", rows: 400, cost: { online: 0.4, batch: 0.2 },
 * }));
 * const p = planPrecision(rows, { accuracy: () => null, discordant: () => null });
 * const s = p.suites[0]!;
 * assert.equal(s.models[0]!.source, "assumed"); // 50%, nothing measured
 * assert.equal(s.models[0]!.halfWidth.toFixed(3), "0.049");
 * assert.equal(s.discordant, 0.5); // 2 · 0.5 · 0.5
 * assert.ok(s.needed! > 1500 && s.detectable! > 0.1);
 * // Each of the two models costs 0.001 a row: needed × 0.002.
 * assert.equal(s.neededCost!.online.toFixed(2), (s.needed! * 0.002).toFixed(2));
 * ```
 */
export function planPrecision(
  rows: readonly PrecisionRow[],
  measured: MeasuredFigures,
  options: PrecisionOptions = {},
): PlanPrecision {
  const { difference = 0.05, power = 0.8, alpha = 0.05 } = options;
  for (
    const [name, value] of Object.entries({
      accuracy: options.accuracy,
      difference,
      power,
      alpha,
      discordant: options.discordant,
    })
  ) {
    if (value !== undefined && !(value > 0 && value < 1)) {
      throw new RangeError(
        `Cannot plan the precision: ${name} must be between 0 and 1 (exclusive), got ${value}`,
      );
    }
  }
  const bySuite = new Map<string, Map<string, PrecisionRow[]>>();
  for (const row of rows) {
    let models = bySuite.get(row.suite);
    if (models === undefined) bySuite.set(row.suite, models = new Map());
    const list = models.get(row.model) ?? [];
    list.push(row);
    models.set(row.model, list);
  }
  const suites: SuitePrecision[] = [];
  for (const [suite, models] of bySuite) {
    const precisions: ModelPrecision[] = [];
    let cost: TokenCost | null = null;
    const unpriced: string[] = [];
    for (const [model, list] of models) {
      const written = list.reduce((a, r) => a + r.rows, 0);
      const seen = measured.accuracy(model, suite);
      const [accuracy, source]: [number, AccuracySource] =
        options.accuracy !== undefined
          ? [options.accuracy, "given"]
          : seen !== null
          ? [seen, "measured"]
          : [0.5, "assumed"];
      precisions.push({
        model,
        rows: written,
        accuracy,
        source,
        halfWidth: wilsonHalfWidth(written, accuracy),
      });
      if (list.some((r) => r.cost === null) || written === 0) {
        unpriced.push(model);
        continue;
      }
      let perRow: TokenCost | null = null;
      for (const r of list) perRow = addCost(perRow, r.cost);
      cost = addCost(cost, {
        online: perRow!.online / written,
        batch: perRow!.batch / written,
      });
    }
    const paired = Math.min(...precisions.map((m) => m.rows));
    const mean = precisions.reduce((a, m) => a + m.accuracy, 0) /
      precisions.length;
    const seenShare = measured.discordant(suite);
    const [discordant, discordantSource]: [
      number,
      SuitePrecision["discordantSource"],
    ] = options.discordant !== undefined
      ? [options.discordant, "given"]
      : seenShare !== null && seenShare > 0
      ? [seenShare, "measured"]
      : [2 * mean * (1 - mean), "independent errors"];
    const design = { discordant, difference, alpha, power };
    const needed = precisions.length < 1 ? null : mcnemarQuestions(design);
    suites.push({
      suite,
      models: precisions,
      paired,
      discordant,
      discordantSource,
      needed,
      detectable: paired > 0
        ? detectableDifference(paired, { discordant, alpha, power })
        : null,
      neededCost: needed === null || cost === null ? null : {
        online: cost.online * needed,
        batch: cost.batch * needed,
      },
      unpriced,
    });
  }
  return { difference, power, alpha, suites };
}
