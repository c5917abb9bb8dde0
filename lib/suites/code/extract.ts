/**
 * `extractCode`: the candidate program in a model's reply, with the rule
 * that found it and why.
 *
 * @module
 */
import { analyseBlock, type CodeBlock } from "./_extract_block.ts";
import { type PythonReader, pythonReader } from "./_extract_deps_py.ts";
import { dropExamples } from "./_extract_examples.ts";
import { blankThinking, findFences, unfencedSegment } from "./_extract_text.ts";
import type { CodeLanguage } from "./params.ts";

/** Options of `extractCode`. */
export interface ExtractCodeOptions {
  /** The language the question asked for. */
  language: CodeLanguage;
  /** The entry function's name the question asked for. */
  entry: string;
  /**
   * Reads Python's top level (a run keeps one open for all its replies).
   * @default one started for this reply and ended after it
   */
  python?: PythonReader;
}

/**
 * Rules of `extractCode`:
 * - `fence_only`: the reply's one tagged code block defines the entry;
 * - `fence_entry`: of several code blocks, the one defining the entry
 *   (the last one when several do; the others are dropped);
 * - `fence_untagged`: the block defining the entry has no language tag
 *   (or one that names neither language, e.g. `text`);
 * - `unfenced`: no fences; from the first function definition to the end
 *   of the code (trailing prose cut);
 * - `renamed_single_function`: no block defines the entry, the chosen one
 *   defines exactly one top-level function: `entry` is its name;
 * - `other_language`: the code is in the other language (the entry, or a
 *   single renamed function, is in it);
 * - `unclosed_think`: nothing outside an unclosed `<think>` block; the
 *   code came from inside it (the reason says which rule fired there);
 * - `class_method`: no function defines the entry, but the code is one
 *   class (LeetCode's `class Solution`) with exactly one public method
 *   that is the entry up to case and underscores (`twoSum` for
 *   `two_sum`): a function named as the entry that calls it is added;
 * - `no_entry`: code, but not the entry and not one single function (two
 *   or more functions, or a class whose methods are not just the entry):
 *   kept with the asked entry so the sandbox reports `no_entry`;
 * - `none`: no usable code (`code: null`).
 */
export type CodeRule =
  | "fence_only"
  | "fence_entry"
  | "fence_untagged"
  | "unfenced"
  | "renamed_single_function"
  | "class_method"
  | "other_language"
  | "unclosed_think"
  | "no_entry"
  | "none";

/** What `extractCode` returns. */
export interface CodeExtraction {
  /**
   * The program (dedented, `\n` newlines, one final newline) without the
   * top-level example and test code beside the entry, or null.
   */
  code: string | null;
  /**
   * The language of the code as detected by parsing. TypeScript counts as
   * `"javascript"` with `typescript: true`: run it with the sandbox's
   * `language: "typescript"`.
   */
  language: CodeLanguage | null;
  /** Whether the code needs the TypeScript grammar (type annotations). */
  typescript: boolean;
  /** The function to call: the asked entry, or the single function's name. */
  entry: string | null;
  /** The rule that fired. */
  rule: CodeRule;
  /**
   * Why: which block, which other blocks were dropped, which top-level
   * example code was dropped (kind and lines of the block's code, e.g.
   * `print call (line 9), __main__ block (lines 11–14)`), or that the
   * code could not be parsed and was kept as is.
   */
  reason: string;
  /** Span of the code in the reply. */
  span: [number, number] | null;
  /** How many blocks with function definitions the reply held. */
  candidates: number;
}

const TAG_LANGUAGE: Record<string, CodeLanguage> = {
  python: "python",
  py: "python",
  python3: "python",
  py3: "python",
  javascript: "javascript",
  js: "javascript",
  jsx: "javascript",
  mjs: "javascript",
  node: "javascript",
  typescript: "javascript",
  ts: "javascript",
  tsx: "javascript",
  mts: "javascript",
};

function none(reason: string, candidates: number): CodeExtraction {
  return {
    code: null,
    language: null,
    typescript: false,
    entry: null,
    rule: "none",
    reason,
    span: null,
    candidates,
  };
}

function blocksOf(text: string): { blocks: CodeBlock[]; fences: number } {
  const fences = findFences(text).filter((f) => f.content.trim() !== "");
  if (fences.length > 0) {
    return {
      blocks: fences.map((f) => analyseBlock(f.content, f.span, f.tag, true)),
      fences: fences.length,
    };
  }
  const segment = unfencedSegment(text);
  if (segment === null) return { blocks: [], fences: 0 };
  return {
    blocks: [analyseBlock(segment.code, segment.span, "", false)],
    fences: 0,
  };
}

/** A class whose one public method is the entry, and the function that calls it. */
interface ClassMethod {
  block: CodeBlock;
  className: string;
  method: string;
  /** A top-level function named as the entry that calls the method. */
  wrapper: string;
}

/** A name compared up to case and underscores (`twoSum` is `two_sum`). */
const loose = (name: string) => name.replaceAll("_", "").toLowerCase();

/**
 * LeetCode's form (`class Solution: def twoSum(self, …)`) for a plain
 * function entry: accepted when the block's code is one class with
 * exactly one public method that is the entry up to case and underscores
 * (helper methods beside it are the program's own) — the same program in
 * the harness's wrapper; a class with no such method, or two, is not
 * guessed at.
 */
function classMethod(block: CodeBlock, entry: string): ClassMethod | null {
  if (block.functions.length > 0 || block.language === null) return null;
  if (block.language === "python") {
    const classes = [...block.code.matchAll(/^class\s+([A-Za-z_]\w*)/gm)];
    if (classes.length !== 1) return null;
    const className = classes[0]![1]!;
    const methods = [
      ...block.code.matchAll(
        /^([ \t]+)(?:async\s+)?def\s+([A-Za-z_]\w*)\s*\(\s*self\b/gm,
      ),
    ];
    const indent = methods[0]?.[1];
    const names = methods.filter((m) => m[1] === indent).map((m) => m[2]!)
      .filter((n) => !n.startsWith("_") && loose(n) === loose(entry));
    if (names.length !== 1) return null;
    return {
      block,
      className,
      method: names[0]!,
      wrapper: `

def ${entry}(*args, **kwargs):
    return ${className}().${names[0]}(*args, **kwargs)
`,
    };
  }
  const body = (block.program?.ast.body ?? []) as {
    type: string;
    id?: { name?: string };
    body?: {
      body?: {
        type: string;
        kind?: string;
        static?: boolean;
        key?: { type: string; name?: string };
      }[];
    };
  }[];
  const classes = body.filter((n) => n.type === "ClassDeclaration");
  if (classes.length !== 1) return null;
  const cls = classes[0]!;
  const names = (cls.body?.body ?? []).filter((m) =>
    m.type === "MethodDefinition" && m.kind === "method" && !m.static &&
    m.key?.type === "Identifier" && !m.key.name!.startsWith("_")
  ).map((m) => m.key!.name!).filter((n) => loose(n) === loose(entry));
  if (names.length !== 1) return null;
  const className = cls.id?.name ?? "Solution";
  return {
    block,
    className,
    method: names[0]!,
    wrapper: `
function ${entry}(...args) {
  return new ${className}().${names[0]}(...args);
}
`,
  };
}

function describe(block: CodeBlock): string {
  const where = block.fenced
    ? `the ${block.tag === "" ? "untagged" : `\`${block.tag}\``} block`
    : "the unfenced code";
  return `${where} at ${block.span[0]}–${block.span[1]}`;
}

async function choose(
  blocks: CodeBlock[],
  fences: number,
  options: ExtractCodeOptions & { python: PythonReader },
): Promise<CodeExtraction | null> {
  const code = blocks.filter((b) => b.language !== null);
  if (code.length === 0) return null;
  const other: CodeLanguage = options.language === "python"
    ? "javascript"
    : "python";
  const defining = (lang: CodeLanguage) =>
    code.filter((b) =>
      b.language === lang && b.functions.includes(options.entry)
    );
  const single = (lang: CodeLanguage) =>
    code.filter((b) => b.language === lang && b.functions.length === 1);

  let block: CodeBlock | undefined;
  let rule: CodeRule;
  let entry = options.entry;
  let method: ClassMethod | null = null;
  const notes: string[] = [];
  const asked = defining(options.language);
  const otherDefining = defining(other);
  if (asked.length > 0) {
    block = asked.at(-1)!;
    if (!block.fenced) rule = "unfenced";
    else if (block.tag === "" || TAG_LANGUAGE[block.tag] === undefined) {
      rule = "fence_untagged";
    } else rule = fences === 1 ? "fence_only" : "fence_entry";
    if (asked.length > 1) {
      notes.push(`${asked.length} blocks define ${entry}; took the last`);
    }
  } else if (otherDefining.length > 0) {
    block = otherDefining.at(-1)!;
    rule = "other_language";
  } else {
    const renamed = single(options.language);
    const renamedOther = single(other);
    if (renamed.length > 0) {
      block = renamed.at(-1)!;
      rule = "renamed_single_function";
    } else if (renamedOther.length > 0) {
      block = renamedOther.at(-1)!;
      rule = "other_language";
    } else if (
      (method = code.map((b) =>
        classMethod(b, options.entry)
      ).find((m) => m !== null) ?? null) !== null
    ) {
      block = method.block;
      rule = "class_method";
    } else {
      block = code.find((b) => b.language === options.language) ?? code[0]!;
      rule = "no_entry";
      notes.push(
        block.functions.length === 0
          ? `${entry} is not defined and the code has no top-level function (only classes); kept with the asked entry`
          : `${entry} is not defined and the code defines ${block.functions.length} functions (${
            block.functions.join(", ")
          }); kept with the asked entry`,
      );
    }
    if (rule === "class_method") {
      notes.push(
        `${options.entry} is not defined; class ${
          method!.className
        }'s one public method ${
          method!.method
        } is, called through a function ${options.entry}`,
      );
    } else if (rule !== "no_entry") {
      entry = block.functions[0]!;
      notes.push(
        `${options.entry} is not defined; the one function is ${entry}`,
      );
    }
  }
  notes.unshift(
    `${describe(block)} (${block.language}${
      block.typescript ? ", TypeScript" : ""
    })`,
  );
  if (block.language !== options.language) {
    notes.push(`asked for ${options.language}, the code is ${block.language}`);
  }
  const dropped = blocks.length - 1;
  if (dropped > 0) notes.push(`dropped ${dropped} other code block(s)`);
  const kept = await dropExamples(block, {
    entry: method === null ? entry : method.className,
    python: options.python,
  });
  if (kept.note !== null) notes.push(kept.note);
  if (method !== null && kept.code !== null) {
    kept.code += method.wrapper;
  }
  if (block.typescript) notes.push("TypeScript: run as typescript");
  return {
    code: kept.code,
    language: block.language,
    typescript: block.typescript,
    entry,
    rule,
    reason: notes.join("; "),
    span: block.span,
    candidates: code.length,
  };
}

/**
 * Finds the candidate program in a model's reply; never throws.
 *
 * Reasoning blocks (`<think>…</think>`, also unclosed) are ignored, and
 * so is code inside them, unless nothing outside an unclosed block is
 * code. Fenced blocks (any tag or none) are analysed by parsing: the
 * language is the one whose parser finds the functions (acorn for
 * JavaScript/TypeScript, top-level `def` lines for Python), not the tag.
 * The block that defines the entry wins; usage examples in other blocks
 * are dropped. So is top-level example and test code beside the entry in
 * its own block, which would crash or stall the load (a read of stdin, a
 * wrong example assert, `module.exports` in the ES-module sandbox). That
 * top-level code is cut by dependency, not by shape (as evalplus's
 * sanitizer does): the top-level statements are read by Python's own
 * `ast` (in a `python3` subprocess that only parses) or acorn, and a
 * statement stays when it is inert (a definition, an import, a call-free
 * assignment to names) or declares or changes a name the entry
 * transitively reads without calling the entry (`MOD = 10**9 + 7`, a
 * table-filling loop, `sys.setrecursionlimit`); the rest goes (prints,
 * asserts, `__main__` blocks, reads of stdin, test loops, calls of
 * `main()`, `module.exports`), and so does what reads a name only dropped
 * code declares (with no entry declared, all code that runs goes). Code
 * that cannot be parsed is kept as is and `reason` says why. `reason`
 * names each dropped statement with its lines; with nothing dropped the
 * code is the block's, byte for byte. Without
 * fences, the code runs from the first function definition (with the
 * imports before it) to the end, trailing prose cut. See `CodeRule` for
 * every rule.
 *
 * @param text The reply.
 * @param options The asked language and entry function name.
 * @returns The extraction; `code: null` with a reason when the reply
 *   holds no function.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { extractCode } from "./extract.ts";
 * const f = "`".repeat(3);
 * const reply = `Here you go:\n${f}python\ndef add(a, b):\n    return a + b\n${f}\n` +
 *   `Example:\n${f}python\nprint(add(1, 2))\n${f}`;
 * const x = await extractCode(reply, { language: "python", entry: "add" });
 * assert.equal(x.rule, "fence_entry");
 * assert.equal(x.code, "def add(a, b):\n    return a + b\n");
 * const inline = `${f}python\ndef add(a, b):\n    return a + b\n\nif __name__ == "__main__":\n    print(add(int(input()), 2))\n${f}`;
 * const y = await extractCode(inline, { language: "python", entry: "add" });
 * assert.equal(y.code, "def add(a, b):\n    return a + b\n");
 * assert.match(y.reason, /dropped top-level example code: __main__ block \(lines 4–5\)/);
 * const z = await extractCode("I cannot solve this.", { language: "python", entry: "add" });
 * assert.equal(z.code, null);
 * ```
 */
export async function extractCode(
  text: string,
  options: ExtractCodeOptions,
): Promise<CodeExtraction> {
  const python = options.python ?? pythonReader();
  try {
    return await extractWith(text, { ...options, python });
  } finally {
    if (options.python === undefined) await python.close();
  }
}

async function extractWith(
  text: string,
  options: ExtractCodeOptions & { python: PythonReader },
): Promise<CodeExtraction> {
  try {
    const thinking = blankThinking(text);
    const outside = blocksOf(thinking.text);
    const chosen = await choose(outside.blocks, outside.fences, options);
    if (chosen !== null) return chosen;
    if (thinking.unclosedAt !== null) {
      const inner = " ".repeat(thinking.unclosedAt) +
        text.slice(thinking.unclosedAt);
      const inside = blocksOf(inner);
      const fromThink = await choose(inside.blocks, inside.fences, options);
      if (fromThink !== null) {
        return {
          ...fromThink,
          rule: "unclosed_think",
          reason:
            `no code after the reasoning; inside an unclosed <think> block, rule ${fromThink.rule}: ${fromThink.reason}`,
        };
      }
    }
    const fenced = findFences(thinking.text);
    return none(
      fenced.length === 0
        ? "no fenced block and no function definition: prose only"
        : fenced.every((f) => f.content.trim() === "")
        ? "the fenced blocks are empty"
        : "the fenced blocks hold no Python or JavaScript function",
      0,
    );
  } catch (error) {
    return none(
      `Cannot extract code: ${
        error instanceof Error ? error.message : String(error)
      }; treat the reply as unparsable`,
      0,
    );
  }
}
