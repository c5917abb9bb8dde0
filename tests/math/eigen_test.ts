import assert from "node:assert/strict";
import { fraction } from "mathjs";
import {
  characteristicPolynomial,
  determinant,
  eigenvalueList,
  eigenvalues,
  realRoots,
  toMatrix,
  toSignificant,
  trace,
} from "../../lib/math/mod.ts";
import { createRng } from "../../lib/math/rng.ts";

const f = (v: number | bigint) => fraction(BigInt(v));

Deno.test("characteristicPolynomial() has −trace and ±det as coefficients", () => {
  const rng = createRng("charpoly");
  for (let n = 2; n <= 6; n++) {
    const m = toMatrix(
      Array.from(
        { length: n },
        () => Array.from({ length: n }, () => rng.int(-5, 5)),
      ),
    );
    const c = characteristicPolynomial(m);
    assert.equal(c.length, n + 1);
    assert.equal(c[n]!.toString(), "1");
    assert.equal(c[n - 1]!.toString(), trace(m).neg().toString());
    const det = determinant(m);
    assert.equal(c[0]!.toString(), (n % 2 ? det.neg() : det).toString());
  }
});

Deno.test("realRoots() finds rational roots exactly, with multiplicities", () => {
  // (x − 2)² (x + 1/2)(x − 7) = expand via products of linear factors
  const mul = (p: ReturnType<typeof f>[], q: ReturnType<typeof f>[]) => {
    const out = Array.from({ length: p.length + q.length - 1 }, () => f(0));
    p.forEach((a, i) =>
      q.forEach((b, j) => (out[i + j] = out[i + j]!.add(a.mul(b))))
    );
    return out;
  };
  const lin = (r: string) => [fraction(r).neg(), f(1)];
  const p = [lin("2"), lin("2"), lin("-1/2"), lin("7")].reduce(mul);
  const roots = realRoots(p);
  assert.deepEqual(roots.map((r) => [r.text, r.multiplicity]), [["-1/2", 1], [
    "2",
    2,
  ], ["7", 1]]);
  assert.ok(roots.every((r) => r.exact !== null));
});

Deno.test("realRoots() gives irrational roots to ≥10 significant digits inside exact brackets", () => {
  // x³ − 2: the real root is 2^(1/3) = 1.2599210498948731647...
  const [r] = realRoots([f(-2), f(0), f(0), f(1)]);
  assert.equal(r!.exact, null);
  assert.ok(r!.text.startsWith("1.25992104989487"), r!.text);
  assert.ok(
    r!.lower.pow(3).compare(f(2)) < 0 && r!.upper.pow(3).compare(f(2)) > 0,
  );
  // x² − 3x + 1 has roots (3 ± √5)/2
  const two = realRoots([f(1), f(-3), f(1)]);
  assert.deepEqual(two.map((x) => x.approx.toFixed(12)), [
    ((3 - Math.sqrt(5)) / 2).toFixed(12),
    ((3 + Math.sqrt(5)) / 2).toFixed(12),
  ]);
  // A repeated irrational root: (x² − 2)²
  const rep = realRoots([f(4), f(0), f(-4), f(0), f(1)]);
  assert.deepEqual(rep.map((x) => x.multiplicity), [2, 2]);
  // No real roots: x² + 1
  assert.deepEqual(realRoots([f(1), f(0), f(1)]), []);
});

Deno.test("toSignificant() rounds half away from zero to the given digits", () => {
  assert.equal(toSignificant(fraction("0.000123456"), 3), "0.000123");
  assert.equal(toSignificant(fraction("-2.5"), 1), "-3");
  assert.equal(toSignificant(fraction("123.456"), 4), "123.5");
});

Deno.test("eigenvalues() of symmetric matrices are real and sum to the trace", () => {
  const rng = createRng("eig-sym");
  for (let n = 2; n <= 7; n++) {
    const a = Array.from(
      { length: n },
      () => Array.from({ length: n }, () => rng.int(-4, 4)),
    );
    const s = a.map((r, i) => r.map((v, j) => v + a[j]![i]!));
    const m = toMatrix(s);
    const e = eigenvalues(m);
    assert.equal(e.complexCount, 0, `n=${n}`);
    const list = eigenvalueList(m);
    assert.equal(list.length, n);
    const sum = list.reduce((t, v) => t + Number(v), 0);
    assert.ok(Math.abs(sum - Number(trace(m).valueOf())) < 1e-9, `n=${n}`);
  }
});

Deno.test("eigenvalues() counts non-real ones and eigenvalueList() refuses them", () => {
  const rot = toMatrix([[0, -1, 0], [1, 0, 0], [0, 0, 5]]);
  const e = eigenvalues(rot);
  assert.equal(e.complexCount, 2);
  assert.deepEqual(e.real.map((r) => r.text), ["5"]);
  assert.throws(() => eigenvalueList(rot), /Cannot list eigenvalues/);
});
