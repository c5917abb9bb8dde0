/**
 * A JavaScript/TypeScript program's top-level statements as the dependency
 * cut sees them, read from acorn's syntax tree: what each declares,
 * changes and reads, whether it runs anything when loaded, and its name in
 * the reason.
 *
 * @module
 */
import type { TopStatement } from "./_extract_deps.ts";
import type { JsNode, JsProgram } from "./quality/mod.ts";
import {
  calleeOf,
  declared,
  declaredInside,
  find,
  FUNCTION_TYPES,
  ident,
  literal,
  member,
  type Pred,
  references,
  rootOf,
  walkOutsideFunctions,
} from "./_extract_js_tree.ts";

const LOOPS = /^(?:For|ForIn|ForOf|While|DoWhile)Statement$/;
const RUNS =
  /^(?:Call|New|TaggedTemplate|Await|Yield|Import|Assignment|Update)Expression$/;
const STDIN_MODULES = new Set(["readline", "node:readline"]);

const isConsole: Pred = (n) => {
  const c = calleeOf(n);
  return c !== null && member(c, "console");
};
const isAssert: Pred = (n) => {
  const c = calleeOf(n);
  return c !== null && (ident(c, "assert") || member(c, "assert"));
};
const required = (n: JsNode) =>
  ident(calleeOf(n), "require")
    ? String(literal((n.arguments as JsNode[])[0]) ?? "?")
    : null;
const isStdin: Pred = (n) => {
  if (member(n, "process", "stdin") || member(n, "Deno", "stdin")) return true;
  const c = calleeOf(n);
  const source = literal((n.arguments as JsNode[] | undefined)?.[0]);
  const readFile = c !== null &&
    (ident(c, "readFileSync") || ident(c.property, "readFileSync"));
  return ident(n, "readline") || ident(c, "prompt") ||
    STDIN_MODULES.has(required(n) ?? "") ||
    readFile && (source === 0 || source === "/dev/stdin");
};
const isExports: Pred = (n) =>
  member(n, "module", "exports") ||
  n.type === "AssignmentExpression" && rootOf(n.left as JsNode) === "exports";

/** The roots of what a node assigns, updates, or calls a method of as a statement. */
function changed(node: JsNode): string[] {
  const out: string[] = [];
  find(node, (n) => {
    const e = n.expression as JsNode | undefined;
    const target = n.type === "AssignmentExpression"
      ? n.left
      : n.type === "UpdateExpression"
      ? n.argument
      : n.type === "ExpressionStatement" && e?.type === "CallExpression" &&
          (e.callee as JsNode).type === "MemberExpression"
      ? (e.callee as JsNode).object
      : null;
    const root = target ? rootOf(target as JsNode) : null;
    if (root !== null) out.push(root);
    return false;
  });
  return out;
}

/** The statement's name in the reason by its shape, or null. */
function label(s: JsNode, functions: ReadonlySet<string>, code: string) {
  const test = s.type === "IfStatement" ? s.test as JsNode : null;
  if (test && find(test, (n) => member(n, "require", "main"))) {
    return "require.main block";
  }
  if (
    test &&
    find(
      test,
      (n) =>
        n.type === "MemberExpression" && ident(n.property, "main") &&
        (n.object as JsNode).type === "MetaProperty",
    )
  ) return "import.meta.main block";
  if (find(s, isStdin)) return "stdin read";
  const exported = find(s, isExports);
  if (exported !== null) {
    return member(exported, "module", "exports") ||
        rootOf(exported.left as JsNode) === "module"
      ? "module.exports assignment"
      : "exports assignment";
  }
  let e = s.type === "ExpressionStatement" ? s.expression as JsNode : null;
  while (e && /^(?:Await|Chain|Unary)Expression$/.test(e.type)) {
    e = (e.argument ?? e.expression) as JsNode;
  }
  const callee = e && calleeOf(e);
  if (callee && member(callee, "console")) {
    return `console.${(callee.property as { name?: string }).name} call`;
  }
  if (e && isAssert(e)) return "assert call";
  if (LOOPS.test(s.type)) return "test loop";
  const module = s.type === "VariableDeclaration"
    ? find(s, (n) => required(n) !== null)
    : null;
  if (module) return `require("${required(module)}") used only by dropped code`;
  const own = (n: JsNode) =>
    ident(calleeOf(n)) && functions.has(calleeOf(n)!.name as string);
  const value = s.type === "VariableDeclaration"
    ? s
    : e?.type === "AssignmentExpression"
    ? e.right as JsNode
    : null;
  const from = value && find(value, own);
  if (from) return `assignment from ${calleeOf(from)!.name}()`;
  if (e && own(e)) return `call of ${callee!.name}()`;
  if (find(s, (n) => isConsole(n) || isAssert(n) || own(n))) {
    const text = callee ? code.slice(callee.start, callee.end) : "";
    return callee && !FUNCTION_TYPES.has(callee.type)
      ? `${
        text.length > 30 ? `${text.slice(0, 29)}…` : text
      } call with test code`
      : "statement with test code";
  }
  return null;
}

/**
 * The program's top-level statements; never throws.
 *
 * @param program The parsed program.
 * @param code Its source.
 * @returns The statements, in order.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { parseJavaScript } from "./quality/mod.ts";
 * import { javascriptStatements } from "./_extract_deps_js.ts";
 * const code = "const K = 2;\nfunction f(x) { return x * K; }\nconsole.log(f(3));\n";
 * const read = javascriptStatements(parseJavaScript(code)!, code);
 * assert.deepEqual(read.map((s) => [s.binds, s.inert, s.label]), [
 *   [["K"], true, null], [["f"], true, null], [[], false, "console.log call"],
 * ]);
 * ```
 */
export function javascriptStatements(
  program: JsProgram,
  code: string,
): TopStatement[] {
  const body = (program.ast.body ?? []) as JsNode[];
  const facts = body.map((s) => {
    const declaration = s.declaration as JsNode | null | undefined;
    const inner = declaration && /Declaration$/.test(declaration.type)
      ? declaration
      : s;
    const inits = inner.type === "VariableDeclaration"
      ? (inner.declarations as JsNode[]).map((d) => d.init as JsNode | null)
      : [];
    const definition = /^(?:Function|Class)Declaration$/.test(inner.type) ||
      inits.length > 0 && inits.every((i) => FUNCTION_TYPES.has(i?.type ?? ""));
    const binds = inner.type === "VariableDeclaration"
      ? (inner.declarations as JsNode[]).flatMap((d) =>
        declared(d.id as JsNode)
      )
      : inner.type === "ImportDeclaration"
      ? (inner.specifiers as JsNode[]).map((x) =>
        (x.local as JsNode).name as string
      )
      : ident(inner.id)
      ? [inner.id.name]
      : [];
    const inert = definition ||
      /^(?:Import|TS|Empty|Export)/.test(inner.type) ||
      typeof s.directive === "string" ||
      inner.type === "VariableDeclaration" &&
        walkOutsideFunctions(inner).every((n) => !RUNS.test(n.type));
    const local = declaredInside(inner);
    const free = (names: Iterable<string>) =>
      [...new Set(names)].filter((n) => !local.has(n) && !binds.includes(n));
    return {
      start: s.start,
      end: s.end,
      definition,
      inert,
      binds,
      writes: [...binds, ...free(changed(inner))],
      reads: free(references(inner)),
      fallback: s.type === "VariableDeclaration"
        ? "assignment"
        : `${
          s.type.replace(/Statement$|Declaration$/, "").toLowerCase()
        } statement`,
    };
  });
  const functions = new Set(
    facts.filter((f) => f.definition).flatMap((f) => f.binds),
  );
  return facts.map((f, i) => ({
    ...f,
    label: label(body[i]!, functions, code),
  }));
}
