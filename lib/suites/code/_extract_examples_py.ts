/**
 * Which top-level statements of a Python program are example or test code
 * beside the entry (a `__main__` block, a print, an assert, a read of
 * stdin, a call of `main()`, a test loop), and which the entry may depend
 * on (imports, definitions, constants and tables, library calls such as
 * `sys.setrecursionlimit`, loops that fill a table).
 *
 * @module
 */
import type { ExampleStatement } from "./_extract_cut.ts";
import { type PyStatement, scanPython } from "./_py_scan.ts";

const MAIN =
  /^if\s*\(?\s*(?:__name__\s*==\s*(['"])__main__\1|(['"])__main__\2\s*==\s*__name__)\s*\)?\s*:/;
const STDIN =
  /(?<![\w.])(?:raw_)?input\s*\(|\bsys\s*\.\s*stdin\b|(?<![\w.])open\s*\(\s*0\s*[,)]|\bfileinput\b/;
const PRINT_START =
  /^(?:print|pprint(?:\s*\.\s*pprint)?|sys\s*\.\s*stdout\s*\.\s*write)\s*\(/;
const PRINT = /(?<![\w.])(?:print|pprint)\s*\(|\bsys\s*\.\s*stdout\b/;
const ASSERT = /(?<![\w.])assert\b/;
const RUNNER =
  /^(?:unittest\s*\.\s*main|doctest\s*\.\s*testmod|pytest\s*\.\s*main)\s*\(/;
const RUNNER_ANY =
  /\b(?:unittest\s*\.\s*main|doctest\s*\.\s*testmod|pytest\s*\.\s*main)\s*\(/;
const COMPOUND = new Set(["if", "for", "while", "with", "try", "match"]);
const SIMPLE_KEYWORDS = new Set([
  "pass",
  "del",
  "global",
  "nonlocal",
  "raise",
  "return",
  "break",
  "continue",
  "yield",
  "import",
  "from",
  "type",
]);
const MUTATORS =
  "append|appendleft|extend|add|update|insert|setdefault|push|heappush";

/** A pattern for the identifier `n` (not a part of a longer name or an attribute). */
function name(n: string): string {
  return `(?<![\\w.$])${n.replace(/\$/g, "\\$")}(?![\\w$])`;
}

/** The first of `names` that `text` calls, or null. */
function callOf(text: string, names: Iterable<string>): string | null {
  for (const n of names) {
    if (new RegExp(`${name(n)}\\s*\\(`).test(text)) return n;
  }
  return null;
}

/** The first of `names` that `text` mentions, or null. */
function mentionOf(text: string, names: Iterable<string>): string | null {
  for (const n of names) if (new RegExp(name(n)).test(text)) return n;
  return null;
}

/** Splits a masked simple statement at its top-level `=`, if it assigns. */
function assignment(
  masked: string,
): { targets: string[]; value: string } | null {
  let depth = 0;
  for (let i = 0; i < masked.length; i++) {
    const c = masked[i]!;
    if ("([{".includes(c)) depth++;
    else if (")]}".includes(c)) depth--;
    if (c !== "=" || depth !== 0) continue;
    if (masked[i + 1] === "=") {
      i++; // `==`
      continue;
    }
    const before = masked.slice(0, i);
    // `!=`, `<=`, `>=` and `:=` are not assignments; `<<=` and `>>=` are.
    if (/[!:]$|(?<![<>])[<>]$/.test(before)) continue;
    const lhs = before.replace(/(?:\*\*|\/\/|<<|>>|[-+*/%&|^@])$/, "");
    return { targets: targetsOf(lhs), value: masked.slice(i + 1) };
  }
  return null;
}

/** The plain names an assignment's left side binds (`a, (b, c)`, `x: int`). */
function targetsOf(lhs: string): string[] {
  let depth = 0;
  let cut = lhs.length;
  for (let i = 0; i < lhs.length; i++) {
    const c = lhs[i]!;
    if ("([{".includes(c)) depth++;
    else if (")]}".includes(c)) depth--;
    else if (c === ":" && depth === 0) {
      cut = i; // an annotation follows
      break;
    }
  }
  return lhs.slice(0, cut).replace(/[()[\]*]/g, " ").split(",")
    .map((t) => t.trim()).filter((t) => /^[A-Za-z_]\w*$/.test(t));
}

/** Names a compound statement binds anywhere in it (assignments, `for`, `as`). */
function boundIn(masked: string): Set<string> {
  const out = new Set<string>();
  for (
    const m of masked.matchAll(/^[ \t]*([\w, ()*]+?)\s*(?<![=!<>])=(?!=)/gm)
  ) {
    for (const t of targetsOf(m[1]!)) out.add(t);
  }
  for (const m of masked.matchAll(/\bfor\s+([\w, ()*]+?)\s+in\b/g)) {
    for (const t of targetsOf(m[1]!)) out.add(t);
  }
  for (const m of masked.matchAll(/\bas\s+([A-Za-z_]\w*)/g)) out.add(m[1]!);
  return out;
}

/** The masked body of a `def` or `class` without its own name after `def`. */
function bodyOf(s: PyStatement): string {
  return s.masked.replace(
    /^(\s*(?:async\s+)?(?:def|class)\s+)([A-Za-z_]\w*)/gm,
    (_, head: string, n: string) => head + " ".repeat(n.length),
  );
}

const DEF_NAME = /^(?:async\s+)?def\s+([A-Za-z_]\w*)/m;
const LAMBDA_NAME = /^([A-Za-z_]\w*)\s*=\s*lambda\b/;

/**
 * The program's top-level example or test statements; never throws.
 *
 * @param code The program (dedented, `\n` newlines).
 * @param entry The function that will be called.
 * @returns The statements to drop (in source order) and the lines that
 *   hold only a comment at column 0, or why the code cannot be scanned.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { pythonExamples } from "./_extract_examples_py.ts";
 * const found = pythonExamples("MOD = 7\ndef f(x):\n    return x % MOD\n\nn = int(input())\nprint(f(n))\n", "f");
 * assert.ok(!("error" in found));
 * assert.deepEqual(found.dropped.map((d) => d.kind), ["stdin read", "print call"]);
 * ```
 */
export function pythonExamples(
  code: string,
  entry: string,
): { dropped: ExampleStatement[]; commentLines: Set<number> } | {
  error: string;
} {
  const scan = scanPython(code);
  if (!scan.ok) return { error: scan.error };
  const statements = scan.statements;
  const definitions = statements.filter((s) =>
    s.keyword === "def" || s.keyword === "class" ||
    s.keyword === "async" && DEF_NAME.test(s.masked)
  );
  const functions = new Map<string, string>();
  for (const s of statements) {
    const def = s.keyword === "class" ? null : DEF_NAME.exec(s.masked);
    if (def !== null && definitions.includes(s)) {
      functions.set(def[1]!, bodyOf(s));
    }
    const lambda = LAMBDA_NAME.exec(s.masked);
    if (lambda !== null) functions.set(lambda[1]!, s.masked);
  }
  // Functions that show or test rather than compute: they print, read
  // stdin, run a test runner or call the entry (or such a function).
  const callees = new Set([entry]);
  for (let grew = true; grew;) {
    grew = false;
    for (const [f, body] of functions) {
      if (callees.has(f)) continue;
      if (
        PRINT.test(body) || STDIN.test(body) || RUNNER_ANY.test(body) ||
        callOf(body, callees) !== null
      ) {
        callees.add(f);
        grew = true;
      }
    }
  }
  const definitionText = definitions.map(bodyOf).join("\n");
  const fillsTable = (masked: string) => {
    const re = new RegExp(
      `(?<![\\w.])([A-Za-z_]\\w*)\\s*(?:\\[[^\\n]*?\\]\\s*(?:\\*\\*|//|<<|>>|[-+*/%&|^@])?=(?!=)|\\.\\s*(?:${MUTATORS})\\s*\\()`,
      "g",
    );
    for (const m of masked.matchAll(re)) {
      if (mentionOf(definitionText, [m[1]!]) !== null) return true;
    }
    return false;
  };

  const dropped: ExampleStatement[] = [];
  const droppedNames = new Set<string>();
  const drop = (s: PyStatement, kind: string, binds: Iterable<string>) => {
    dropped.push({ kind, start: s.start, end: s.end });
    for (const n of binds) droppedNames.add(n);
  };
  for (const s of statements) {
    if (definitions.includes(s) || s.keyword === "@") continue;
    const m = s.masked.trimEnd();
    const k = s.keyword;
    if (k === "import" || k === "from") continue;
    const compound = k === "async"
      ? /^async\s+(?:for|with)\b/.test(m)
      : COMPOUND.has(k) &&
        (k !== "match" || /^match\b[^\n=]*:[ \t]*(?:\n|$)/.test(m));
    if (compound) {
      const binds = boundIn(m);
      if (k === "if" && MAIN.test(s.text)) {
        drop(s, "__main__ block", binds);
        continue;
      }
      if (STDIN.test(m)) {
        drop(s, "stdin read", binds);
        continue;
      }
      const called = callOf(m, callees);
      const testy = PRINT.test(m) || ASSERT.test(m) || RUNNER_ANY.test(m) ||
        called !== null;
      if (testy && !fillsTable(m)) {
        drop(
          s,
          k === "for" || k === "while"
            ? "test loop"
            : `${k} block with test code`,
          binds,
        );
        continue;
      }
      const own = [...droppedNames].filter((n) => !binds.has(n));
      const used = mentionOf(m, own);
      if (used !== null) {
        drop(s, `use of ${used} from dropped code`, binds);
        continue;
      }
      for (const n of binds) droppedNames.delete(n);
      continue;
    }
    if (PRINT_START.test(m)) {
      drop(s, "print call", []);
      continue;
    }
    if (k === "assert") {
      drop(s, "assert statement", []);
      continue;
    }
    const runner = RUNNER.exec(m);
    if (runner !== null) {
      drop(s, `${runner[0].replace(/\s+/g, "")}) call`, []);
      continue;
    }
    const asg = SIMPLE_KEYWORDS.has(k) ? null : assignment(m);
    const binds = asg?.targets ?? [];
    if (STDIN.test(m)) {
      drop(s, "stdin read", binds);
      continue;
    }
    if (asg !== null) {
      const called = callOf(asg.value, callees);
      if (called !== null) {
        drop(s, `assignment from ${called}()`, binds);
        continue;
      }
      const used = mentionOf(asg.value, droppedNames);
      if (used !== null) {
        drop(s, `use of ${used} from dropped code`, binds);
        continue;
      }
      for (const n of binds) droppedNames.delete(n);
      continue;
    }
    if (SIMPLE_KEYWORDS.has(k)) continue;
    const called = callOf(m, callees);
    if (called !== null) {
      drop(s, `call of ${called}()`, []);
      continue;
    }
    if (mentionOf(m, [entry]) !== null) {
      // The entry handed to a harness: `check(two_sum)`.
      const harness = /^([A-Za-z_][\w.]*)\s*\(/.exec(m)?.[1];
      drop(s, harness ? `call of ${harness}()` : `use of ${entry}`, []);
      continue;
    }
    const used = mentionOf(m, droppedNames);
    if (used !== null) drop(s, `use of ${used} from dropped code`, []);
  }

  const commentLines = new Set<number>();
  const raw = code.split("\n");
  const masked = scan.masked.split("\n");
  raw.forEach((line, i) => {
    if (line.startsWith("#") && masked[i]!.trim() === "") commentLines.add(i);
  });
  return { dropped, commentLines };
}
