import assert from "node:assert/strict";
import { averagePassRate } from "../../../lib/providers/sim/mod.ts";
import { ask, lcg, nDigits } from "./_helpers.ts";

/** sanand0/llmmath 50-model averages for n×n-digit products. */
const LLMMATH: [number, number][] = [
  [2, 0.96],
  [3, 0.86],
  [4, 0.66],
  [5, 0.58],
  [6, 0.24],
  [7, 0.10],
  [9, 0],
];
/** 300 samples: binomial SD ≤ 2.9 points; 9 points ≈ 3 SD. */
const SAMPLES = 300;
const TOLERANCE = 0.09;

function passRate(model: string, n: number): number {
  const rand = lcg(1000 + n);
  let pass = 0;
  for (let i = 0; i < SAMPLES; i++) {
    const a = nDigits(rand, n), b = nDigits(rand, n);
    const { choice } = ask(
      model,
      `Calculate ${a} times ${b}. Reply without commas.`,
      { seed: i },
    );
    // The llmmath prompt asks for no commas, not for a bare number: take
    // the last number written.
    const numbers = (choice.message.content ?? "").replace(/,/g, "")
      .match(/-?\d+/g);
    if (numbers?.at(-1) === String(a * b)) pass++;
  }
  return pass / SAMPLES;
}

Deno.test("simChat() sim-average matches the llmmath n×n multiplication pass rates", () => {
  const measured: string[] = [];
  for (const [n, expected] of LLMMATH) {
    const rate = passRate("sim-average", n);
    measured.push(
      `${n}: ${(rate * 100).toFixed(1)}% (llmmath ${
        Math.round(expected * 100)
      }%)`,
    );
    assert.ok(
      Math.abs(rate - expected) <= TOLERANCE,
      `n=${n}: ${rate} vs ${expected}`,
    );
  }
  console.log(`sim-average pass rates: ${measured.join("; ")}`);
});

Deno.test("simChat() sim-strong degrades later than sim-average, sim-weak earlier", () => {
  const strong = passRate("sim-strong", 5);
  const average = passRate("sim-average", 5);
  const weak = passRate("sim-weak", 5);
  console.log(
    `5×5 pass rates: strong ${strong}, average ${average}, weak ${weak}`,
  );
  assert.ok(strong > average + 0.15, `${strong} vs ${average}`);
  assert.ok(weak < average - 0.15, `${weak} vs ${average}`);
});

Deno.test("simChat() addition is much easier than multiplication of the same size", () => {
  const rand = lcg(77);
  let pass = 0;
  for (let i = 0; i < SAMPLES; i++) {
    const a = nDigits(rand, 6), b = nDigits(rand, 6);
    const { choice } = ask(
      "sim-average",
      `What is ${a} + ${b}? Output only the number.`,
      { seed: i },
    );
    if (choice.message.content?.trim() === String(a + b)) pass++;
  }
  const add = pass / SAMPLES;
  console.log(`6-digit addition pass rate (sim-average): ${add}`);
  assert.ok(add > passRate("sim-average", 6) + 0.5);
});

Deno.test("averagePassRate() is monotone non-increasing between the anchors", () => {
  let previous = averagePassRate(0);
  for (let n = 0.1; n <= 10; n += 0.1) {
    const p = averagePassRate(n);
    assert.ok(p <= previous + 1e-12, `at ${n}: ${p} > ${previous}`);
    previous = p;
  }
  for (const [n, expected] of LLMMATH) {
    assert.equal(averagePassRate(n), expected);
  }
});
