/**
 * A JavaScript/TypeScript program's top-level statements as the dependency
 * cut sees them, from acorn's syntax tree: what each declares, changes and
 * reads (periscopic's scope analysis), whether it runs anything when
 * loaded, and its name in the reason.
 *
 * @module
 */
import { analyze } from "periscopic";
import type { TopStatement } from "./_extract_deps.ts";
import { childNodes, type JsNode, type JsProgram } from "./quality/mod.ts";

type Pred = (n: JsNode) => boolean;
const FUNCTIONS =
  /^(?:Function|ArrowFunction)Expression$|^FunctionDeclaration$/;
const RUNS =
  /^(?:Call|New|TaggedTemplate|Await|Yield|Import|Assignment|Update)Expression$/;

/** Every node under `node` (itself first), in nested functions too unless `outside`. */
function nodes(node: JsNode, outside = false): JsNode[] {
  const out: JsNode[] = [];
  for (const stack = [node]; stack.length > 0;) {
    const n = stack.pop()!;
    out.push(n);
    if (!outside || n === node || !FUNCTIONS.test(n.type)) {
      stack.push(...childNodes(n).reverse());
    }
  }
  return out;
}
const find = (node: JsNode, pred: Pred) => nodes(node).find(pred) ?? null;
const ident = (n: unknown, name?: string): n is JsNode & { name: string } =>
  (n as JsNode | null)?.type === "Identifier" &&
  (name === undefined || (n as JsNode).name === name);
const member = (n: JsNode, object: string, property?: string) =>
  n.type === "MemberExpression" && !n.computed && ident(n.object, object) &&
  (property === undefined || ident(n.property, property));
const calleeOf = (n: JsNode) =>
  n.type === "CallExpression" ? n.callee as JsNode : null;
const literal = (n: unknown) =>
  (n as JsNode | undefined)?.type === "Literal" ? (n as JsNode).value : null;
/** The identifier at the root of `a.b[c].d`, if any. */
function rootOf(n: JsNode): string | null {
  while (n.type === "MemberExpression") n = n.object as JsNode;
  return ident(n) ? n.name : null;
}

const isConsole: Pred = (n) =>
  calleeOf(n) !== null && member(calleeOf(n)!, "console");
const isAssert: Pred = (n) =>
  calleeOf(n) !== null &&
  (ident(calleeOf(n), "assert") || member(calleeOf(n)!, "assert"));
const required = (n: JsNode) =>
  ident(calleeOf(n), "require")
    ? String(literal((n.arguments as JsNode[])[0]) ?? "?")
    : null;
const isStdin: Pred = (n) => {
  const c = calleeOf(n);
  const source = literal((n.arguments as JsNode[] | undefined)?.[0]);
  return member(n, "process", "stdin") || member(n, "Deno", "stdin") ||
    ident(n, "readline") || ident(c, "prompt") ||
    c !== null &&
      (ident(c, "readFileSync") || ident(c.property, "readFileSync")) &&
      (source === 0 || source === "/dev/stdin");
};
const isMain: Pred = (n) =>
  n.type === "MemberExpression" && ident(n.property, "main") &&
  (ident(n.object, "require") || (n.object as JsNode).type === "MetaProperty");
const isExports: Pred = (n) =>
  member(n, "module", "exports") ||
  n.type === "AssignmentExpression" && rootOf(n.left as JsNode) === "exports";

/** The roots of what a node assigns, updates, or calls a method of as a statement. */
function changed(node: JsNode): string[] {
  return nodes(node).map((n) => {
    const e = n.expression as JsNode | undefined;
    const target = n.type === "AssignmentExpression"
      ? n.left
      : n.type === "UpdateExpression"
      ? n.argument
      : n.type === "ExpressionStatement" && e?.type === "CallExpression" &&
          (e.callee as JsNode).type === "MemberExpression"
      ? (e.callee as JsNode).object
      : null;
    return target ? rootOf(target as JsNode) : null;
  }).filter((r) => r !== null);
}

/** The statement's name in the reason by its shape, or null. */
function label(s: JsNode, functions: ReadonlySet<string>, code: string) {
  const guard = s.type === "IfStatement"
    ? find(s.test as JsNode, isMain)
    : null;
  if (guard) {
    return `${ident(guard.object) ? "require" : "import.meta"}.main block`;
  }
  if (find(s, isStdin)) return "stdin read";
  const exported = find(s, isExports);
  const module = exported?.type === "MemberExpression" ? "module." : "";
  if (exported) return `${module}exports assignment`;
  const e = s.type === "ExpressionStatement" ? s.expression as JsNode : null;
  const callee = e && calleeOf(e);
  if (callee && member(callee, "console")) {
    return `console.${(callee.property as { name?: string }).name} call`;
  }
  if (e && isAssert(e)) return "assert call";
  if (/^(?:For|ForIn|ForOf|While|DoWhile)Statement$/.test(s.type)) {
    return "test loop";
  }
  const req = s.type === "VariableDeclaration"
    ? find(s, (n) => required(n) !== null)
    : null;
  if (req) return `require("${required(req)}") used only by dropped code`;
  const own = (n: JsNode) =>
    ident(calleeOf(n)) && functions.has(calleeOf(n)!.name as string);
  const assigns = s.type === "VariableDeclaration" ||
    e?.type === "AssignmentExpression";
  const from = assigns ? find(s, own) : null;
  if (from) return `assignment from ${calleeOf(from)!.name}()`;
  if (e && own(e)) return `call of ${callee!.name}()`;
  if (!find(s, (n) => isConsole(n) || isAssert(n) || own(n))) return null;
  const text = callee && !FUNCTIONS.test(callee.type)
    ? `${
      code.slice(callee.start, callee.end).replace(/^(.{29}).{2,}$/s, "$1…")
    } call`
    : "statement";
  return `${text} with test code`;
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
 * assert.deepEqual(read.map((s) => [s.binds, s.reads, s.inert, s.label]), [
 *   [["K"], [], true, null], [["f"], ["K"], true, null], [[], ["console", "f"], false, "console.log call"],
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
      inits.length > 0 && inits.every((i) => FUNCTIONS.test(i?.type ?? ""));
    // The statement alone as a program: its declarations and free names.
    const alone = { type: "Program", sourceType: "module", body: [s] };
    const scope = analyze(alone as unknown as Parameters<typeof analyze>[0]);
    const binds = [...scope.scope.declarations.keys()];
    if (binds.length === 0 && ident(inner.id)) binds.push(inner.id.name); // a type
    const reads = [...scope.globals].sort((a, b) =>
      (a[1] as JsNode).start - (b[1] as JsNode).start
    ).map(([name]) => name).filter((n) => !binds.includes(n));
    const kind = `${s.type.replace(/Statement$/, "").toLowerCase()} statement`;
    const free = (n: string) => binds.includes(n) || scope.globals.has(n);
    return {
      start: s.start,
      end: s.end,
      definition,
      inert: definition || /^(?:Import|TS|Empty|Export)/.test(inner.type) ||
        typeof s.directive === "string" ||
        inner.type === "VariableDeclaration" &&
          nodes(inner, true).every((n) => !RUNS.test(n.type)),
      binds,
      writes: [...new Set([...binds, ...changed(inner).filter(free)])],
      reads,
      fallback: inner.type === "VariableDeclaration" ? "assignment" : kind,
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
