import assert from "node:assert/strict";
import {
  all,
  create,
  det,
  fraction as mFraction,
  inv,
  multiply,
  pow,
  trace as mTrace,
  transpose as mT,
} from "mathjs";
import {
  derivativeAt,
  determinant,
  evaluateRational,
  formatMatrix,
  formatRational,
  fraction,
  inverse,
  matMul,
  matPow,
  type Matrix,
  toMatrix,
  trace,
  transpose,
} from "../../lib/math/mod.ts";
import { createRng } from "../../lib/math/rng.ts";

function randomMatrix(
  rng: ReturnType<typeof createRng>,
  r: number,
  c: number,
): Matrix {
  return toMatrix(
    Array.from(
      { length: r },
      () =>
        Array.from(
          { length: c },
          () => rng.next() < 0.2 ? 0 : `${rng.int(-9, 9)}/${rng.int(1, 4)}`,
        ),
    ),
  );
}

const text = (m: unknown) => formatMatrix(m as Matrix);

Deno.test("matrix operations give mathjs' exact values on random rational matrices", () => {
  const rng = createRng("mathjs-parity");
  for (let i = 0; i < 300; i++) {
    const n = rng.int(1, 5);
    const a = randomMatrix(rng, n, n);
    const b = randomMatrix(rng, n, rng.int(1, 4));
    assert.equal(
      formatRational(determinant(a)),
      formatRational(fraction(det(a) as never)),
    );
    assert.equal(formatRational(trace(a)), formatRational(mTrace(a) as never));
    assert.deepEqual(formatMatrix(transpose(b)), text(mT(b)));
    assert.deepEqual(formatMatrix(matMul(a, b)), text(multiply(a, b)));
    const k = rng.int(1, 6);
    assert.deepEqual(formatMatrix(matPow(a, k)), text(pow(a, k)));
    if (determinant(a).n === 0n) {
      assert.throws(() => inverse(a), RangeError);
    } else {
      assert.deepEqual(formatMatrix(inverse(a)), text(inv(a)));
    }
  }
});

Deno.test("fraction() reads what mathjs' fraction() reads", () => {
  for (const v of ["3", "-1.25", "7/8", "0.(3)", 2.5, 10n ** 20n]) {
    assert.equal(
      formatRational(fraction(v)),
      formatRational(mFraction(v as never) as never),
    );
  }
  assert.throws(() => fraction(Infinity));
  assert.equal(formatRational(fraction(6n, 4n)), "3/2");
});

const fractionMath = create(all!, { number: "Fraction" });

/** mathjs' exact value as "p/q", or null when it fails or is not exact. */
function mathjsExact(run: () => unknown): string | null {
  try {
    const v = run();
    return fractionMath.typeOf(v) === "Fraction"
      ? formatRational(v as never)
      : null;
  } catch {
    return null;
  }
}

function ours(run: () => ReturnType<typeof fraction>): string | null {
  try {
    return formatRational(run());
  } catch {
    return null;
  }
}

const EXACT_TOKENS = [
  "1",
  "2",
  "3",
  "0",
  "10",
  "0.5",
  "1.25",
  "x",
  "x",
  "+",
  "-",
  "*",
  "/",
  "^",
  "(",
  ")",
  " ",
  "2x",
  "x^2",
  ".^",
  ".*",
];

/** A well-formed polynomial-like expression in x, as C-Eval stems write them. */
function poly(rng: ReturnType<typeof createRng>, depth: number): string {
  const leaf = () =>
    ["x", "1", "2", "3", "0.5", "4", "2x", "x^2"][rng.int(0, 7)]!;
  if (depth <= 0) return leaf();
  switch (rng.int(0, 6)) {
    case 0:
      return `(${poly(rng, depth - 1)})`;
    case 1:
      return `${rng.int(1, 5)}(${poly(rng, depth - 1)})`;
    case 2:
      return `(${poly(rng, depth - 1)})^${rng.int(0, 3)}`;
    case 3:
      return `-${poly(rng, depth - 1)}`;
    default: {
      const op = ["+", "-", "*", "/", " + ", " * "][rng.int(0, 5)]!;
      return `${poly(rng, depth - 1)}${op}${poly(rng, depth - 1)}`;
    }
  }
}

Deno.test("evaluateRational() gives mathjs' exact value with { number: 'Fraction' }", () => {
  const rng = createRng("mathjs-parity-exact");
  for (let i = 0; i < 3000; i++) {
    let expr = "";
    if (i % 2 === 0) expr = poly(rng, rng.int(1, 4));
    else {
      for (let k = rng.int(1, 8); k > 0; k--) {
        expr += EXACT_TOKENS[rng.int(0, EXACT_TOKENS.length - 1)];
      }
    }
    const x = fraction(BigInt(rng.int(-3, 3)), BigInt(rng.int(1, 2)));
    const want = mathjsExact(() =>
      fractionMath.evaluate(expr, { x: fractionMath.fraction(x as never) })
    );
    const got = ours(() => evaluateRational(expr, { x }));
    // mathjs falls back to a float for an irrational power; we give none.
    if (want !== null || got !== null) assert.equal(got, want, expr);
  }
});

Deno.test("derivativeAt() gives mathjs' derivative evaluated exactly", () => {
  const rng = createRng("mathjs-parity-derivative");
  for (let i = 0; i < 400; i++) {
    const expr = poly(rng, rng.int(1, 3));
    const at = fraction(BigInt(rng.int(-3, 3)));
    const want = mathjsExact(() =>
      fractionMath.derivative(expr, "x").evaluate({
        x: fractionMath.fraction(at as never),
      })
    );
    const got = ours(() => derivativeAt(expr, "x", at));
    if (want !== null) assert.equal(got, want, expr);
  }
});
