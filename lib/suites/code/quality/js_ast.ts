/**
 * Parsing JavaScript and TypeScript candidates with `acorn` (plus the
 * `@sveltejs/acorn-typescript` plugin for type annotations), and the
 * top-level functions a program defines.
 *
 * @module
 */
import { type Comment, Parser } from "acorn";
import { tsPlugin } from "@sveltejs/acorn-typescript";

/** A node of an ESTree syntax tree (acorn's, with TypeScript nodes). */
export interface JsNode {
  /** The ESTree node type, e.g. `FunctionDeclaration`. */
  type: string;
  /** Offset of the node's first character in the source. */
  start: number;
  /** Offset just past the node's last character. */
  end: number;
  /** The node's other ESTree fields (children, names, values). */
  [key: string]: unknown;
}

/** A comment of a parsed program (acorn's, as far as it is used here). */
export interface JsComment {
  /** `Line` (`// …`) or `Block` (`/* … *\/`). */
  type: "Line" | "Block";
  /** The text between the markers. */
  value: string;
  /** Offset of the comment's first character in the source. */
  start: number;
  /** Offset just past the comment's last character. */
  end: number;
}

/** A parsed JavaScript or TypeScript program. */
export interface JsProgram {
  /** The `Program` node. */
  ast: JsNode;
  /** True when only the TypeScript grammar accepted the source. */
  typescript: boolean;
  /** Comments, with their character ranges. */
  comments: JsComment[];
}

// The plugin's typings describe an older acorn `Parser`; the class itself
// works with acorn 8.
const TsParser = Parser.extend(
  tsPlugin() as unknown as Parameters<typeof Parser.extend>[0],
);

function tryParse(
  parser: typeof Parser,
  code: string,
  sourceType: "module" | "script",
): { ast: JsNode; comments: Comment[] } | null {
  const comments: Comment[] = [];
  try {
    const ast = parser.parse(code, {
      ecmaVersion: "latest",
      sourceType,
      locations: true,
      allowHashBang: true,
      allowReturnOutsideFunction: false,
      onComment: comments,
    }) as unknown as JsNode;
    return { ast, comments };
  } catch {
    return null;
  }
}

/**
 * Parses JavaScript (module, then script grammar) or, failing that,
 * TypeScript; never throws.
 *
 * @param code The source text.
 * @returns The program, or null when neither grammar accepts the source.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { parseJavaScript } from "./js_ast.ts";
 * assert.equal(parseJavaScript("const f = (x) => x + 1;")?.typescript, false);
 * assert.equal(parseJavaScript("function f(x: number) { return x; }")?.typescript, true);
 * assert.equal(parseJavaScript("def f(x):\n    return x\n"), null);
 * ```
 */
export function parseJavaScript(code: string): JsProgram | null {
  for (const sourceType of ["module", "script"] as const) {
    const plain = tryParse(Parser, code, sourceType);
    if (plain !== null) return { ...plain, typescript: false };
  }
  const ts = tryParse(TsParser, code, "module");
  return ts === null ? null : { ...ts, typescript: true };
}

/**
 * Child nodes of an ESTree node (TypeScript nodes included).
 *
 * @param node A node.
 * @returns Its direct children.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { childNodes, parseJavaScript } from "./js_ast.ts";
 * const p = parseJavaScript("f(1); g(2);")!;
 * assert.equal(childNodes(p.ast).length, 2);
 * ```
 */
export function childNodes(node: JsNode): JsNode[] {
  // A generic walk over every property: acorn-walk has no visitors for the
  // TypeScript node types the plugin produces.
  const out: JsNode[] = [];
  for (const [key, value] of Object.entries(node)) {
    if (key === "loc" || key === "range") continue;
    if (Array.isArray(value)) {
      for (const item of value) if (isNode(item)) out.push(item);
    } else if (isNode(value)) out.push(value);
  }
  return out;
}

function isNode(value: unknown): value is JsNode {
  return typeof value === "object" && value !== null &&
    typeof (value as { type?: unknown }).type === "string" &&
    typeof (value as { start?: unknown }).start === "number";
}

const FUNCTION_INIT = new Set([
  "ArrowFunctionExpression",
  "FunctionExpression",
]);

/** A top-level function of a program. */
export interface TopLevelFunction {
  /** The function's name (or the name of the const it is bound to). */
  name: string;
  /** Already exported with `export`. */
  exported: boolean;
}

/**
 * The functions a program defines at top level: `function f`, `const f =
 * (…) => …`, `const f = function …`, with or without `export`.
 *
 * @param program A parsed program.
 * @returns The functions in source order.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { parseJavaScript, topLevelFunctions } from "./js_ast.ts";
 * const p = parseJavaScript("export function a() {}\nconst b = () => 1;\nconst c = 2;")!;
 * assert.deepEqual(topLevelFunctions(p).map((f) => f.name), ["a", "b"]);
 * ```
 */
export function topLevelFunctions(program: JsProgram): TopLevelFunction[] {
  const out: TopLevelFunction[] = [];
  const body = (program.ast.body ?? []) as JsNode[];
  for (const statement of body) {
    let node = statement;
    let exported = false;
    if (
      (node.type === "ExportNamedDeclaration" ||
        node.type === "ExportDefaultDeclaration") &&
      isNode(node.declaration)
    ) {
      node = node.declaration;
      exported = true;
    }
    if (node.type === "FunctionDeclaration") {
      const id = node.id as { name?: string } | null;
      if (id?.name !== undefined) out.push({ name: id.name, exported });
    } else if (node.type === "VariableDeclaration") {
      for (const d of (node.declarations ?? []) as JsNode[]) {
        const id = d.id as { type?: string; name?: string };
        const init = d.init as JsNode | null;
        if (
          id.type === "Identifier" && id.name !== undefined && init !== null &&
          FUNCTION_INIT.has(init.type)
        ) out.push({ name: id.name, exported });
      }
    }
  }
  return out;
}
