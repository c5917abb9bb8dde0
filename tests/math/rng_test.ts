import assert from "node:assert/strict";
import {
  createRng,
  fnv1a32,
  intBetween,
  mix32,
  mulberry32,
  pick,
  pickWeighted,
} from "../../lib/math/mod.ts";

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

Deno.test("fnv1a32() is FNV-1a over UTF-16 code units, with the offset basis as an option", () => {
  assert.equal(fnv1a32(""), 0x811c9dc5);
  assert.equal(fnv1a32("a"), 0xe40c292c);
  assert.equal(fnv1a32("foobar"), 0xbf9cf968);
  assert.equal(fnv1a32("", 7), 7);
  assert.notEqual(fnv1a32("a", 7), fnv1a32("a"));
  assert.ok(fnv1a32("计算") >= 0 && fnv1a32("计算") < 2 ** 32);
});

Deno.test("createRng() is mulberry32 seeded with the key's fnv1a32", () => {
  const rng = createRng("arithmetic/add/d4/s42/0");
  const stream = mulberry32(fnv1a32("arithmetic/add/d4/s42/0"));
  for (let i = 0; i < 20; i++) assert.equal(rng.next(), stream());
  assert.equal(
    Math.floor(mulberry32(fnv1a32("pin"))() * 2 ** 32),
    Math.floor(createRng("pin").next() * 2 ** 32),
  );
});

Deno.test("intBetween(), pick() and pickWeighted() each take one draw of the stream", () => {
  const draws = [0, 0.5, 0.999];
  const next = () => draws.shift()!;
  assert.equal(intBetween(next, 3, 9), 3);
  assert.equal(pick(next, ["a", "b", "c"]), "b");
  assert.equal(pickWeighted(next, { a: 1, b: 0, c: 3 }), "c");
  assert.deepEqual(draws, []);
  assert.throws(() => pick(() => 0.5, []), RangeError);
  assert.throws(() => pickWeighted(() => 0.5, { a: 0 }), RangeError);
  const rng = createRng("same");
  const stream = mulberry32(fnv1a32("same"));
  assert.equal(rng.pick(["x", "y", "z"]), pick(stream, ["x", "y", "z"]));
  assert.equal(rng.int(-5, 5), intBetween(stream, -5, 5));
});

Deno.test("mix32() is the murmur3 finaliser of a and b times the golden ratio", () => {
  assert.equal(mix32(0, 0), 0);
  assert.equal(mix32(1, 2), mix32(1, 2));
  assert.notEqual(mix32(1, 2), mix32(2, 1));
  assert.ok(mix32(0xffffffff, 0xffffffff) >= 0);
});
