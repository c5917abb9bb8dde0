/**
 * Linear-algebra benchmarks: how long the exact solvers take to recompute
 * the LinAlg-Bench key, and what exactness costs against floating point
 * (mathjs `det` / `eigs` on numbers) on the same 5×5 problems. Ratios are
 * measured in one run.
 *
 * @module
 */
import { det, eigs } from "mathjs";
import { loadLinalgBench } from "../../lib/suites/linalg/linalgbench.ts";
import { determinant, eigenvalueList, toMatrix } from "../../lib/math/mod.ts";
import { verifyKey } from "../../lib/suites/linalg/verify.ts";
import type { BenchRow } from "./sweep_bench.ts";

function timeIt(fn: () => void, rounds = 3): number {
  fn(); // warm up
  const t0 = performance.now();
  for (let i = 0; i < rounds; i++) fn();
  return (performance.now() - t0) / rounds;
}

/** Key recomputation time and the exact-versus-float cost on 5×5 problems. */
export async function benchLinalgKey(): Promise<BenchRow[]> {
  const rows = await loadLinalgBench(
    new URL("../../data/linalgbench", import.meta.url).pathname,
  );
  const verifyMs = timeIt(() => verifyKey(rows), 1);
  const five = rows.filter((r) => r.problem.n === 5);
  const dets = five.filter((r) => r.problem.task === "determinant")
    .map((r) => r.problem.A);
  const eigsIn = five.filter((r) => r.problem.task === "eigenvalue")
    .map((r) => r.problem.A);
  const num = (m: string[][]) => m.map((r) => r.map(Number));
  const exactDet = timeIt(() => dets.forEach((a) => determinant(toMatrix(a))));
  const floatDet = timeIt(() => dets.forEach((a) => det(num(a))));
  const exactEig = timeIt(() =>
    eigsIn.forEach((a) => eigenvalueList(toMatrix(a)))
  );
  const floatEig = timeIt(() => eigsIn.forEach((a) => eigs(num(a))));
  return [
    {
      name: "verify-key, all 660 LinAlg-Bench answers",
      value: verifyMs,
      unit: "ms",
      target: "< 10000 ms",
      pass: verifyMs < 10_000,
    },
    {
      name: "5×5 determinant, exact ÷ float (per problem)",
      value: exactDet / dets.length,
      unit: "ms",
      ratio: exactDet / floatDet,
    },
    {
      name: "5×5 eigenvalues, exact (Sturm) ÷ float (per problem)",
      value: exactEig / eigsIn.length,
      unit: "ms",
      ratio: exactEig / floatEig,
    },
  ];
}

if (import.meta.main) console.table(await benchLinalgKey());
