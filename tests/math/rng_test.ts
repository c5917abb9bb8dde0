import assert from "node:assert/strict";
import { createRng } from "../../lib/math/mod.ts";

Deno.test("createRng() pins its stream for a key (stable across versions)", () => {
  const rng = createRng("arithmetic/add/d4/s42/0");
  const first = [rng.next(), rng.next()].map((x) => Math.floor(x * 1e6));
  const again = createRng("arithmetic/add/d4/s42/0");
  assert.deepEqual(
    [again.next(), again.next()].map((x) => Math.floor(x * 1e6)),
    first,
  );
  assert.equal(createRng("pin").digits(10), "1860930673");
  assert.notEqual(createRng("pin").digits(10), createRng("pin2").digits(10));
});

Deno.test("createRng() int() stays in range and covers it", () => {
  const rng = createRng("range");
  const seen = new Set<number>();
  for (let i = 0; i < 2000; i++) {
    const v = rng.int(3, 9);
    assert.ok(v >= 3 && v <= 9);
    seen.add(v);
  }
  assert.equal(seen.size, 7);
});

Deno.test("createRng() digits() has no leading zero unless asked", () => {
  const rng = createRng("digits");
  for (let i = 0; i < 500; i++) assert.match(rng.digits(3), /^[1-9]\d\d$/);
  const loose = Array.from({ length: 500 }, () => rng.digits(1, false));
  assert.ok(loose.includes("0"));
  assert.throws(() => rng.pick([]), RangeError);
});
