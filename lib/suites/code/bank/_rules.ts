/**
 * The format rules beyond the schema: test counts, entry names in the
 * sources, naive solutions, checker presence, JSON-safe integers.
 *
 * @module
 */
import { COMPLEXITY_CLASSES, type ProblemFile } from "./schema.ts";

/** One broken rule: the field (or file) and the sentence "<why>; <what to do>". */
export interface RuleIssue {
  /** The file of the problem folder at fault. @default "problem.json" */
  file?: string;
  field: string;
  message: string;
}

/** The files of a problem folder, as read (undefined when absent). */
export interface ProblemSources {
  folder: string;
  referencePy?: string | undefined;
  referenceJs?: string | undefined;
  naivePy?: string | undefined;
  naiveJs?: string | undefined;
  hasLarge: boolean;
  hasChecker: boolean;
}

const MIN_FUNCTIONAL = 5;
const MIN_EDGE = 3;
const LIMIT = 2 ** 53;

function escapeRe(s: string): string {
  return s.replace(/[$]/g, "\\$");
}

function definesPython(src: string, name: string): boolean {
  return new RegExp(`^def\\s+${escapeRe(name)}\\s*\\(`, "m").test(src);
}

function definesJs(src: string, name: string): boolean {
  return new RegExp(`^(async\\s+)?function\\s+${escapeRe(name)}\\s*\\(`, "m")
    .test(src);
}

function unsafeNumber(value: unknown): number | undefined {
  if (typeof value === "number") {
    return Number.isInteger(value) && Math.abs(value) > LIMIT
      ? value
      : undefined;
  }
  if (Array.isArray(value)) {
    for (const v of value) {
      const bad = unsafeNumber(v);
      if (bad !== undefined) return bad;
    }
  } else if (value !== null && typeof value === "object") {
    for (const v of Object.values(value)) {
      const bad = unsafeNumber(v);
      if (bad !== undefined) return bad;
    }
  }
  return undefined;
}

/** Checks the rules of the format that the zod schema cannot express. */
export function checkRules(p: ProblemFile, s: ProblemSources): RuleIssue[] {
  const issues: RuleIssue[] = [];
  const add = (field: string, message: string, file?: string) =>
    issues.push(file ? { file, field, message } : { field, message });
  if (p.id !== s.folder) {
    add(
      "id",
      `expected "${s.folder}" (the folder name), found "${p.id}"; set "id" to "${s.folder}" (a problem's id is its folder's name)`,
    );
  }
  const functional = p.tests.filter((t) => t.kind === "functional").length;
  const edge = p.tests.filter((t) => t.kind === "edge").length;
  if (functional < MIN_FUNCTIONAL) {
    add(
      "tests",
      `expected at least ${MIN_FUNCTIONAL} functional tests, found ${functional}; add functional tests ({ "args": [...], "kind": "functional" })`,
    );
  }
  if (edge < MIN_EDGE) {
    add(
      "tests",
      `expected at least ${MIN_EDGE} edge tests, found ${edge}; add edge tests (empty, single element, duplicates, negatives, extremes)`,
    );
  }
  p.tests.forEach((t, i) => {
    const bad = unsafeNumber(t.args);
    if (bad !== undefined) {
      add(
        `tests[${i}].args`,
        `the integer ${bad} is beyond ±2^53 and cannot cross JSON exactly; use a smaller value`,
      );
    }
  });
  const sizes = p.large.sizes;
  if (sizes.some((n, i) => i > 0 && n <= (sizes[i - 1] ?? 0))) {
    add(
      "large.sizes",
      `expected strictly increasing sizes, found [${
        sizes.join(", ")
      }]; list them in increasing (usually doubling) order`,
    );
  }
  if (
    COMPLEXITY_CLASSES.indexOf(p.naive_complexity) <=
      COMPLEXITY_CLASSES.indexOf(p.complexity)
  ) {
    add(
      "naive_complexity",
      `"${p.naive_complexity}" is not slower than the required "${p.complexity}"; the naive solution must be of a worse class`,
    );
  }
  if (
    p.reference_complexity !== undefined &&
    COMPLEXITY_CLASSES.indexOf(p.reference_complexity) >
      COMPLEXITY_CLASSES.indexOf(p.complexity)
  ) {
    add(
      "reference_complexity",
      `"${p.reference_complexity}" is slower than the required "${p.complexity}"; the reference must meet the requirement (leave the field out when its class is the required one)`,
    );
  }
  const sources: [string, string | undefined, "python" | "javascript"][] = [
    ["reference.py", s.referencePy, "python"],
    ["reference.js", s.referenceJs, "javascript"],
    ["naive.py", s.naivePy, "python"],
    ["naive.js", s.naiveJs, "javascript"],
  ];
  for (const [file, src, language] of sources) {
    if (src === undefined) {
      if (file.startsWith("reference")) {
        add(
          `entry.${language}`,
          `missing; add the ${language} reference solution defining ${
            p.entry[language]
          }`,
          file,
        );
      }
      continue;
    }
    const name = p.entry[language];
    const ok = language === "python"
      ? definesPython(src, name)
      : definesJs(src, name);
    if (!ok) {
      add(
        `entry.${language}`,
        `does not define the entry ${
          language === "python" ? `def ${name}(` : `function ${name}(`
        } at the top level; name the function as in problem.json "entry.${language}"`,
        file,
      );
    }
  }
  if (s.naivePy === undefined && s.naiveJs === undefined) {
    add(
      "naive",
      "neither naive.py nor naive.js exists; add a correct but asymptotically slower solution in at least one language",
    );
  }
  if (!s.hasLarge) {
    add(
      "large",
      "missing; add `export function large(n, rng) { ... return [arg1, ...]; }`",
      "large.js",
    );
  }
  if (p.compare === "checker" && !s.hasChecker) {
    add(
      "compare",
      'compare is "checker" but checker.js is missing; add `export function check(args, output) { ... }`',
      "checker.js",
    );
  }
  if (p.compare !== "checker" && s.hasChecker) {
    add(
      "compare",
      `present but compare is ${
        JSON.stringify(p.compare)
      }, so checker.js would not be used; set compare to "checker" to judge with it`,
      "checker.js",
    );
  }
  return issues;
}
