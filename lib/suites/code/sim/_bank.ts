/**
 * What the sim "remembers" of the problem bank: each problem's name,
 * signature, topic, difficulty and solution sources, read synchronously
 * (skills are synchronous) from `data/code/problems` at first use, and
 * HumanEval's prompts and canonical solutions. The tests and their
 * expected outputs are never read.
 *
 * @module
 */
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { gunzipSync } from "node:zlib";
import { BUNDLED_CODE_PROBLEMS } from "../bank/mod.ts";

/** A language the sim writes. */
export type SimLanguage = "python" | "javascript";

/** One remembered problem. */
export interface RecalledProblem {
  /** The problem's id (`problem.json`'s `id`). */
  id: string;
  /** The problem's title. */
  title: string;
  /** Its topic (e.g. `graphs`, `dp`). */
  topic: string;
  /** Its difficulty. */
  difficulty: "easy" | "medium" | "hard";
  /** The reference solution's time complexity, e.g. `O(n log n)`. */
  complexity: string;
  /** The complexity of the slow, obvious solution. */
  naiveComplexity: string;
  /** The function each language's solution defines. */
  entry: Record<SimLanguage, string>;
  /** Each language's function signature, as the prompt shows it. */
  signature: Record<SimLanguage, string>;
  /** The problem's folder in the bank. */
  dir: string;
}

let byEntry: Map<string, RecalledProblem> | null = null;
const sources = new Map<string, string | null>();

function readOptional(path: string): string | null {
  try {
    return Deno.readTextFileSync(path);
  } catch {
    return null;
  }
}

function str(v: unknown): string | null {
  return typeof v === "string" && v !== "" ? v : null;
}

function recall(dir: string): RecalledProblem | null {
  const text = readOptional(join(dir, "problem.json"));
  if (text === null) return null;
  let raw: Record<string, unknown>;
  try {
    raw = JSON.parse(text);
  } catch {
    return null;
  }
  const entry = raw.entry as Record<string, unknown> | undefined;
  const sig = raw.signature as Record<string, unknown> | undefined;
  const id = str(raw.id), py = str(entry?.python), js = str(entry?.javascript);
  const pySig = str(sig?.python), jsSig = str(sig?.javascript);
  const difficulty = raw.difficulty;
  if (
    !id || !py || !js || !pySig || !jsSig ||
    (difficulty !== "easy" && difficulty !== "medium" && difficulty !== "hard")
  ) return null;
  return {
    id,
    title: str(raw.title) ?? id,
    topic: str(raw.topic) ?? "",
    difficulty,
    complexity: str(raw.complexity) ?? "",
    naiveComplexity: str(raw.naive_complexity) ?? "",
    entry: { python: py, javascript: js },
    signature: { python: pySig, javascript: jsSig },
    dir,
  };
}

function load(): Map<string, RecalledProblem> {
  const map = new Map<string, RecalledProblem>();
  let names: string[] = [];
  try {
    names = [...Deno.readDirSync(BUNDLED_CODE_PROBLEMS)]
      .filter((e) => e.isDirectory).map((e) => e.name).sort();
  } catch {
    // No bank (or no read permission): every problem is unknown.
  }
  for (const name of names) {
    const p = recall(join(BUNDLED_CODE_PROBLEMS, name));
    if (!p) continue;
    map.set(p.entry.python, p);
    map.set(p.entry.javascript, p);
  }
  return map;
}

/** The remembered problem whose entry function (either language) is `name`. */
export function recallProblem(name: string): RecalledProblem | undefined {
  byEntry ??= load();
  return byEntry.get(name);
}

/** A solution source (`reference` or `naive`) in a language, if the bank has one. */
export function recallSource(
  p: RecalledProblem,
  kind: "reference" | "naive",
  language: SimLanguage,
): string | null {
  const path = join(p.dir, `${kind}.${language === "python" ? "py" : "js"}`);
  let text = sources.get(path);
  if (text === undefined) {
    text = readOptional(path);
    if (text !== null) {
      // The bank's lint pragma is bookkeeping, not something a model writes.
      text = text.replace(/^\/\/ deno-lint-ignore-file[^\n]*\n/, "")
        .trimEnd();
    }
    sources.set(path, text);
  }
  return text;
}

/** One remembered HumanEval problem: its prompt and canonical solution. */
export interface RecalledHumanEval {
  /** HumanEval's task id, e.g. `HumanEval/0`. */
  taskId: string;
  /** The function the task defines. */
  entry: string;
  /** The task's prompt: signature and docstring. */
  prompt: string;
  /** `prompt + canonical_solution`: the whole function. */
  solution: string;
}

const HUMANEVAL = fileURLToPath(
  new URL("../../../../data/humaneval/HumanEval.jsonl.gz", import.meta.url),
);
let humanEval: Map<string, RecalledHumanEval[]> | null = null;

function loadHumanEval(): Map<string, RecalledHumanEval[]> {
  const map = new Map<string, RecalledHumanEval[]>();
  let text = "";
  try {
    text = new TextDecoder().decode(gunzipSync(Deno.readFileSync(HUMANEVAL)));
  } catch {
    // No HumanEval file (or no permission): its problems stay unknown.
  }
  for (const line of text.split("\n")) {
    if (!line.trim()) continue;
    try {
      const row = JSON.parse(line);
      const entry = str(row.entry_point), prompt = str(row.prompt);
      const body = str(row.canonical_solution), taskId = str(row.task_id);
      if (!entry || !prompt || !body || !taskId) continue;
      const list = map.get(entry) ?? [];
      list.push({ taskId, entry, prompt, solution: prompt + body });
      map.set(entry, list);
    } catch {
      // A malformed line is skipped.
    }
  }
  return map;
}

/**
 * The HumanEval problem whose entry is `name` and whose prompt appears in
 * `question` (several share an entry name; a helper defined in another problem's prompt has that problem's name), if any.
 */
export function recallHumanEval(
  name: string,
  question: string,
): RecalledHumanEval | undefined {
  humanEval ??= loadHumanEval();
  const rows = humanEval.get(name);
  if (!rows) return undefined;
  return rows.find((r) => question.includes(r.prompt.trim()));
}
