/**
 * What one block of code is: its language (by parsing, not by its fence
 * tag alone), the top-level functions it defines and, for JavaScript, its
 * syntax tree (example code beside the entry is dropped from it later, by
 * `_extract_examples.ts`, once the entry is known).
 *
 * @module
 */
import {
  type JsNode,
  type JsProgram,
  parseJavaScript,
  topLevelFunctions,
} from "./quality/mod.ts";

/** A block of candidate code, analysed. */
export interface CodeBlock {
  /** The code, dedented, `\r\n` → `\n`, ending in one newline. */
  code: string;
  span: [number, number];
  /** Fence tag ("" when untagged or unfenced). */
  tag: string;
  fenced: boolean;
  language: "python" | "javascript" | null;
  /** JavaScript that needs the TypeScript grammar (or a ts tag and no parse). */
  typescript: boolean;
  /** Whether the language's parser accepted it (Python: not checked, true). */
  parsed: boolean;
  /** Top-level function names, in order. */
  functions: string[];
  /** The JavaScript syntax tree, when acorn parsed the block as JavaScript. */
  program: JsProgram | null;
}

const TS_TAGS = new Set(["ts", "typescript", "tsx", "mts"]);
const PY_DEF = /^(?:async\s+)?def\s+([A-Za-z_]\w*)\s*\(/gm;
const PY_LAMBDA = /^([A-Za-z_]\w*)\s*=\s*lambda\b/gm;
const PY_CLASS = /^class\s+[A-Za-z_]\w*\s*(?:\([^)]*\))?\s*:\s*(?:#.*)?$/m;
const JS_FN =
  /^(?:export\s+)?(?:default\s+)?(?:async\s+)?function\s*\*?\s*([A-Za-z_$][\w$]*)\s*[(<]/gm;
const JS_CONST =
  /^(?:export\s+)?(?:const|let|var)\s+([A-Za-z_$][\w$]*)\s*(?::[^=\n]+)?=\s*(?:async\s+)?(?:\(|function\b|[A-Za-z_$][\w$]*\s*=>)/gm;
const TS_HINT =
  /:\s*(?:number|string|boolean|any|void|unknown|never|bigint)\b|\binterface\s+\w+\s*\{|\btype\s+\w+\s*=|<\w+>\s*\(/;

function dedent(code: string): string {
  const lines = code.replace(/\r\n?/g, "\n").split("\n");
  const indents = lines.filter((l) => l.trim() !== "").map((l) =>
    /^[ \t]*/.exec(l)![0].length
  );
  const cut = indents.length > 0 ? Math.min(...indents) : 0;
  const out = lines.map((l) => l.slice(Math.min(cut, l.length))).join("\n")
    .replace(/\s+$/, "");
  return out === "" ? "" : `${out}\n`;
}

function names(re: RegExp, code: string): string[] {
  return [...code.matchAll(re)].map((m) => m[1]!);
}

/**
 * Analyses one block: JavaScript when acorn (plain or TypeScript grammar)
 * parses it and finds a top-level function; else Python when a top-level
 * `def` exists; else JavaScript when a function definition is seen
 * line-wise (code with a syntax error still counts as an attempt).
 */
export function analyseBlock(
  raw: string,
  span: [number, number],
  tag: string,
  fenced: boolean,
): CodeBlock {
  const code = dedent(raw);
  const base = { code, span, tag, fenced };
  const program = code === "" ? null : parseJavaScript(code);
  if (program !== null) {
    const functions = topLevelFunctions(program).map((f) => f.name);
    if (functions.length > 0) {
      return {
        ...base,
        language: "javascript",
        typescript: program.typescript,
        parsed: true,
        functions,
        program,
      };
    }
  }
  const py = [...names(PY_DEF, code), ...names(PY_LAMBDA, code)];
  if (py.length > 0) {
    return {
      ...base,
      language: "python",
      typescript: false,
      parsed: true,
      functions: py,
      program: null,
    };
  }
  const classes = program === null
    ? []
    : ((program.ast.body ?? []) as JsNode[]).filter((n) =>
      n.type === "ClassDeclaration"
    );
  if (classes.length > 0 || PY_CLASS.test(code)) {
    // Methods only (e.g. LeetCode's `class Solution`): code, no function.
    const javascript = classes.length > 0;
    return {
      ...base,
      language: javascript ? "javascript" : "python",
      typescript: javascript && program!.typescript,
      parsed: true,
      functions: [],
      program: javascript ? program : null,
    };
  }
  const js = [...names(JS_FN, code), ...names(JS_CONST, code)];
  if (js.length > 0) {
    return {
      ...base,
      language: "javascript",
      typescript: TS_TAGS.has(tag) || TS_HINT.test(code),
      parsed: false,
      functions: js,
      program: null,
    };
  }
  return {
    ...base,
    language: null,
    typescript: false,
    parsed: program !== null,
    functions: [],
    program: null,
  };
}
