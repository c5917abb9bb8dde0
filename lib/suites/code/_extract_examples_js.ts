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
import type { JsNode, JsProgram } from "./quality/mod.ts";
import { commentOnlyLines } from "./_extract_examples_js_comments.ts";
import {
  calls,
  isAssert,
  isConsole,
  isModuleExports,
  isStdin,
  STDIN_MODULES,
} from "./_extract_examples_js_marks.ts";
import { unusedRequires } from "./_extract_examples_js_require.ts";
import {
  calleeOf,
  declared,
  declaredInside,
  find,
  FUNCTION_TYPES,
  functionsOf,
  ident,
  literal,
  member,
  references,
  rootOf,
} from "./_extract_examples_js_tree.ts";

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

/** The first item of `set` that `pred` accepts, or null. */
function first<T>(set: Iterable<T>, pred: (t: T) => boolean): T | null {
  for (const t of set) if (pred(t)) return t;
  return null;
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
  const unused = unusedRequires(kept, dropped.map((d) => d.node));
  for (const { node, modules } of unused) {
    drop(node, `require("${modules.join('", "')}") used only by dropped code`);
  }

  return {
    dropped: dropped.map(({ kind, start, end }) => ({ kind, start, end })),
    commentLines: commentOnlyLines(program, code),
  };
}
