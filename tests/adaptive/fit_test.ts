/** fitCrossing and gridRequests against curves whose crossing is known. */
import assert from "node:assert/strict";
import { fitCrossing } from "../../lib/adaptive/fit.ts";
import { gridRequests } from "../../lib/adaptive/grid.ts";
import { simCurve, SIZES, trueCrossing, uniform } from "./_curves.ts";

const logistic = (x: number) => 0.97 / (1 + Math.exp(1.2 * (x - 5.4)));

function counts(curve: (x: number) => number, k: number, seed: number) {
  const draw = uniform(seed);
  return SIZES.map((x) => {
    let correct = 0;
    for (let i = 0; i < k; i++) if (draw() < curve(x)) correct++;
    return { x, correct, n: k };
  });
}

Deno.test("fitCrossing() on grid counts from a known logistic covers its crossing in at least 18 of 20 seeded grids", () => {
  const truth = trueCrossing(logistic);
  const fits = Array.from(
    { length: 20 },
    (_, s) => fitCrossing(counts(logistic, 20, s + 1)),
  );
  const covered = fits.filter((f) => f.low <= truth && truth <= f.high);
  assert.ok(covered.length >= 18, `${covered.length}/20 cover ${truth}`);
  assert.ok(fits.every((f) => f.position === "inside" && f.trials === 240));
  // Interval half-widths shrink with more questions.
  const more = fitCrossing(counts(logistic, 200, 99));
  const mean = (xs: number[]) => xs.reduce((a, b) => a + b, 0) / xs.length;
  assert.ok(more.high - more.low < mean(fits.map((f) => f.high - f.low)));
});

Deno.test("fitCrossing() agrees with the sim's true crossing per profile", () => {
  for (const name of ["sim-strong", "sim-average", "sim-weak"]) {
    const curve = simCurve(name);
    const fit = fitCrossing(counts(curve, 60, 5));
    const truth = trueCrossing(curve);
    assert.ok(
      fit.low <= truth && truth <= fit.high,
      `${name}: ${truth} not in [${fit.low}, ${fit.high}]`,
    );
  }
});

Deno.test("fitCrossing() says where the data sit when they never cross, and adds repeated sizes", () => {
  const above = fitCrossing([{ x: 2, correct: 9, n: 10 }, {
    x: 4,
    correct: 6,
    n: 10,
  }]);
  assert.equal(above.position, "above");
  assert.ok(above.mean > 4, String(above.mean));
  const below = fitCrossing([{ x: 2, correct: 1, n: 10 }, {
    x: 4,
    correct: 0,
    n: 10,
  }]);
  assert.equal(below.position, "below");
  assert.ok(below.mean < 2, String(below.mean));
  const split = fitCrossing([
    { x: 3, correct: 5, n: 10 },
    { x: 3, correct: 5, n: 10 },
    { x: 5, correct: 0, n: 0 },
  ]);
  assert.equal(split.trials, 20);
  assert.throws(() => fitCrossing([]), /no size has answers/);
  assert.throws(
    () => fitCrossing([{ x: 1, correct: 3, n: 2 }]),
    /3 correct of 2/,
  );
});

Deno.test("gridRequests() grows as the width shrinks, and is null when the ladder is too short", () => {
  const curve = simCurve("sim-average");
  const at = (width: number) => gridRequests({ curve, sizes: SIZES, width });
  const [w2, w1, w05] = [at(2), at(1), at(0.5)];
  assert.ok(w2 !== null && w1 !== null, `${w2} ${w1}`);
  assert.ok(w2 < w1, `${w2} vs ${w1}`);
  assert.ok(w05 === null || w05 > w1, `${w05} vs ${w1}`);
  assert.equal(w1 % SIZES.length, 0);
  assert.equal(
    gridRequests({ curve, sizes: SIZES, width: 0.2, ladder: [5] }),
    null,
  );
  // Seeded: the same options give the same answer.
  assert.equal(at(1), w1);
});
