/**
 * `deno task mutation [--problem ID ...] [--language python|javascript]
 * [--max N] [--max-python N] [--survivors]`: runs the mutation testing of
 * the code bank and prints one row per problem and language (mutants,
 * killed, score), the min/median score per language, the problems below
 * `MUTATION_THRESHOLD` and, with `--survivors`, every surviving mutant.
 * Exits 1 when a problem is below the threshold or no mutant was made for
 * one (a score of nothing), 2 for bad input (an unknown problem, a flag).
 *
 * @module
 */
import { parseCli, runCli, usageError } from "../../../args.ts";
import { loadBank } from "../bank/mod.ts";
import {
  DEFAULT_MAX_MUTANTS,
  MUTATION_THRESHOLD,
  type MutationLanguage,
  mutationScores,
} from "./mod.ts";

const USAGE =
  "Usage: deno task mutation [--problem ID ...] [--language python|javascript] [--max N] [--max-python N] [--survivors]";

/** Bad input to this command (exit 2). */
class MutationInputError extends Error {
  override name = "MutationInputError";
}

/** A count flag: a whole number of at least 1 (0 would measure nothing). */
function count(flag: string, text: string | undefined): number | undefined {
  if (text === undefined) return undefined;
  const n = Number(text);
  if (!Number.isInteger(n) || n < 1) {
    throw usageError(
      `Cannot use ${flag} ${text}: expected a whole number of mutants of at least 1 (0 would score nothing)`,
      USAGE,
    );
  }
  return n;
}

async function main(argv: string[]): Promise<number> {
  const { values } = parseCli(argv, {
    usage: USAGE,
    allowPositionals: false,
    options: {
      problem: { type: "string", multiple: true },
      language: { type: "string", multiple: true },
      max: { type: "string" },
      "max-python": { type: "string" },
      survivors: { type: "boolean", default: false },
    },
  });
  const languages: MutationLanguage[] = [];
  for (const l of values.language ?? []) {
    if (l !== "python" && l !== "javascript") {
      throw usageError(
        `Cannot use --language ${l}: expected python or javascript`,
        USAGE,
      );
    }
    languages.push(l);
  }
  const max = count("--max", values.max) ?? DEFAULT_MAX_MUTANTS;
  const maxPython = count("--max-python", values["max-python"]);
  const showSurvivors = values.survivors;
  const problems = values.problem ?? [];
  const bank = await loadBank();
  const known = new Set(bank.map((p) => p.id));
  const unknown = problems.filter((id) => !known.has(id));
  if (unknown.length > 0) {
    throw new MutationInputError(
      `Cannot run mutation testing: no problem ${
        unknown.map((id) => `"${id}"`).join(", ")
      } in the bank; give --problem with one of ${[...known].join(", ")}`,
    );
  }

  const started = performance.now();
  const reports = await mutationScores({
    bank,
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
  const empty = reports.filter((r) => r.mutants === 0);
  if (empty.length > 0) {
    console.error(
      `No mutant was made for ${
        empty.map((r) => `${r.problem} (${r.language})`).join(", ")
      }: their scores measure nothing; mutation testing failed there`,
    );
    return 1;
  }
  return below.length ? 1 : 0;
}

if (import.meta.main) Deno.exit(await runCli(() => main(Deno.args)));
