/**
 * Recomputes a dataset's answer key with the exact solvers and lists the
 * agreements and disagreements.
 *
 * @module
 */
import type { Answer } from "../../types.ts";
import {
  formatRational,
  parseRational,
  roundRational,
} from "../../math/rational.ts";
import { eigenvalues } from "../../math/eigen.ts";
import { toMatrix } from "../../math/matrix.ts";
import { type LinalgProblem, solveProblem } from "./tasks.ts";

/** A problem with its published key. */
export interface KeyedProblem {
  /** The problem as parsed. */
  problem: LinalgProblem;
  /** The answer key as published. */
  key: Answer;
  /** Decimals the key's eigenvalues are rounded to (compare at that precision). */
  keyDecimals?: number;
}

/** One disagreement between the published key and the solvers. */
export interface KeyDisagreement {
  /** The problem's id. */
  id: string;
  /** The problem's task. */
  task: string;
  /** The published key, as text. */
  published: string;
  /** What the exact solvers computed, as text. */
  computed: string;
}

/** What {@linkcode verifyKey} found. */
export interface KeyReport {
  /** Problems checked. */
  total: number;
  /** Problems whose published key the solvers reproduce. */
  agreements: number;
  /** The problems where they differ. */
  disagreements: KeyDisagreement[];
}

function show(answer: Answer): string {
  return typeof answer.value === "string"
    ? answer.value
    : JSON.stringify(answer.value);
}

/** Eigenvalues rounded to `places` decimals, from exact isolating intervals. */
function roundedEigenvalues(problem: LinalgProblem, places: number): string[] {
  const e = eigenvalues(toMatrix(problem.A), { digits: 20 });
  const out: string[] = [];
  for (const root of e.real) {
    const lo = roundRational(root.lower, places);
    const hi = roundRational(root.upper, places);
    const text = lo.equals(hi)
      ? formatRational(lo)
      : `${formatRational(lo)}..${formatRational(hi)}`;
    for (let k = 0; k < root.multiplicity; k++) out.push(text);
  }
  for (let k = 0; k < e.complexCount; k++) out.push("complex");
  return out;
}

function agrees(item: KeyedProblem): { ok: boolean; computed: string } {
  const { problem, key } = item;
  if (key.kind === "multiset") {
    const places = item.keyDecimals ?? 4;
    const computed = roundedEigenvalues(problem, places);
    let published: string[];
    try {
      published = key.value.map((v) => formatRational(parseRational(v)));
    } catch {
      return { ok: false, computed: computed.join(", ") };
    }
    const a = [...computed].sort(), b = [...published].sort();
    return {
      ok: a.length === b.length && a.every((v, i) => v === b[i]),
      computed: computed.join(", "),
    };
  }
  const answer = solveProblem(problem);
  const computed = show(answer);
  return { ok: answer.kind === key.kind && computed === show(key), computed };
}

/**
 * Recomputes every key with the exact solvers. Scalars and matrices must
 * match exactly; eigenvalues must match at the key's decimals (the exact
 * root's isolating interval is rounded, so a boundary case shows as a range
 * and counts as a disagreement).
 *
 * @param items Problems with their published keys.
 * @returns Counts and every disagreement.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { verifyKey } from "./mod.ts";
 * const problem = { id: "e", source: "generated" as const, task: "eigenvalue" as const, n: 2, A: [["0", "1"], ["1", "0"]] };
 * const good = verifyKey([{ problem, key: { kind: "multiset", value: ["1", "-1.0000"] }, keyDecimals: 4 }]);
 * assert.equal(good.agreements, 1);
 * const bad = verifyKey([{ problem: { ...problem, task: "trace" }, key: { kind: "rational", value: "1" } }]);
 * assert.equal(bad.disagreements[0]!.computed, "0");
 * ```
 */
export function verifyKey(items: readonly KeyedProblem[]): KeyReport {
  const disagreements: KeyDisagreement[] = [];
  for (const item of items) {
    let result: { ok: boolean; computed: string };
    try {
      result = agrees(item);
    } catch (error) {
      result = { ok: false, computed: `error: ${(error as Error).message}` };
    }
    if (!result.ok) {
      disagreements.push({
        id: item.problem.id,
        task: item.problem.task,
        published: show(item.key),
        computed: result.computed,
      });
    }
  }
  return {
    total: items.length,
    agreements: items.length - disagreements.length,
    disagreements,
  };
}
