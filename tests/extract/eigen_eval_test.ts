import assert from "node:assert/strict";
import { evaluate } from "mathjs";
import { parseEigenvalueList, parseEntry } from "../../lib/extract/mod.ts";
import { createRng } from "../../lib/math/rng.ts";

/** The reading before mathjs left extraction: exact entry, else mathjs. */
function reference(item: string): string | null {
  const exact = parseEntry(item);
  if (exact !== null) return exact;
  try {
    const v = evaluate(item);
    if (typeof v !== "number" || !Number.isFinite(v)) return null;
    return String(Number(v.toPrecision(15)));
  } catch {
    return null;
  }
}

const TOKENS = [
  "1",
  "2",
  "3",
  "7",
  "10",
  "0",
  ".5",
  "3.",
  "2.25",
  "12",
  "+",
  "-",
  "*",
  "/",
  "(",
  ")",
  "sqrt(",
  "sqrt",
  " ",
  "\n",
  ".*",
  "./",
  "\u00A0",
  ".",
];
const NUMBERS = ["1", "2", "3", "5", "0", "0.5", "13", "4.", ".25"];

/** A well-formed expression in the shapes eigenvalues are written in. */
function grammar(rng: ReturnType<typeof createRng>, depth: number): string {
  const leaf = () => NUMBERS[rng.int(0, NUMBERS.length - 1)]!;
  if (depth <= 0) return leaf();
  switch (rng.int(0, 7)) {
    case 0:
      return `(${grammar(rng, depth - 1)})`;
    case 1:
      return `sqrt(${grammar(rng, depth - 1)})`;
    case 2:
      return `${leaf()}sqrt(${grammar(rng, depth - 1)})`;
    case 3:
      return `${leaf()}/${leaf()}sqrt(${grammar(rng, depth - 1)})`;
    case 4:
      return `-${grammar(rng, depth - 1)}`;
    case 5:
      return `(${grammar(rng, depth - 1)})(${grammar(rng, depth - 1)})`;
    default: {
      const op = ["+", "-", "*", "/", " + ", " - "][rng.int(0, 5)]!;
      return `${grammar(rng, depth - 1)}${op}${grammar(rng, depth - 1)}`;
    }
  }
}

function check(expr: string): void {
  const item = expr.trim();
  if (item === "" || /[,;]/.test(item)) return;
  const got = parseEigenvalueList(item);
  const want = reference(item);
  assert.deepEqual(
    got,
    want === null ? null : [want],
    `for ${JSON.stringify(item)}`,
  );
}

Deno.test("parseEigenvalueList() reads plain arithmetic exactly as mathjs' evaluate does (random well-formed expressions)", () => {
  const rng = createRng("eigen-eval-grammar");
  for (let i = 0; i < 4000; i++) check(grammar(rng, rng.int(1, 4)));
});

Deno.test("parseEigenvalueList() rejects what mathjs' evaluate rejects (random token soup)", () => {
  const rng = createRng("eigen-eval-soup");
  for (let i = 0; i < 6000; i++) {
    const n = rng.int(1, 9);
    let expr = "";
    for (let k = 0; k < n; k++) expr += TOKENS[rng.int(0, TOKENS.length - 1)];
    check(expr);
  }
});

Deno.test("parseEigenvalueList() keeps mathjs' implicit-multiplication rules", () => {
  // "1/2sqrt(3)" is (1/2)·√3 in mathjs, "1/(2)sqrt(3)" is 1/(2·√3)… as are its neighbours.
  for (
    const expr of [
      "1/2sqrt(3)",
      "1/(2)sqrt(3)",
      "2sqrt(3)/4",
      "(1+sqrt(5))/2",
      "3 - 2sqrt(2)",
      "-1/2 sqrt(2)",
      "1/2/3sqrt(2)",
      "sqrt(4)(2)",
      "(2).5",
      "2 3",
      "sqrt(-1)",
      "sqrt 2",
      "1+\n2",
      "(1\n+2)",
      "1\n2",
    ]
  ) check(expr);
  assert.deepEqual(parseEigenvalueList("1/2sqrt(4)"), ["1"]);
});
