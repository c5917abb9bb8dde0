/**
 * The `require`s of a JavaScript program that only its dropped example
 * code used: they go too, since the sandbox runs ES modules, where
 * `require` itself is not defined.
 *
 * @module
 */
import type { JsNode } from "./quality/mod.ts";
import {
  declared,
  ident,
  literal,
  references,
} from "./_extract_examples_js_tree.ts";

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

/** A kept `require` statement to drop, and the modules it requires. */
export interface UnusedRequire {
  /** The statement (a variable declaration of `require(...)` values only). */
  node: JsNode;
  /** The required modules, in order. */
  modules: string[];
}

/**
 * The kept statements that only declare `require`d names which no other
 * kept statement reads and dropped code does, in order; each one found
 * stops counting as kept for the ones after it.
 */
export function unusedRequires(
  kept: readonly JsNode[],
  dropped: readonly JsNode[],
): UnusedRequire[] {
  const live = [...kept];
  const out: UnusedRequire[] = [];
  const keptRefs = (except: JsNode) => {
    const refs = new Set<string>();
    for (const k of live) {
      if (k === except) continue;
      for (const r of references(k)) refs.add(r);
    }
    return refs;
  };
  const droppedRefs = new Set<string>();
  for (const d of dropped) {
    for (const r of references(d)) droppedRefs.add(r);
  }
  for (const s of kept) {
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
      live.splice(live.indexOf(s), 1);
      out.push({ node: s, modules: modules as string[] });
    }
  }
  return out;
}
