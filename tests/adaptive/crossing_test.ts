/**
 * The adaptive crossing design against responders whose curve is known:
 * a logistic one, and the sim's calibrated curve for multiplication
 * for each profile (`_curves.ts` says how it and the true crossing are
 * derived).
 */
import assert from "node:assert/strict";
import { CrossingDesign } from "../../lib/adaptive/crossing.ts";
import { simCurve, SIZES, trueCrossing, uniform } from "./_curves.ts";

const CURVES: Record<string, (x: number) => number> = {
  "logistic, crossing 6.3": (x) => 0.98 / (1 + Math.exp(1.5 * (x - 6.3))),
  ...Object.fromEntries(
    ["sim-strong", "sim-average", "sim-weak"].map((name) => [
      name,
      simCurve(name),
    ]),
  ),
};

// The sweep-level coverage over 50 seeded runs per profile is
// `coverage_sweep_test.ts`; here, the reason for a curve-free posterior.
for (const name of ["sim-strong", "sim-average", "sim-weak"]) {
  Deno.test(`CrossingDesign: with 60 questions at every size, the 95% interval holds the true crossing of the sim's shelf-shaped curve (${name})`, () => {
    const curve = CURVES[name]!;
    const d = new CrossingDesign({ sizes: SIZES, width: 0.01 });
    for (const x of SIZES) {
      const correct = Math.round(60 * curve(x));
      d.updateMany(x, { correct, wrong: 60 - correct });
    }
    const e = d.estimate();
    const truth = trueCrossing(curve);
    // A logistic posterior put sim-strong's at 6.93 [6.70, 7.20] against
    // the true 7.22 (docs/adaptive.md).
    assert.ok(
      e.low <= truth && truth <= e.high,
      `${truth} ${JSON.stringify(e)}`,
    );
    assert.ok(Math.abs(e.mean - truth) < 0.15, `${truth} ${JSON.stringify(e)}`);
  });
}

Deno.test("CrossingDesign: the estimate does not depend on the order of the outcomes", () => {
  const outcomes: [number, boolean][] = [];
  const draw = uniform(5);
  for (let i = 0; i < 80; i++) {
    const x = SIZES[Math.floor(draw() * 12)]!;
    outcomes.push([x, draw() < CURVES["sim-average"]!(x)]);
  }
  const a = new CrossingDesign({ sizes: SIZES });
  const b = new CrossingDesign({ sizes: SIZES });
  for (const [x, ok] of outcomes) a.update(x, ok);
  for (const [x, ok] of [...outcomes].reverse()) b.update(x, ok);
  assert.deepEqual(b.estimate(), a.estimate());
});

Deno.test("CrossingDesign: the same outcomes in the same order give the same next sizes (a resumed sweep continues the design)", () => {
  const curve = CURVES["sim-average"]!;
  const draw = uniform(7);
  const first = new CrossingDesign({ sizes: SIZES });
  const asked: [number, boolean][] = [];
  for (let i = 0; i < 30; i++) {
    const x = first.next();
    const ok = draw() < curve(x);
    first.update(x, ok);
    asked.push([x, ok]);
  }
  const resumed = new CrossingDesign({ sizes: SIZES });
  for (const [x, ok] of asked) resumed.update(x, ok);
  assert.equal(resumed.next(), first.next());
  assert.deepEqual(resumed.estimate(), first.estimate());
});

Deno.test("CrossingDesign: asks near the crossing once it knows where it is", () => {
  const curve = CURVES["logistic, crossing 6.3"]!;
  const draw = uniform(3);
  const design = new CrossingDesign({ sizes: SIZES });
  const asked: number[] = [];
  for (let i = 0; i < 60; i++) {
    const x = design.next();
    asked.push(x);
    design.update(x, draw() < curve(x));
  }
  const late = asked.slice(30);
  assert.ok(late.every((x) => x >= 4 && x <= 9), late.join(","));
});

Deno.test("CrossingDesign refuses sizes and targets it cannot use, naming them", () => {
  assert.throws(() => new CrossingDesign({ sizes: [] }), /without sizes/);
  assert.throws(
    () => new CrossingDesign({ sizes: [1, 2], target: 1.2 }),
    /crossing of 1.2/,
  );
  const d = new CrossingDesign({ sizes: [1, 2, 3] });
  assert.throws(() => d.update(4, true), /sizes are 1, 2, 3/);
});

Deno.test("CrossingDesign.updateMany() equals as many update() calls, and does not underflow on thousands of outcomes", () => {
  const one = new CrossingDesign({ sizes: SIZES });
  const many = new CrossingDesign({ sizes: SIZES });
  const counts: [number, number, number][] = [[2, 30, 1], [5, 12, 9], [
    8,
    2,
    25,
  ]];
  for (const [x, c, w] of counts) {
    for (let i = 0; i < c; i++) one.update(x, true);
    for (let i = 0; i < w; i++) one.update(x, false);
    many.updateMany(x, { correct: c, wrong: w });
  }
  const [a, b] = [one.estimate(), many.estimate()];
  assert.equal(b.trials, a.trials);
  assert.ok(Math.abs(a.mean - b.mean) < 1e-9, `${a.mean} vs ${b.mean}`);
  assert.equal(b.low, a.low);
  assert.equal(b.high, a.high);
  assert.equal(many.next(), one.next());

  const big = new CrossingDesign({ sizes: SIZES });
  big.updateMany(3, { correct: 4000, wrong: 100 });
  big.updateMany(6, { correct: 100, wrong: 4000 });
  const e = big.estimate();
  assert.ok(
    Number.isFinite(e.mean) && e.low >= 3 && e.high <= 6,
    JSON.stringify(e),
  );
  assert.throws(
    () => big.updateMany(3, { correct: -1, wrong: 0 }),
    /whole numbers/,
  );
});

Deno.test("CrossingDesign.predicted() follows the curve the outcomes came from", () => {
  const curve = CURVES["logistic, crossing 6.3"]!;
  const draw = uniform(11);
  const d = new CrossingDesign({ sizes: SIZES });
  for (const x of SIZES) {
    let c = 0;
    for (let i = 0; i < 200; i++) if (draw() < curve(x)) c++;
    d.updateMany(x, { correct: c, wrong: 200 - c });
  }
  for (const x of [2, 5, 6, 8, 11]) {
    assert.ok(
      Math.abs(d.predicted(x) - curve(x)) < 0.06,
      `at ${x}: ${d.predicted(x)} vs ${curve(x)}`,
    );
  }
});
