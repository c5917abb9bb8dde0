import assert from "node:assert/strict";
import {
  det,
  fraction as mFraction,
  inv,
  multiply,
  pow,
  trace as mTrace,
  transpose as mT,
} from "mathjs";
import {
  determinant,
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
