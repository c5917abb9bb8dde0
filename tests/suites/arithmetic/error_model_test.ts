/**
 * The arithmetic error model: it recovers known coefficients from data
 * drawn from a logistic model, and on sim sweeps its per-carry effect and
 * its predicted accuracy agree with what the sim's code implies.
 */
import assert from "node:assert/strict";
import { fitErrorModels } from "../../../lib/suites/arithmetic/error_model.ts";
import { generateArithmetic } from "../../../lib/suites/arithmetic/mod.ts";
import { arithmeticSuite as suite } from "../../../lib/suites/arithmetic/suite.ts";
import { SimProvider } from "../../../lib/providers/sim.ts";
import { getSimProfile, passChance } from "../../../lib/providers/sim/mod.ts";
import { mulberry32 } from "../../../lib/math/rng.ts";
import { Z95 } from "../../../lib/report/wilson.ts";
import type { Question } from "../../../lib/types.ts";
import { scoreWith, SIM_BACKEND } from "../../_score.ts";

const logit = (p: number) => Math.log(p / (1 - p));

Deno.test("fitErrorModels() recovers the coefficients of a logistic model (n = 4000) inside their 95% intervals", () => {
  const truth: Record<string, number> = {
    "family:add": 4,
    "family:mul": 6,
    "digits:add": -0.3,
    "digits:mul": -1.2,
    carries: -0.25,
  };
  const rng = mulberry32(45);
  const rows = [];
  for (let i = 0; i < 4000; i++) {
    const family = i % 2 ? "add" : "mul";
    const digits = 1 + Math.floor(rng() * 10);
    const carries = family === "add" ? Math.floor(rng() * (digits + 1)) : 0;
    const eta = truth[`family:${family}`]! +
      truth[`digits:${family}`]! * digits + truth.carries! * carries;
    const correct = rng() < 1 / (1 + Math.exp(-eta));
    rows.push({
      model: "m",
      template: "direct",
      question_id: `q${i}`,
      expected: "1",
      status: correct ? "correct" : "wrong",
      dims: { family, digits, carries },
    });
  }
  const [fit] = fitErrorModels(rows);
  assert.ok(fit?.converged);
  assert.equal(fit.n, 4000);
  assert.deepEqual(
    fit.coefficients.map((c) => c.name).sort(),
    Object.keys(truth).sort(),
  );
  for (const c of fit.coefficients) {
    const t = truth[c.name]!;
    console.log(
      `${c.name}: true ${t}, fitted ${c.estimate.toFixed(3)} [${
        c.lo.toFixed(3)
      }, ${c.hi.toFixed(3)}]`,
    );
    assert.ok(
      c.lo <= t && t <= c.hi,
      `${c.name}: ${t} not in [${c.lo}, ${c.hi}]`,
    );
    // Sane widths: informative, and not implausibly narrow for n = 4000.
    assert.ok(
      c.hi - c.lo < 1.2 && c.hi - c.lo > 0.02,
      `${c.name} width ${c.hi - c.lo}`,
    );
  }
  const carry = fit.carry!;
  assert.ok(
    carry.oddsRatioLo <= Math.exp(0.25) && Math.exp(0.25) <= carry.oddsRatioHi,
  );
  assert.ok(carry.errorRateChange > 0 && carry.errorRateChangeLo > 0);
  // Predicted accuracy at a size not asked follows the true curve.
  const at12 = fit.predictions.find((p) =>
    p.family === "mul" && p.digits === 12
  )!;
  assert.equal(at12.asked, false);
  const true12 = 1 / (1 + Math.exp(-(6 - 1.2 * 12)));
  assert.ok(at12.lo <= true12 && true12 <= at12.hi);
});

Deno.test("fitErrorModels() lists first the rows it least expected: a right answer where it predicted ≈0", () => {
  const rows = [];
  for (let i = 0; i < 300; i++) {
    const digits = 1 + (i % 10);
    const correct = digits <= 5 ? i % 17 !== 0 : i === 59;
    rows.push({
      model: "m",
      template: "t",
      question_id: `q${i}`,
      expected: "1",
      status: correct ? "correct" : "wrong",
      family: "mul",
      digits,
      carries: null,
    });
  }
  rows.push({ ...rows[0]!, question_id: "unscored", status: "unscored" });
  const [fit] = fitErrorModels(rows, { surprises: 3 });
  assert.equal(fit!.n, 300);
  assert.equal(fit!.carry, null);
  assert.equal(fit!.surprises.length, 3);
  assert.equal(fit!.surprises[0]!.question_id, "q59");
  assert.ok(fit!.surprises[0]!.predicted < 0.05);
});

Deno.test("fitErrorModels() refuses a ridge that is not positive, saying what to pass", () => {
  const rows = [{
    model: "m",
    template: "t",
    status: "correct",
    family: "add",
  }];
  for (const ridge of [0, -1, Number.NaN]) {
    assert.throws(
      () => fitErrorModels(rows, { ridge }),
      (e: unknown) =>
        e instanceof RangeError &&
        /^Cannot fit the error model: ridge must be a positive number.*; pass/
          .test(e.message),
    );
  }
  assert.equal(fitErrorModels(rows).length, 1);
});

/** Sweeps `questions` through the in-process sim as `profile`, scored. */
async function simRows(profile: string, questions: Question[]) {
  const provider = new SimProvider({
    backend: SIM_BACKEND,
    name: profile,
    model: profile,
  });
  const rows = [];
  for (const [i, question] of questions.entries()) {
    const completion = await provider.complete({
      templateId: "direct",
      messages: suite.templates.direct!.render(question),
      params: { temperature: 0, max_tokens: 256, seed: i },
    }, { sample: 0 });
    const extraction = await suite.extract(question, completion);
    const verdict = await scoreWith(suite, question, completion, extraction);
    rows.push({
      model: profile,
      template: "direct",
      question_id: question.id,
      expected: question.answer.value,
      status: verdict.status,
      dims: question.dims,
    });
  }
  return rows;
}

/**
 * What the sim's code implies for one n-digit addition or subtraction
 * with `carries` carries (or borrows), at temperature 0: one operation of
 * effective size `s = 0.5 + 0.12·n + 0.1·carries` (`operationSize` in
 * lib/suites/arithmetic/sim/skill.ts) passes with
 * `passChance(s) = averagePassRate(s − skillShift)·(1 − slipRate)`
 * (lib/providers/sim/skills/chance.ts); the answer is then withheld with
 * the refusal chance `refusalRate·(1 + max(0, s − 3))` and garbled by
 * runaway working with `runawayRate`. So at fixed digits one more carry
 * moves the size by 0.1, and the implied per-carry effect on the log odds
 * of a correct answer is `logit P(s + 0.1) − logit P(s)`: not zero, and
 * not constant (the calibration curve is not a logistic in size).
 */
function simCorrect(profile: string, digits: number, carries: number): number {
  const p = getSimProfile(profile);
  const s = 0.5 + 0.12 * digits + 0.1 * carries;
  const refusal = p.refusalRate * (1 + Math.max(0, s - 3));
  return passChance({ profile: p, temperature: 0 }, s) * (1 - refusal) *
    (1 - p.runawayRate);
}

/**
 * The sim profiles checked, each at a digit count where its accuracy at
 * zero carries is high but not 1, so carries move it measurably.
 * sim-reasoner is left out: its reasoning is cut at the 256-token limit.
 */
const PROFILES = [
  ["sim-average", 16],
  ["sim-weak", 10],
  ["sim-strong", 20],
  ["sim-chatty", 16],
  ["sim-think", 20],
] as const;

/**
 * The 15 checks below (3 per profile) each hold with 95% chance when the
 * fit is right, so about one of them fails by chance at any seed (at seed
 * 45, sim-weak's subtraction accuracy is 0.003 outside its 95% interval).
 * Each check therefore uses its interval widened to 1 − 0.05/15
 * (Bonferroni; z = 2.935 instead of 1.96), a 5% family-wise false alarm
 * rate; the printed figures are the 95% intervals.
 */
function widen(lo: number, hi: number): [number, number] {
  const mid = (lo + hi) / 2, half = (hi - lo) / 2 * (2.935 / Z95);
  return [mid - half, mid + half];
}

for (const [profile, digits] of PROFILES) {
  Deno.test(`fitErrorModels() on ${profile}: the per-carry effect and accuracy agree with the sim's own error model`, async () => {
    const questions: Question[] = [];
    for (let carries = 0; carries < digits; carries += 1) {
      questions.push(...generateArithmetic({
        seed: 45,
        families: ["add", "sub"],
        digits: [digits],
        carries,
        count: 150,
      }));
    }
    const rows = await simRows(profile, questions);
    const [fit] = fitErrorModels(rows, { sizes: [digits] });
    assert.ok(fit?.converged);
    const carry = fit.coefficients.find((c) => c.name === "carries")!;
    // What the sim implies at the questions' sizes: the same model fitted
    // to each question's chance of being right (its expected outcome, from
    // the sim's code), not to the drawn outcomes. The local effects
    // logit P(s + 0.1) − logit P(s) range over the sizes asked; the
    // projection is the one value a logistic fit of these rows estimates.
    const expected = rows.map((row) => ({
      ...row,
      correct: simCorrect(profile, digits, Number(row.dims.carries)),
    }));
    const [projection] = fitErrorModels(expected, { sizes: [digits] });
    const implied = projection!.coefficients.find((c) =>
      c.name === "carries"
    )!.estimate;
    const local = Array.from(
      { length: digits },
      (_, c) =>
        logit(simCorrect(profile, digits, c + 1)) -
        logit(simCorrect(profile, digits, c)),
    );
    const f = (x: number) => x.toFixed(3);
    console.log(
      `${profile}, ${fit.n} rows of ${digits}-digit add/sub: fitted per-carry log odds ${
        f(carry.estimate)
      } [${f(carry.lo)}, ${f(carry.hi)}], error odds ratio ${
        f(fit.carry!.oddsRatio)
      } [${f(fit.carry!.oddsRatioLo)}, ${
        f(fit.carry!.oddsRatioHi)
      }], error rate +${f(fit.carry!.errorRateChange)} [${
        f(fit.carry!.errorRateChangeLo)
      }, ${f(fit.carry!.errorRateChangeHi)}] per carry; sim implies ${
        f(implied)
      } (odds ratio ${f(Math.exp(-implied))}; local ${f(Math.min(...local))}..${
        f(Math.max(...local))
      })`,
    );
    assert.ok(implied < 0, `implied ${implied}`);
    const [lo, hi] = widen(carry.lo, carry.hi);
    assert.ok(
      lo <= implied && implied <= hi,
      `${profile}: implied ${implied} outside [${lo}, ${hi}]`,
    );
    // Predicted accuracy at an asked size against the sim's chance there.
    for (const family of ["add", "sub"]) {
      const at = fit.predictions.find((p) =>
        p.family === family && p.digits === digits
      )!;
      const truth = simCorrect(profile, digits, at.carries);
      console.log(
        `  ${family} at ${at.carries.toFixed(2)} carries: predicted ${
          f(at.accuracy)
        } [${f(at.lo)}, ${f(at.hi)}], sim ${f(truth)}`,
      );
      const [lo, hi] = widen(logit(at.lo), logit(at.hi));
      assert.ok(
        lo <= logit(truth) && logit(truth) <= hi,
        `${family}: ${truth} outside the widened [${at.lo}, ${at.hi}]`,
      );
    }
  });
}

Deno.test("fitErrorModels() gives no per-carry effect when every addition was right: only the ridge would bound it", () => {
  const rows = Array.from({ length: 200 }, (_, i) => ({
    model: "m",
    template: "direct",
    question_id: `q${i}`,
    status: i % 2 || i % 7 ? "correct" : "wrong",
    family: i % 2 ? "add" : "mul",
    digits: 2 + (i % 5),
    carries: i % 2 ? i % 3 : 0,
  }));
  const [fit] = fitErrorModels(rows);
  assert.equal(fit!.carry, null);
  const mixed = rows.map((r, i) => i === 1 ? { ...r, status: "wrong" } : r);
  assert.notEqual(fitErrorModels(mixed)[0]!.carry, null);
});
