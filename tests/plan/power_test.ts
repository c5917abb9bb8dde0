import assert from "node:assert/strict";
import {
  detectableDifference,
  mcnemarPower,
  mcnemarQuestions,
  wilsonHalfWidth,
} from "../../lib/plan/power.ts";
import { wilsonInterval } from "../../lib/judge/wilson.ts";
import { mcnemarExact } from "../../lib/report/mcnemar.ts";
import { mulberry32 } from "../../lib/math/rng.ts";

Deno.test("wilsonHalfWidth() is half the width of the interval the report draws", () => {
  for (const [k, n] of [[0, 10], [3, 10], [50, 100], [37, 100], [999, 1000]]) {
    const { lo, hi } = wilsonInterval(k!, n!);
    assert.ok(
      Math.abs(wilsonHalfWidth(n!, k! / n!) - (hi - lo) / 2) < 1e-12,
      `${k}/${n}`,
    );
  }
  assert.ok(Number.isNaN(wilsonHalfWidth(0, 0.5)));
});

/**
 * The share of `reps` simulated paired comparisons in which the report's
 * own test (`mcnemarExact`) rejects at 5%: n questions, each discordant
 * with probability ψ, going model A's way with probability (ψ + δ) / 2ψ.
 */
function simulatedPower(
  n: number,
  psi: number,
  delta: number,
  reps: number,
  seed: number,
): number {
  const rand = mulberry32(seed);
  const forA = (psi + delta) / 2, forB = (psi - delta) / 2;
  let rejected = 0;
  for (let r = 0; r < reps; r++) {
    let b = 0, c = 0;
    for (let i = 0; i < n; i++) {
      const u = rand();
      if (u < forA) b++;
      else if (u < forA + forB) c++;
    }
    if (mcnemarExact(b, c) <= 0.05) rejected++;
  }
  return rejected / reps;
}

Deno.test("mcnemarPower() matches 2,000 simulated paired comparisons within 3 points, in three settings", () => {
  const settings = [
    // The default question: 5 points at ψ 0.3, at the n the plan names.
    {
      psi: 0.3,
      delta: 0.05,
      n: mcnemarQuestions({ discordant: 0.3, difference: 0.05 })!,
    },
    // A small sweep and a large effect: power well below 80%.
    { psi: 0.2, delta: 0.08, n: 150 },
    // Few discordant questions (close models): the exact test's
    // discreteness matters most here.
    { psi: 0.08, delta: 0.04, n: 300 },
  ];
  const seen: string[] = [];
  for (const [i, { psi, delta, n }] of settings.entries()) {
    const promised = mcnemarPower(n, { discordant: psi, difference: delta });
    const simulated = simulatedPower(n, psi, delta, 2000, 1000 + i);
    seen.push(
      `n ${n} ψ ${psi} δ ${delta}: formula ${promised.toFixed(3)}, simulated ${
        simulated.toFixed(3)
      }`,
    );
    assert.ok(Math.abs(promised - simulated) <= 0.03, seen.join("\n"));
    if (Deno.env.get("POWER_SHOW")) console.log(seen.at(-1));
  }
  // The settings differ: the check is not one point three times.
  assert.ok(seen.length === 3);
});

Deno.test("mcnemarQuestions() reaches the power asked and no more than a few questions past it", () => {
  for (
    const design of [
      { discordant: 0.3, difference: 0.05 },
      { discordant: 0.5, difference: 0.1, power: 0.9 },
      { discordant: 0.12, difference: 0.03, alpha: 0.01 },
    ]
  ) {
    const n = mcnemarQuestions(design)!;
    const power = design.power ?? 0.8;
    assert.ok(mcnemarPower(n, design) >= power, JSON.stringify(design));
    // A tenth fewer questions no longer reach it.
    assert.ok(mcnemarPower(Math.floor(n * 0.9), design) < power);
  }
  // A difference larger than the discordant share cannot exist.
  assert.equal(mcnemarQuestions({ discordant: 0.04, difference: 0.05 }), null);
});

Deno.test("detectableDifference() is the difference mcnemarQuestions() would need that many questions for", () => {
  const psi = 0.3;
  const delta = detectableDifference(600, { discordant: psi })!;
  const n = mcnemarQuestions({ discordant: psi, difference: delta })!;
  assert.ok(n <= 600 && n > 540, `${delta}: ${n}`);
});
