/**
 * Queries over acorn's syntax tree of a JavaScript/TypeScript program, for
 * the dependency cut: finding a node, matching identifiers, members and
 * calls, and the names a piece of code declares or reads.
 *
 * @module
 */
import { childNodes, type JsNode } from "./quality/mod.ts";

/** Node types of a function (declaration, expression or arrow). */
export const FUNCTION_TYPES = new Set([
  "FunctionDeclaration",
  "FunctionExpression",
  "ArrowFunctionExpression",
]);

/** A test on one node. */
export type Pred = (n: JsNode) => boolean;

/** The first node under `node` (itself included) that `pred` accepts. */
export function find(node: JsNode, pred: Pred): JsNode | null {
  const stack = [node];
  while (stack.length > 0) {
    const n = stack.pop()!;
    if (pred(n)) return n;
    stack.push(...childNodes(n).reverse());
  }
  return null;
}

/** Whether `n` is an identifier (named `name`, when given). */
export function ident(
  n: unknown,
  name?: string,
): n is JsNode & { name: string } {
  const node = n as JsNode | null;
  return node?.type === "Identifier" &&
    (name === undefined || node.name === name);
}

/** `object.property` with a plain (non-computed) property name. */
export function member(n: JsNode, object: string, property?: string): boolean {
  if (n.type !== "MemberExpression" || n.computed) return false;
  const p = n.property as JsNode;
  return ident(n.object, object) &&
    (property === undefined || ident(p, property));
}

/** The callee of a call, or null when `n` is not a call. */
export function calleeOf(n: JsNode): JsNode | null {
  return n.type === "CallExpression" ? n.callee as JsNode : null;
}

/** The value of a literal, or undefined when `n` is not one. */
export function literal(n: unknown): unknown {
  const node = n as JsNode | undefined;
  return node?.type === "Literal" ? node.value : undefined;
}

/** The identifier at the root of `a.b[c].d`, if any. */
export function rootOf(n: JsNode): string | null {
  let node = n;
  while (node.type === "MemberExpression") node = node.object as JsNode;
  return ident(node) ? node.name : null;
}

/** Names an expression or statement reads (property keys and labels left out). */
export function references(node: JsNode): Set<string> {
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
export function declared(pattern: JsNode | null): string[] {
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
export function declaredInside(node: JsNode): Set<string> {
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

/** Every node under `node` (itself included), not entering nested functions. */
export function walkOutsideFunctions(node: JsNode): JsNode[] {
  const out: JsNode[] = [];
  for (const stack = [node]; stack.length > 0;) {
    const n = stack.pop()!;
    out.push(n);
    if (n === node || !FUNCTION_TYPES.has(n.type)) stack.push(...childNodes(n));
  }
  return out;
}
