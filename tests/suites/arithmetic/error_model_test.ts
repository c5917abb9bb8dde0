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
import { parseConfig, runSweep } from "../../../lib/mod.ts";
import { loadRuns } from "../../../lib/report/mod.ts";
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
function widen(lo: number, hi: number, z = 2.935): [number, number] {
  const mid = (lo + hi) / 2, half = (hi - lo) / 2 * (z / Z95);
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

/**
 * What the sim's code implies for one a×b-digit product (a, b ≥ 2) at
 * temperature 0: one operation of size `√(a·b)` (`operationSize` in
 * lib/suites/arithmetic/sim/skill.ts), symmetric in the operands, passing
 * with `passChance`, then withheld with the refusal chance and garbled by
 * runaway working as for additions. The template does not enter: a
 * chain-of-thought prompt changes how the answer is written
 * (lib/providers/sim/_render.ts), not the chance of the operation.
 */
function simProduct(profile: string, a: number, b: number): number {
  const p = getSimProfile(profile);
  const s = Math.sqrt(a * b);
  const refusal = p.refusalRate * (1 + Math.max(0, s - 3));
  return passChance({ profile: p, temperature: 0 }, s) * (1 - refusal) *
    (1 - p.runawayRate);
}

/** Rows of one seeded sim-average sweep of unequal products, direct and cot. */
async function productSweep(seed: number, out: string) {
  const { runDir } = await runSweep(
    parseConfig({
      name: "operands",
      seed,
      outputDir: out,
      models: [{ name: "sim-average", provider: "sim" }],
      suites: [{
        name: "arithmetic",
        params: {
          families: ["mul"],
          mulDigits: [[2, 5], [5, 2], [3, 3], [2, 2], [4, 4]],
          count: 200,
        },
        templates: ["direct", "cot"],
      }],
    }, "test"),
    { progress: "none", cache: false },
  );
  return (await loadRuns(runDir, { warn: false })).frame.toRecords();
}

/** The checks of one fit against what the sim's code implies. */
function productChecks(rows: Record<string, unknown>[], label: string) {
  const [fit] = fitErrorModels(rows);
  assert.ok(fit?.converged);
  assert.equal(fit.baseline, "direct");
  assert.deepEqual(fit.templates, ["direct", "cot"]);
  const names = fit.coefficients.map((c) => c.name);
  assert.deepEqual(names, [
    "family:mul",
    "digits_a:mul",
    "digits_b:mul",
    "template:cot",
  ]);
  // The sim's implication: the same fit on each row's chance of being
  // right (from its code), not on the drawn outcomes.
  const expected = rows.map((r) => ({
    ...r,
    correct: simProduct("sim-average", Number(r.digits_a), Number(r.digits_b)),
  }));
  const [projection] = fitErrorModels(expected);
  const implied = (name: string) =>
    projection!.coefficients.find((c) => c.name === name)!.estimate;
  // √(a·b) is symmetric and the pairs asked are: the implied slopes are
  // equal; the template does not enter: the implied cot effect is 0 (up
  // to the ridge).
  assert.ok(Math.abs(implied("digits_a:mul") - implied("digits_b:mul")) < 1e-6);
  assert.ok(Math.abs(implied("template:cot")) < 1e-3);
  const coef = (name: string) => fit.coefficients[names.indexOf(name)]!;
  const a = coef("digits_a:mul"), b = coef("digits_b:mul");
  const cot = fit.templateEffects[0]!;
  const cov = fit.covariance;
  const diff = a.estimate - b.estimate;
  const diffHalf = Z95 * Math.sqrt(cov[1]![1]! + cov[2]![2]! - 2 * cov[1]![2]!);
  const f = (x: number) => x.toFixed(3);
  console.log(
    `${label}, ${fit.n} rows: digits_a ${f(a.estimate)} [${f(a.lo)}, ${
      f(a.hi)
    }], digits_b ${f(b.estimate)} [${f(b.lo)}, ${f(b.hi)}] (sim implies ${
      f(implied("digits_a:mul"))
    }); a − b ${f(diff)} ± ${f(diffHalf)}; cot against direct: log odds ${
      f(cot.logOdds)
    } [${f(cot.logOddsLo)}, ${f(cot.logOddsHi)}], odds ratio ${
      f(cot.oddsRatio)
    } [${f(cot.oddsRatioLo)}, ${f(cot.oddsRatioHi)}] (sim implies 1)`,
  );
  return {
    n: fit.n,
    cotN: cot.n,
    negative: a.hi < 0 && b.hi < 0,
    symmetric: Math.abs(diff) <= diffHalf,
    overlap: a.lo <= b.hi && b.lo <= a.hi,
    slopesHold: [a, b].every((c) =>
      c.lo <= implied(c.name) && implied(c.name) <= c.hi
    ),
    cotHolds: cot.logOddsLo <= 0 && 0 <= cot.logOddsHi,
  };
}

/**
 * Ten seeded sweeps (seeds 1–10, fixed before looking) of sim-average on
 * unequal products under direct and cot. Each 95% check holds with chance
 * 0.95 when the fit is right, so one sweep alone fails one of them about
 * one time in ten (seed 45 did: cot −0.31 [−0.55, −0.07], a 2.5 SE draw;
 * the sim draws direct and cot from independent streams); 8 or more of 10
 * holding has chance 0.99 when the coverage is 95%, and the pooled fit of
 * all 20,000 rows is the one single check.
 */
Deno.test("fitErrorModels() on sim-average sweeps of unequal products under direct and cot: symmetric operand slopes, and cot no worse, as the sim's code implies", async () => {
  const out = await Deno.makeTempDir({ prefix: "error-model-operands-" });
  try {
    const all: Record<string, unknown>[] = [];
    const checks: ReturnType<typeof productChecks>[] = [];
    for (let seed = 1; seed <= 10; seed++) {
      const rows = await productSweep(seed, out);
      all.push(...rows);
      const check = productChecks(rows, `seed ${seed}`);
      assert.equal(check.n, 2000);
      assert.equal(check.cotN, 1000);
      assert.ok(check.negative, `seed ${seed}: a slope is not negative`);
      checks.push(check);
    }
    const held = (k: "symmetric" | "overlap" | "slopesHold" | "cotHolds") =>
      checks.filter((c) => c[k]).length;
    console.log(
      `of 10: a − b holds 0 in ${held("symmetric")}, intervals meet in ${
        held("overlap")
      }, both slopes hold the implied one in ${
        held("slopesHold")
      }, cot holds 0 in ${held("cotHolds")}`,
    );
    assert.ok(held("symmetric") >= 8);
    assert.ok(held("overlap") >= 8);
    // Two intervals per sweep: each holds with 0.95, both with ≥ 0.90, so
    // 7 or more of 10 (chance ≥ 0.98).
    assert.ok(held("slopesHold") >= 7);
    assert.ok(held("cotHolds") >= 8);
    const pooled = productChecks(
      all,
      "pooled",
    );
    assert.ok(pooled.symmetric && pooled.overlap && pooled.cotHolds);
  } finally {
    await Deno.remove(out, { recursive: true });
  }
});

Deno.test("fitErrorModels() keeps one digits slope on an all-square grid, adds no template column for one template, and falls back to the first template as baseline", () => {
  const square = Array.from({ length: 300 }, (_, i) => {
    const digits = 2 + (i % 5);
    return {
      model: "m",
      template: i % 2 ? "cot" : "plain",
      question_id: `q${i}`,
      status: i % 7 < 7 - digits ? "correct" : "wrong",
      family: "mul",
      digits,
      digits_a: digits,
      digits_b: digits,
    };
  });
  const [fit] = fitErrorModels(square);
  // digits_a = digits_b: two slopes would be collinear with the intercept.
  assert.deepEqual(fit!.coefficients.map((c) => c.name), [
    "family:mul",
    "digits:mul",
    "template:cot",
  ]);
  // No `direct` here: the first template present is the baseline.
  assert.equal(fit!.baseline, "plain");
  assert.deepEqual(fit!.templateEffects.map((t) => t.template), ["cot"]);
  const one = square.filter((r) => r.template === "plain");
  const [single] = fitErrorModels(one);
  assert.deepEqual(single!.templateEffects, []);
  assert.ok(!single!.coefficients.some((c) => c.name.startsWith("template:")));
  // Unequal pairs off one line: one slope per operand.
  const unequal = square.map((r, i) => ({
    ...r,
    digits_b: i % 3 ? r.digits : 2,
  }));
  const names = fitErrorModels(unequal)[0]!.coefficients.map((c) => c.name);
  assert.ok(names.includes("digits_a:mul") && names.includes("digits_b:mul"));
  assert.ok(!names.includes("digits:mul"));
});
