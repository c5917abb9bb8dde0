/**
 * What marks a JavaScript/TypeScript node as example or test code: a
 * `console.*` or `assert` call, a read of stdin, a CommonJS export, a call
 * of one of a set of functions.
 *
 * @module
 */
import type { JsNode } from "./quality/mod.ts";
import {
  calleeOf,
  ident,
  literal,
  member,
  type Pred,
  rootOf,
} from "./_extract_examples_js_tree.ts";

/** Modules that read stdin line by line. */
export const STDIN_MODULES = new Set(["readline", "node:readline"]);

/** A `console.*` call. */
export const isConsole: Pred = (n) => {
  const c = calleeOf(n);
  return c !== null && member(c, "console");
};

/** An `assert(...)` or `assert.*(...)` call. */
export const isAssert: Pred = (n) => {
  const c = calleeOf(n);
  return c !== null && (ident(c, "assert") || member(c, "assert"));
};

/** A read of stdin (`process.stdin`, `readline`, `prompt()`, `readFileSync(0)`, ...). */
export const isStdin: Pred = (n) => {
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

/** A `module.exports` or `exports.*` assignment. */
export const isModuleExports: Pred = (n) =>
  member(n, "module", "exports") ||
  n.type === "AssignmentExpression" && rootOf(n.left as JsNode) === "exports";

/** A call of one of `names` (a plain identifier callee). */
export function calls(names: ReadonlySet<string>): (n: JsNode) => boolean {
  return (n) => {
    const c = calleeOf(n);
    return c !== null && ident(c) && names.has(c.name);
  };
}
