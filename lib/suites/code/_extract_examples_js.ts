/**
 * Which top-level statements of a JavaScript/TypeScript program (acorn's
 * syntax tree) are example or test code beside the entry: `console.*` and
 * `assert` calls, calls of the program's own functions, `require.main` /
 * `import.meta.main` blocks, reads of stdin, CommonJS exports (which the
 * ES-module sandbox cannot run) and test loops. Declarations, exports,
 * constants, helpers and classes stay.
 *
 * @module
 */
import type { ExampleStatement } from "./_extract_cut.ts";
import { childNodes, type JsNode, type JsProgram } from "./quality/mod.ts";

const FUNCTION_TYPES = new Set([
  "FunctionDeclaration",
  "FunctionExpression",
  "ArrowFunctionExpression",
]);
const LOOPS = new Set([
  "ForStatement",
  "ForInStatement",
  "ForOfStatement",
  "WhileStatement",
  "DoWhileStatement",
]);
const COMPOUND: Record<string, string> = {
  IfStatement: "if block",
  BlockStatement: "block",
  TryStatement: "try block",
  SwitchStatement: "switch block",
  LabeledStatement: "labelled block",
};
const MUTATORS = new Set([
  "push",
  "unshift",
  "set",
  "add",
  "fill",
  "splice",
]);
const STDIN_MODULES = new Set(["readline", "node:readline"]);

type Pred = (n: JsNode) => boolean;

/** The first node under `node` (itself included) that `pred` accepts. */
function find(node: JsNode, pred: Pred): JsNode | null {
  const stack = [node];
  while (stack.length > 0) {
    const n = stack.pop()!;
    if (pred(n)) return n;
    stack.push(...childNodes(n).reverse());
  }
  return null;
}

function ident(n: unknown, name?: string): n is JsNode & { name: string } {
  const node = n as JsNode | null;
  return node?.type === "Identifier" &&
    (name === undefined || node.name === name);
}

/** `object.property` with a plain (non-computed) property name. */
function member(n: JsNode, object: string, property?: string): boolean {
  if (n.type !== "MemberExpression" || n.computed) return false;
  const p = n.property as JsNode;
  return ident(n.object, object) &&
    (property === undefined || ident(p, property));
}

function calleeOf(n: JsNode): JsNode | null {
  return n.type === "CallExpression" ? n.callee as JsNode : null;
}

const isConsole: Pred = (n) => {
  const c = calleeOf(n);
  return c !== null && member(c, "console");
};

const isAssert: Pred = (n) => {
  const c = calleeOf(n);
  return c !== null && (ident(c, "assert") || member(c, "assert"));
};

function literal(n: unknown): unknown {
  const node = n as JsNode | undefined;
  return node?.type === "Literal" ? node.value : undefined;
}

const isStdin: Pred = (n) => {
  if (member(n, "process", "stdin") || member(n, "Deno", "stdin")) return true;
  if (ident(n, "readline")) return true;
  const c = calleeOf(n);
  if (c === null) return false;
  const args = (n.arguments ?? []) as JsNode[];
  if (ident(c, "prompt")) return true;
  if (ident(c, "require") && STDIN_MODULES.has(String(literal(args[0])))) {
    return true;
  }
  const readFile = ident(c, "readFileSync") ||
    c.type === "MemberExpression" && ident(c.property, "readFileSync");
  const source = literal(args[0]);
  return readFile && (source === 0 || source === "/dev/stdin");
};

const isModuleExports: Pred = (n) =>
  member(n, "module", "exports") ||
  n.type === "AssignmentExpression" && rootOf(n.left as JsNode) === "exports";

/** The identifier at the root of `a.b[c].d`, if any. */
function rootOf(n: JsNode): string | null {
  let node = n;
  while (node.type === "MemberExpression") node = node.object as JsNode;
  return ident(node) ? node.name : null;
}

/** A `require(...)` at the root of `require("x").y` or `require("x")`. */
function requiredModule(n: JsNode | null): string | null {
  let node = n;
  while (node !== null) {
    if (node.type === "CallExpression") {
      if (ident(node.callee, "require")) {
        return String(literal((node.arguments as JsNode[])[0]) ?? "?");
      }
      node = node.callee as JsNode;
    } else if (node.type === "MemberExpression") {
      node = node.object as JsNode;
    } else return null;
  }
  return null;
}

function calls(names: ReadonlySet<string>): (n: JsNode) => boolean {
  return (n) => {
    const c = calleeOf(n);
    return c !== null && ident(c) && names.has(c.name);
  };
}

/** Names an expression or statement reads (property keys and labels left out). */
function references(node: JsNode): Set<string> {
  const out = new Set<string>();
  const visit = (n: JsNode, parent: JsNode | null, key: string) => {
    if (n.type === "Identifier") {
      const skip = parent !== null && (
        (parent.type === "MemberExpression" && key === "property" &&
          !parent.computed) ||
        ((parent.type === "Property" || parent.type === "MethodDefinition" ||
          parent.type === "PropertyDefinition") &&
          key === "key" &&
          !parent.computed) ||
        (key === "label")
      );
      if (!skip) out.add(n.name as string);
      return;
    }
    for (const [k, value] of Object.entries(n)) {
      if (k === "loc") continue;
      const items = Array.isArray(value) ? value : [value];
      for (const item of items) {
        if (
          typeof item === "object" && item !== null &&
          typeof (item as JsNode).type === "string"
        ) visit(item as JsNode, n, k);
      }
    }
  };
  visit(node, null, "");
  return out;
}

/** Identifiers a binding pattern declares (`a`, `{ a, b: c }`, `[a, ...b]`). */
function declared(pattern: JsNode | null): string[] {
  if (pattern === null) return [];
  switch (pattern.type) {
    case "Identifier":
      return [pattern.name as string];
    case "ObjectPattern":
      return (pattern.properties as JsNode[]).flatMap((p) =>
        declared((p.type === "RestElement" ? p.argument : p.value) as JsNode)
      );
    case "ArrayPattern":
      return (pattern.elements as (JsNode | null)[]).flatMap(declared);
    case "RestElement":
      return declared(pattern.argument as JsNode);
    case "AssignmentPattern":
      return declared(pattern.left as JsNode);
    default:
      return [];
  }
}

/** Names declared anywhere inside a statement (block-scoped there). */
function declaredInside(node: JsNode): Set<string> {
  const out = new Set<string>();
  find(node, (n) => {
    if (n.type === "VariableDeclarator") {
      for (const d of declared(n.id as JsNode)) out.add(d);
    } else if (FUNCTION_TYPES.has(n.type)) {
      for (const p of (n.params ?? []) as JsNode[]) {
        for (const d of declared(p)) out.add(d);
      }
    } else if (n.type === "CatchClause") {
      for (const d of declared(n.param as JsNode | null)) out.add(d);
    }
    return false;
  });
  return out;
}

function first<T>(set: Iterable<T>, pred: (t: T) => boolean): T | null {
  for (const t of set) if (pred(t)) return t;
  return null;
}

/** The top-level functions (declared or bound to a const) and their nodes. */
function functionsOf(body: JsNode[]): Map<string, JsNode> {
  const out = new Map<string, JsNode>();
  for (const statement of body) {
    let s = statement;
    if (
      (s.type === "ExportNamedDeclaration" ||
        s.type === "ExportDefaultDeclaration") &&
      s.declaration !== null && typeof s.declaration === "object"
    ) s = s.declaration as JsNode;
    if (s.type === "FunctionDeclaration" && ident(s.id)) {
      out.set(s.id.name, s);
    } else if (s.type === "VariableDeclaration") {
      for (const d of s.declarations as JsNode[]) {
        const init = d.init as JsNode | null;
        if (ident(d.id) && init !== null && FUNCTION_TYPES.has(init.type)) {
          out.set(d.id.name, init);
        }
      }
    }
  }
  return out;
}

/**
 * The program's top-level example or test statements; never throws.
 *
 * @param program The parsed program.
 * @param code Its source.
 * @param entry The function that will be called.
 * @returns The statements to drop and the lines that hold only a comment
 *   at column 0.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { parseJavaScript } from "./quality/mod.ts";
 * import { javascriptExamples } from "./_extract_examples_js.ts";
 * const code = "const K = 2;\nfunction f(x) { return x * K; }\nconsole.log(f(3));\nmodule.exports = { f };\n";
 * const found = javascriptExamples(parseJavaScript(code)!, code, "f");
 * assert.deepEqual(found.dropped.map((d) => d.kind), ["console.log call", "module.exports assignment"]);
 * ```
 */
export function javascriptExamples(
  program: JsProgram,
  code: string,
  entry: string,
): { dropped: ExampleStatement[]; commentLines: Set<number> } {
  const body = (program.ast.body ?? []) as JsNode[];
  const functions = functionsOf(body);
  // Functions that show rather than compute: they log, read stdin or call
  // the entry (or such a function).
  const callees = new Set([entry]);
  for (let grew = true; grew;) {
    grew = false;
    for (const [f, node] of functions) {
      if (callees.has(f)) continue;
      if (
        find(node, (n) => isConsole(n) || isStdin(n) || calls(callees)(n)) !==
          null
      ) {
        callees.add(f);
        grew = true;
      }
    }
  }
  const definitionRefs = new Set<string>();
  for (const s of body) {
    const inner = s.type.startsWith("Export") && s.declaration
      ? s.declaration as JsNode
      : s;
    if (
      inner.type === "FunctionDeclaration" ||
      inner.type === "ClassDeclaration"
    ) {
      for (const r of references(inner)) definitionRefs.add(r);
    }
  }
  for (const node of functions.values()) {
    for (const r of references(node)) definitionRefs.add(r);
  }
  const fillsTable = (s: JsNode) =>
    find(s, (n) => {
      let target: JsNode | null = null;
      if (n.type === "AssignmentExpression") target = n.left as JsNode;
      else if (n.type === "UpdateExpression") target = n.argument as JsNode;
      else if (n.type === "CallExpression") {
        const c = n.callee as JsNode;
        if (
          c.type === "MemberExpression" && !c.computed &&
          ident(c.property) && MUTATORS.has(c.property.name)
        ) target = c.object as JsNode;
      }
      if (target === null) return false;
      if (n.type !== "CallExpression" && target.type !== "MemberExpression") {
        return false;
      }
      const root = rootOf(target);
      return root !== null && definitionRefs.has(root);
    }) !== null;
  const testy = (n: JsNode) => isConsole(n) || isAssert(n) || calls(callees)(n);

  const dropped: (ExampleStatement & { node: JsNode })[] = [];
  const kept: JsNode[] = [];
  const droppedNames = new Set<string>();
  const drop = (s: JsNode, kind: string, binds: Iterable<string> = []) => {
    dropped.push({ kind, start: s.start, end: s.end, node: s });
    for (const n of binds) droppedNames.add(n);
  };
  const keep = (s: JsNode, binds: Iterable<string> = []) => {
    kept.push(s);
    for (const n of binds) droppedNames.delete(n);
  };
  const usedDropped = (node: JsNode, own: ReadonlySet<string> = new Set()) =>
    first(references(node), (r) => droppedNames.has(r) && !own.has(r));

  for (const s of body) {
    if (s.type === "ImportDeclaration") {
      const names = ((s.specifiers ?? []) as JsNode[]).map((x) =>
        (x.local as { name: string }).name
      );
      if (STDIN_MODULES.has(String(literal(s.source)))) {
        drop(s, "stdin read", names);
      } else keep(s, names);
      continue;
    }
    if (s.type === "VariableDeclaration") {
      const declarators = s.declarations as JsNode[];
      const binds = declarators.flatMap((d) => declared(d.id as JsNode));
      const inits = declarators.map((d) => d.init as JsNode | null)
        .filter((i): i is JsNode => i !== null);
      if (inits.some((i) => FUNCTION_TYPES.has(i.type))) {
        keep(s, binds);
        continue;
      }
      const stdin = inits.some((i) => find(i, isStdin) !== null);
      const called = first(inits, (i) => find(i, calls(callees)) !== null);
      if (stdin) drop(s, "stdin read", binds);
      else if (called !== null) {
        const c = find(called, calls(callees))!;
        drop(
          s,
          `assignment from ${(c.callee as { name: string }).name}()`,
          binds,
        );
      } else {
        const used = first(inits, (i) => usedDropped(i) !== null);
        if (used !== null) {
          drop(s, `use of ${usedDropped(used)} from dropped code`, binds);
        } else keep(s, binds);
      }
      continue;
    }
    if (s.type === "ExpressionStatement") {
      if (typeof s.directive === "string") {
        keep(s);
        continue;
      }
      let e = s.expression as JsNode;
      while (
        e.type === "AwaitExpression" || e.type === "ChainExpression" ||
        (e.type === "UnaryExpression" && e.operator === "void")
      ) e = (e.argument ?? e.expression) as JsNode;
      const exported = find(e, isModuleExports);
      if (exported !== null) {
        drop(
          s,
          member(exported, "module", "exports") ||
            rootOf(exported.left as JsNode) === "module"
            ? "module.exports assignment"
            : "exports assignment",
        );
        continue;
      }
      const callee = calleeOf(e);
      if (callee !== null && member(callee, "console")) {
        drop(
          s,
          `console.${
            ((callee.property as { name?: string }).name) ?? "log"
          } call`,
        );
        continue;
      }
      if (isAssert(e)) {
        drop(s, "assert call");
        continue;
      }
      if (find(e, isStdin) !== null) {
        drop(s, "stdin read");
        continue;
      }
      if (e.type === "AssignmentExpression") {
        const value = e.right as JsNode;
        const binds = declared(e.left as JsNode);
        const c = find(value, calls(callees));
        if (c !== null) {
          drop(
            s,
            `assignment from ${(c.callee as { name: string }).name}()`,
            binds,
          );
        } else if (usedDropped(e) !== null) {
          drop(s, `use of ${usedDropped(e)} from dropped code`, binds);
        } else keep(s, binds);
        continue;
      }
      if (callee !== null && ident(callee) && callees.has(callee.name)) {
        drop(s, `call of ${callee.name}()`);
        continue;
      }
      if (find(e, testy) !== null) {
        const text = callee === null
          ? ""
          : code.slice(callee.start, callee.end).replace(/\s+/g, " ");
        const what = callee === null
          ? "expression"
          : FUNCTION_TYPES.has(callee.type)
          ? "inline function call"
          : `${text.length > 30 ? `${text.slice(0, 29)}…` : text} call`;
        drop(s, `${what} with test code`);
        continue;
      }
      if (references(e).has(entry)) {
        // The entry handed to a harness: `check(twoSum)`.
        drop(
          s,
          callee === null
            ? `use of ${entry}`
            : `call of ${code.slice(callee.start, callee.end)}()`,
        );
        continue;
      }
      const used = usedDropped(e);
      if (used !== null) drop(s, `use of ${used} from dropped code`);
      else keep(s);
      continue;
    }
    if (LOOPS.has(s.type) || COMPOUND[s.type] !== undefined) {
      const test = s.type === "IfStatement" ? s.test as JsNode : null;
      if (
        test !== null &&
        find(test, (n) => member(n, "require", "main")) !== null
      ) {
        drop(s, "require.main block");
        continue;
      }
      if (
        test !== null &&
        find(test, (n) =>
            n.type === "MemberExpression" && !n.computed &&
            (n.object as JsNode).type === "MetaProperty" &&
            ident(n.property, "main")) !== null
      ) {
        drop(s, "import.meta.main block");
        continue;
      }
      const own = declaredInside(s);
      if (find(s, isStdin) !== null) drop(s, "stdin read");
      else if (find(s, isModuleExports) !== null) {
        drop(s, "module.exports assignment");
      } else if (find(s, testy) !== null && !fillsTable(s)) {
        drop(
          s,
          LOOPS.has(s.type)
            ? "test loop"
            : `${COMPOUND[s.type]} with test code`,
        );
      } else {
        const used = usedDropped(s, own);
        if (used !== null) drop(s, `use of ${used} from dropped code`);
        else keep(s);
      }
      continue;
    }
    keep(s);
  }

  // A `require` whose names only dropped code used goes too: the sandbox
  // runs ES modules, where `require` itself is not defined.
  const keptRefs = (except: JsNode) => {
    const out = new Set<string>();
    for (const k of kept) {
      if (k === except) continue;
      for (const r of references(k)) out.add(r);
    }
    return out;
  };
  const droppedRefs = new Set<string>();
  for (const d of dropped) {
    for (const r of references(d.node)) droppedRefs.add(r);
  }
  for (const s of [...kept]) {
    if (s.type !== "VariableDeclaration") continue;
    const declarators = s.declarations as JsNode[];
    const modules = declarators.map((d) =>
      requiredModule(d.init as JsNode | null)
    );
    if (modules.some((m) => m === null)) continue;
    const binds = declarators.flatMap((d) => declared(d.id as JsNode));
    const others = keptRefs(s);
    if (
      binds.length > 0 && binds.every((b) => !others.has(b)) &&
      binds.some((b) => droppedRefs.has(b))
    ) {
      kept.splice(kept.indexOf(s), 1);
      drop(s, `require("${modules.join('", "')}") used only by dropped code`);
    }
  }

  const lines = code.split("\n");
  const commentLines = new Set<number>();
  const lineStarts = [0];
  for (const l of lines) lineStarts.push(lineStarts.at(-1)! + l.length + 1);
  for (const c of program.comments) {
    const firstLine = lineStarts.findIndex((o, i) =>
      o <= c.start && c.start < lineStarts[i + 1]!
    );
    if (firstLine < 0 || lineStarts[firstLine] !== c.start) continue;
    let last = firstLine;
    while (lineStarts[last + 1]! <= c.end - 1) last++;
    const after = lines[last]!.slice(c.end - lineStarts[last]!);
    if (after.trim() !== "") continue;
    for (let i = firstLine; i <= last; i++) commentLines.add(i);
  }
  return {
    dropped: dropped.map(({ kind, start, end }) => ({ kind, start, end })),
    commentLines,
  };
}
