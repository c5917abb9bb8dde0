import assert from "node:assert/strict";
import {
  buildIdentity,
  identityDifferences,
  type IdentityInput,
  type IdentitySuite,
} from "../../lib/store/mod.ts";

const file = (name: string, fill: string, bytes = 10): IdentityInput => ({
  name,
  sha256: fill.repeat(64),
  bytes,
  encoding: "utf-8",
});
const suite = (edit: Partial<IdentitySuite> = {}): IdentitySuite => ({
  entry: "suites[0]",
  suite: "arithmetic",
  version: "1",
  templates: ["direct"],
  questions: 6,
  questionsSha256: "c".repeat(64),
  ...edit,
});
const identity = (
  inputs: IdentityInput[] = [file("q.jsonl", "a")],
  suites: IdentitySuite[] = [suite()],
  rowConfig: Record<string, unknown> = { seed: 0 },
) => buildIdentity({ rowConfig, inputs, suites });

Deno.test("identityDifferences() names each kind of change, and none for the same run", () => {
  const base = identity();
  assert.deepEqual(identityDifferences(base, identity()), []);
  // Input order does not matter: inputs are sorted by name.
  const two = [file("a.csv", "1"), file("b.csv", "2")];
  assert.equal(identity(two).hash, identity([...two].reverse()).hash);
  const cases: [ReturnType<typeof identity>, RegExp][] = [
    [
      identity([file("q.jsonl", "b", 12)]),
      /^the file q\.jsonl changed \(sha256 aaaaaaaaaaaa… → bbbbbbbbbbbb…, 10 → 12 bytes\)$/,
    ],
    [identity([]), /^the file q\.jsonl is no longer read$/],
    [
      identity([file("q.jsonl", "a"), file("r.jsonl", "d")]),
      /^the file r\.jsonl is read now and was not$/,
    ],
    [
      identity(undefined, [suite({ version: "2" })]),
      /^suites\[0\] \(arithmetic\): the suite's generator changed \(version 1 → 2\)$/,
    ],
    [
      identity(undefined, [suite({ templates: ["direct", "cot"] })]),
      /^suites\[0\] \(arithmetic\): templates direct → direct, cot$/,
    ],
    [
      identity(undefined, [
        suite({ questions: 7, questionsSha256: "e".repeat(64) }),
      ]),
      /^suites\[0\] \(arithmetic\): its questions differ \(6 → 7 questions/,
    ],
    [
      identity(undefined, [suite(), suite({ entry: "suites[1]" })]),
      /^suites\[1\] \(arithmetic\) is new$/,
    ],
    [
      identity(undefined, undefined, { seed: 1 }),
      /^the config's row-deciding fields or --limit$/,
    ],
  ];
  for (const [changed, pattern] of cases) {
    const said = identityDifferences(base, changed);
    assert.equal(said.length, 1, said.join("; "));
    assert.match(said[0]!, pattern);
    assert.notEqual(changed.hash, base.hash);
  }
});

Deno.test("buildIdentity() leaves an input's encoding and size out of the hash (its content hash decides)", () => {
  const a = identity([{ ...file("q.csv", "a"), encoding: "gb18030" }]);
  const b = identity([{ ...file("q.csv", "a"), encoding: "utf-8" }]);
  assert.equal(a.hash, b.hash);
  assert.equal(a.inputs[0]?.encoding, "gb18030");
});
