/**
 * `deno task mutation [--problem ID ...] [--language python|javascript]
 * [--max N] [--max-python N] [--survivors]`: runs the mutation testing of
 * the code bank and prints one row per problem and language (mutants,
 * killed, score), the min/median score per language, the problems below
 * `MUTATION_THRESHOLD` and, with `--survivors`, every surviving mutant.
 * Exits 1 when a problem is below the threshold.
 *
 * @module
 */
import {
  DEFAULT_MAX_MUTANTS,
  MUTATION_THRESHOLD,
  type MutationLanguage,
  mutationScores,
} from "./mod.ts";

const USAGE =
  "usage: deno task mutation [--problem ID ...] [--language python|javascript] [--max N] [--max-python N] [--survivors]";

function fail(message: string): never {
  console.error(message);
  console.error(USAGE);
  Deno.exit(2);
}

function count(flag: string, text: string | undefined): number {
  const n = Number(text);
  if (!Number.isInteger(n) || n < 0) {
    fail(
      `Cannot parse ${flag}: expected a non-negative integer, got ${text}`,
    );
  }
  return n;
}

const args = [...Deno.args];
const problems: string[] = [];
const languages: MutationLanguage[] = [];
let max = DEFAULT_MAX_MUTANTS;
let maxPython: number | undefined;
let showSurvivors = false;
while (args.length) {
  const a = args.shift()!;
  if (a === "--problem") problems.push(args.shift() ?? fail("no problem id"));
  else if (a === "--language") {
    const l = args.shift();
    if (l !== "python" && l !== "javascript") {
      fail(`Cannot parse --language: expected python or javascript, got ${l}`);
    }
    languages.push(l);
  } else if (a === "--max") max = count(a, args.shift());
  else if (a === "--max-python") maxPython = count(a, args.shift());
  else if (a === "--survivors") showSurvivors = true;
  else fail(`Cannot parse the arguments: unknown flag ${a}`);
}

const started = performance.now();
const reports = await mutationScores({
  ...(problems.length ? { problems } : {}),
  ...(languages.length ? { languages } : {}),
  maxMutants: max,
  ...(maxPython === undefined ? {} : { maxPythonMutants: maxPython }),
});
const seconds = (performance.now() - started) / 1000;

const pad = (s: string | number, n: number) => String(s).padEnd(n);
console.log(
  `${pad("problem", 28)}${pad("language", 12)}${pad("mutants", 9)}${
    pad("killed", 8)
  }score`,
);
for (const r of reports) {
  console.log(
    `${pad(r.problem, 28)}${pad(r.language, 12)}${pad(r.mutants, 9)}${
      pad(r.killed, 8)
    }${r.score.toFixed(2)}${r.score < MUTATION_THRESHOLD ? "  below" : ""}`,
  );
  if (showSurvivors) {
    for (const s of r.survivors) {
      console.log(`    survives: ${s.description}`);
      for (const line of s.diff.split("\n")) console.log(`      ${line}`);
    }
  }
  for (const e of r.equivalent) {
    console.log(
      `    equivalent (not counted${
        e.killed ? "; KILLED, so not equivalent: remove it from the list" : ""
      }): ${e.description}: ${e.reason}`,
    );
  }
}
console.log("");
for (const l of ["javascript", "python"] as const) {
  const s = reports.filter((r) => r.language === l).map((r) => r.score).sort((
    a,
    b,
  ) => a - b);
  if (!s.length) continue;
  const mid = s.length % 2
    ? s[(s.length - 1) / 2]!
    : (s[s.length / 2 - 1]! + s[s.length / 2]!) / 2;
  console.log(
    `${pad(l, 12)}min ${s[0]!.toFixed(2)}  median ${mid.toFixed(2)}  (${
      reports.filter((r) => r.language === l).reduce(
        (a, r) => a + r.mutants,
        0,
      )
    } mutants)`,
  );
}
const below = reports.filter((r) => r.score < MUTATION_THRESHOLD);
console.log(
  `${below.length} below the threshold ${MUTATION_THRESHOLD}${
    below.length
      ? ": " + below.map((r) => `${r.problem} (${r.language})`).join(", ")
      : ""
  }; ${seconds.toFixed(1)} s`,
);
if (below.length) Deno.exit(1);
