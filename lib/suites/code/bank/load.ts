/**
 * Loading the problem bank from disk.
 *
 * @module
 */
import { join, relative, resolve } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { checkRules, type RuleIssue } from "./_rules.ts";
import { InputLog } from "../../../inputs/mod.ts";
import { ProblemFileSchema } from "./schema.ts";
import type { Checker, CodeProblem, LargeGenerator } from "./types.ts";

/** The shipped bank: `data/code/problems` at the repository root. */
export const BUNDLED_CODE_PROBLEMS: string = fileURLToPath(
  new URL("../../../../data/code/problems", import.meta.url),
);

async function readOptional(
  path: string,
  inputs: InputLog,
): Promise<string | undefined> {
  try {
    return await inputs.readText(path);
  } catch (e) {
    if (e instanceof Deno.errors.NotFound) return undefined;
    throw e;
  }
}

/** SHA-256 (hex, first 16 characters) of the files that decide a verdict. */
async function versionOf(texts: string[]): Promise<string> {
  const bytes = new TextEncoder().encode(texts.join("\u0000"));
  const digest = new Uint8Array(await crypto.subtle.digest("SHA-256", bytes));
  return Array.from(digest.slice(0, 8), (b) => b.toString(16).padStart(2, "0"))
    .join("");
}

async function exists(path: string): Promise<boolean> {
  try {
    return (await Deno.stat(path)).isFile;
  } catch (e) {
    if (e instanceof Deno.errors.NotFound) return false;
    throw e;
  }
}

function shown(path: string): string {
  const rel = relative(Deno.cwd(), path);
  return rel.startsWith("..") ? path : rel;
}

async function importFunction(
  path: string,
  name: string,
): Promise<{ fn?: (...args: never[]) => unknown; issue?: RuleIssue }> {
  const file = path.slice(path.lastIndexOf("/") + 1);
  try {
    const mod = await import(pathToFileURL(path).href);
    const fn = mod[name];
    if (typeof fn !== "function") {
      return {
        issue: {
          file,
          field: "export",
          message:
            `does not export a function named ${name}; write \`export function ${name}(...) { ... }\``,
        },
      };
    }
    return { fn };
  } catch (e) {
    return {
      issue: {
        file,
        field: "import",
        message: `cannot be imported (${
          e instanceof Error ? e.message.split("\n")[0] : String(e)
        }); fix the module so it imports with no permissions and no imports`,
      },
    };
  }
}

type Loaded = { problem?: CodeProblem; issues: string[] };

async function loadOne(
  dir: string,
  folder: string,
  inputs: InputLog,
): Promise<Loaded> {
  const jsonPath = join(dir, "problem.json");
  const where = (field: string, message: string, file = "problem.json") =>
    `Cannot load the code problem ${
      shown(join(dir, file))
    }: ${field}: ${message}`;
  const text = await readOptional(jsonPath, inputs);
  if (text === undefined) {
    return {
      issues: [
        where(
          "(file)",
          `missing; add problem.json (see data/code/README.md), or give "dataset" a bank folder that holds only problem folders (every folder in it whose name does not start with "." is read as a problem)`,
        ),
      ],
    };
  }
  let raw: unknown;
  try {
    raw = JSON.parse(text);
  } catch (e) {
    return {
      issues: [
        where(
          "(file)",
          `not valid JSON (${(e as Error).message}); fix the syntax`,
        ),
      ],
    };
  }
  const parsed = ProblemFileSchema.safeParse(raw);
  if (!parsed.success) {
    return {
      issues: parsed.error.issues.map((issue) =>
        where(
          issue.path.map(String).join(".") || "(root)",
          `${issue.message}; fix the field (see data/code/README.md)`,
        )
      ),
    };
  }
  const p = parsed.data;
  const [referencePy, referenceJs, naivePy, naiveJs, hasLarge, hasChecker] =
    await Promise.all([
      readOptional(join(dir, "reference.py"), inputs),
      readOptional(join(dir, "reference.js"), inputs),
      readOptional(join(dir, "naive.py"), inputs),
      readOptional(join(dir, "naive.js"), inputs),
      exists(join(dir, "large.js")),
      exists(join(dir, "checker.js")),
    ]);
  const ruleIssues = checkRules(p, {
    folder,
    referencePy,
    referenceJs,
    naivePy,
    naiveJs,
    hasLarge,
    hasChecker,
  });
  let generateLarge: LargeGenerator | undefined;
  if (hasLarge) {
    const got = await importFunction(join(dir, "large.js"), "large");
    if (got.issue) ruleIssues.push(got.issue);
    else generateLarge = got.fn as unknown as LargeGenerator;
  }
  let checker: Checker | undefined;
  if (hasChecker && p.compare === "checker") {
    const got = await importFunction(join(dir, "checker.js"), "check");
    if (got.issue) ruleIssues.push(got.issue);
    else checker = got.fn as unknown as Checker;
  }
  if (
    ruleIssues.length > 0 || referencePy === undefined ||
    referenceJs === undefined || generateLarge === undefined
  ) {
    return {
      issues: ruleIssues.map((i) => where(i.field, i.message, i.file)),
    };
  }
  const naive: CodeProblem["naive"] = {};
  if (naivePy !== undefined) naive.python = naivePy;
  if (naiveJs !== undefined) naive.javascript = naiveJs;
  const problem: CodeProblem = {
    version: "",
    id: p.id,
    title: p.title,
    topic: p.topic,
    difficulty: p.difficulty,
    complexity: p.complexity,
    referenceComplexity: p.reference_complexity ?? p.complexity,
    naiveComplexity: p.naive_complexity,
    entry: p.entry,
    signature: p.signature,
    statement: p.statement,
    compare: p.compare,
    tests: p.tests,
    large: p.large,
    reference: { python: referencePy, javascript: referenceJs },
    naive,
    generateLarge,
    dir,
  };
  if (checker) problem.checker = checker;
  problem.version = await versionOf([
    text,
    referencePy,
    referenceJs,
    await readOptional(join(dir, "large.js"), inputs) ?? "",
    await readOptional(join(dir, "checker.js"), inputs) ?? "",
  ]);
  return { problem, issues: [] };
}

/**
 * Loads every problem folder of the bank: validates `problem.json` with zod
 * and the format's rules, reads the solution sources as text and imports
 * `large.js` (and `checker.js` when compare is "checker").
 *
 * @param dir A folder of problem folders; default: the shipped
 *   `data/code/problems`.
 * @param options `inputs`: the log the files are read through (strict
 *   UTF-8, recorded by content for the run's identity). @default a fresh log
 * @returns The problems, sorted by id.
 * @throws {Deno.errors.NotFound} When `dir` does not exist.
 * @throws {TypeError} When any problem breaks the format: one line per issue
 *   for all problems at once, each naming the file and the field.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { loadBank } from "./load.ts";
 * const bank = await loadBank();
 * const p = bank.find((q) => q.id === "first_repeated_value");
 * assert.ok(p);
 * assert.match(p.reference.python, /^def first_repeated_value\(/m);
 * assert.ok(p.tests.filter((t) => t.kind === "edge").length >= 3);
 * ```
 */
export async function loadBank(
  dir: string = BUNDLED_CODE_PROBLEMS,
  options: { inputs?: InputLog } = {},
): Promise<CodeProblem[]> {
  const { inputs = new InputLog() } = options;
  const root = resolve(dir);
  const folders: string[] = [];
  try {
    for await (const entry of Deno.readDir(root)) {
      if (entry.isDirectory && !entry.name.startsWith(".")) {
        folders.push(entry.name);
      }
    }
  } catch (e) {
    if (e instanceof Deno.errors.NotFound) {
      throw new Deno.errors.NotFound(
        `Cannot load the code problem bank ${
          shown(root)
        }: the folder does not exist; pass a folder that holds one folder per problem`,
      );
    }
    throw e;
  }
  folders.sort();
  const loaded = await Promise.all(
    folders.map((f) => loadOne(join(root, f), f, inputs)),
  );
  const issues = loaded.flatMap((l) => l.issues);
  if (issues.length > 0) throw new TypeError(issues.join("\n"));
  if (folders.length === 0) {
    throw new TypeError(
      `Cannot load the code problem bank ${
        shown(root)
      }: no problem folders; add one (see data/code/README.md)`,
    );
  }
  return loaded.flatMap((l) => (l.problem ? [l.problem] : []));
}
