/**
 * Measures the suites' answer extraction on the held-out extraction corpus
 * (`tests/extract/corpus/`, see its README): every reply goes through the
 * extraction a run uses, `getSuite(name).extract(question, completion)`,
 * and is compared with what a careful grader reads. Accuracy is reported
 * per extractor and per half (development, held out).
 *
 * Only `getSuite` and `Suite.extract` are used, so the same file measures
 * an older checkout of the project too (copy it and the corpus there).
 *
 * Run: `deno run -A tests/extract/corpus.ts [--dir <corpus>] [--show-dev-misses]`.
 *
 * @module
 */
import { getSuite } from "../../lib/suites/mod.ts";
import type { Completion, Extraction, Question } from "../../lib/types.ts";

/** The corpus's three files, by the suite whose extraction reads them. */
export const CORPUS_FILES = {
  number: "arithmetic",
  choice: "ceval",
  code: "code",
} as const;

/** One file of the corpus. */
export type CorpusKind = keyof typeof CORPUS_FILES;

/** What a grader reads in a reply. */
export type Expected =
  | { value: string }
  | { none: "refusal" | "no_answer" | "no_code" }
  | { ambiguous: string[] }
  | { contains: string[]; excludes: string[] };

/** One line of a corpus file. */
export interface CorpusLine {
  id: string;
  split: "dev" | "heldout";
  style: string[];
  question: Record<string, unknown>;
  reply: string;
  expected: Expected;
  why: string;
}

/**
 * The half a line belongs to: the low bit of the first byte of the
 * SHA-256 of its id (fixed, so no case can move between halves).
 */
export async function splitOf(id: string): Promise<"dev" | "heldout"> {
  const digest = new Uint8Array(
    await crypto.subtle.digest("SHA-256", new TextEncoder().encode(id)),
  );
  return (digest[0]! & 1) === 0 ? "dev" : "heldout";
}

/** Reads one corpus file; null when it is missing. */
export async function readCorpus(
  dir: string,
  kind: CorpusKind,
): Promise<CorpusLine[] | null> {
  let text: string;
  try {
    text = await Deno.readTextFile(`${dir}/${kind}.jsonl`);
  } catch (error) {
    if (error instanceof Deno.errors.NotFound) return null;
    throw error;
  }
  return text.split("\n").filter((l) => l.trim() !== "").map((l, i) => {
    try {
      return JSON.parse(l) as CorpusLine;
    } catch {
      throw new Error(
        `Cannot read ${dir}/${kind}.jsonl line ${i + 1}: not JSON`,
      );
    }
  });
}

/** The question a suite's extraction is given, built as its loader builds it. */
function questionOf(kind: CorpusKind, line: CorpusLine): Question {
  const base = {
    id: line.id,
    suite: CORPUS_FILES[kind],
    answer: { kind: "text" as const, value: "" },
    dims: {},
  };
  const q = line.question;
  switch (kind) {
    case "number":
      return { ...base, text: String(q.text) } as unknown as Question;
    case "choice": {
      const choices = q.choices as Record<string, string>;
      return {
        ...base,
        text: String(q.text),
        payload: {
          item: { question: q.text, choices, answer: null, explanation: null },
        },
      } as unknown as Question;
    }
    case "code":
      return {
        ...base,
        text: String(q.prompt),
        payload: { language: q.language, entry: q.entry },
      } as unknown as Question;
  }
}

function completionOf(reply: string): Completion {
  return {
    text: reply,
    reasoning: null,
    finishReason: "stop",
    usage: { promptTokens: 0, completionTokens: 0 },
    latencyMs: 0,
    attempts: 1,
  };
}

/** Whether an extraction is what the grader reads. */
export function agrees(
  kind: CorpusKind,
  expected: Expected,
  got: Extraction,
): boolean {
  if ("none" in expected) return got.value === null;
  // An extractor that cannot say "ambiguous" is right to say nothing.
  if ("ambiguous" in expected) {
    return got.value === null || got.rule === "ambiguous";
  }
  if ("contains" in expected) {
    // `no_entry`: code kept only so the sandbox reports the entry missing,
    // which the run scores as a parse error.
    if (got.value === null || got.rule === "no_entry") return false;
    return expected.contains.every((s) => got.value!.includes(s)) &&
      expected.excludes.every((s) => !got.value!.includes(s));
  }
  if (kind === "choice") {
    return got.value?.toUpperCase() === expected.value.toUpperCase();
  }
  return got.value === expected.value;
}

/** One extractor's result on one half. */
export interface HalfResult {
  kind: CorpusKind;
  split: "dev" | "heldout";
  correct: number;
  total: number;
  misses: {
    id: string;
    expected: Expected;
    got: string | null;
    rule: string;
  }[];
}

/**
 * Runs the extraction of every present corpus file and scores it per half.
 *
 * @param dir The corpus folder.
 * @returns One result per file present and half, and the files missing.
 */
export async function measureCorpus(
  dir: string,
): Promise<{ results: HalfResult[]; missing: CorpusKind[] }> {
  const results: HalfResult[] = [];
  const missing: CorpusKind[] = [];
  for (const kind of Object.keys(CORPUS_FILES) as CorpusKind[]) {
    const lines = await readCorpus(dir, kind);
    if (lines === null) {
      missing.push(kind);
      continue;
    }
    const suite = getSuite(CORPUS_FILES[kind]);
    for (const split of ["dev", "heldout"] as const) {
      const half: HalfResult = {
        kind,
        split,
        correct: 0,
        total: 0,
        misses: [],
      };
      for (const line of lines.filter((l) => l.split === split)) {
        const got = await suite.extract(
          questionOf(kind, line),
          completionOf(line.reply),
        );
        half.total++;
        if (agrees(kind, line.expected, got)) half.correct++;
        else {
          half.misses.push({
            id: line.id,
            expected: line.expected,
            got: got.value,
            rule: got.rule,
          });
        }
      }
      results.push(half);
    }
  }
  return { results, missing };
}

if (import.meta.main) {
  const args = Deno.args;
  const at = args.indexOf("--dir");
  const dir = at >= 0
    ? args[at + 1]!
    : new URL("./corpus", import.meta.url).pathname;
  const { results, missing } = await measureCorpus(dir);
  for (const m of missing) console.log(`(${m}.jsonl missing: skipped)`);
  console.log("extractor  half      correct  total  accuracy");
  for (const r of results) {
    console.log(
      `${r.kind.padEnd(9)}  ${r.split.padEnd(8)}  ${
        String(r.correct).padStart(7)
      }  ${String(r.total).padStart(5)}  ${
        (100 * r.correct / r.total).toFixed(1).padStart(7)
      }%`,
    );
  }
  if (args.includes("--show-dev-misses")) {
    for (const r of results.filter((x) => x.split === "dev")) {
      for (const m of r.misses) {
        console.log(
          `${m.id}: expected ${JSON.stringify(m.expected)}, got ${
            JSON.stringify(m.got)
          } (${m.rule})`,
        );
      }
    }
  }
}
