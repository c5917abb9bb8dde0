/**
 * Mutants of a JavaScript program: parsed with acorn (ESTree), one node
 * changed per mutant, regenerated with astring.
 *
 * @module
 */
import * as acorn from "acorn";
import { generate } from "astring";
import { lineDiff, type Mutant } from "./_types.ts";

type Node = acorn.Node & Record<string, unknown>;

/** A planned mutation: where it is and how to apply it to a fresh tree. */
interface Site {
  operator: string;
  line: number;
  column: number;
  description: string;
  /** The index of the node in the pre-order walk of the tree. */
  index: number;
  apply: (node: Node, parent: Node | undefined, key: string) => void;
}

const COMPARISON_FLIP: Record<string, string> = {
  "<": "<=",
  "<=": "<",
  ">": ">=",
  ">=": ">",
  "==": "!=",
  "!=": "==",
  "===": "!==",
  "!==": "===",
};
const ARITHMETIC_SWAP: Record<string, string> = {
  "+": "-",
  "-": "+",
  "*": "/",
  "/": "*",
  "&": "|",
  "|": "&",
  "^": "|",
  "<<": ">>",
  ">>": "<<",
};
const ASSIGN_SWAP: Record<string, string> = {
  "+=": "-=",
  "-=": "+=",
  "*=": "/=",
  "/=": "*=",
  "&=": "|=",
  "|=": "&=",
  "^=": "|=",
};
const LOGICAL_SWAP: Record<string, string> = { "&&": "||", "||": "&&" };

function isNode(value: unknown): value is Node {
  return value !== null && typeof value === "object" &&
    typeof (value as { type?: unknown }).type === "string";
}

/** Child nodes with the key (and list position) they hang from. */
function* children(node: Node): Generator<[Node, string]> {
  for (const key of Object.keys(node)) {
    if (key === "loc" || key === "start" || key === "end") continue;
    const value = node[key];
    if (Array.isArray(value)) {
      for (let i = 0; i < value.length; i++) {
        if (isNode(value[i])) yield [value[i], `${key}.${i}`];
      }
    } else if (isNode(value)) yield [value, key];
  }
}

/** Pre-order walk; the index of a node is stable across parses of one source. */
function walk(
  root: Node,
  visit: (
    node: Node,
    parent: Node | undefined,
    key: string,
    index: number,
    grandparent: Node | undefined,
  ) => void,
): void {
  let index = 0;
  const go = (
    node: Node,
    parent: Node | undefined,
    key: string,
    grandparent: Node | undefined,
  ) => {
    visit(node, parent, key, index++, grandparent);
    for (const [child, k] of children(node)) go(child, node, k, parent);
  };
  go(root, undefined, "", undefined);
}

function replaceChild(parent: Node | undefined, key: string, next: Node): void {
  if (!parent) return;
  const [field, pos] = key.split(".") as [string, string | undefined];
  if (pos === undefined) parent[field] = next;
  else (parent[field] as Node[])[Number(pos)] = next;
}

function isStringy(node: unknown): boolean {
  return isNode(node) &&
    ((node.type === "Literal" && typeof node.value === "string") ||
      node.type === "TemplateLiteral");
}

function numeric(node: Node): node is Node & { value: number } {
  return node.type === "Literal" && typeof node.value === "number";
}

function literal(value: number): Node {
  const node = value < 0
    ? {
      type: "UnaryExpression",
      operator: "-",
      prefix: true,
      argument: { type: "Literal", value: -value, raw: String(-value) },
    }
    : { type: "Literal", value, raw: String(value) };
  return node as unknown as Node;
}

function parse(source: string): Node {
  return acorn.parse(source, {
    ecmaVersion: 2022,
    sourceType: "script",
    locations: true,
  }) as unknown as Node;
}

/** Whether a numeric literal is a bound: in a comparison, a ±, or a for-loop start. */
function isBound(parent: Node | undefined, key: string): boolean {
  if (!parent) return false;
  if (parent.type === "BinaryExpression") {
    const op = parent.operator as string;
    return op in COMPARISON_FLIP || op === "+" || op === "-";
  }
  if (parent.type === "AssignmentExpression") {
    return parent.operator === "+=" || parent.operator === "-=";
  }
  if (parent.type === "VariableDeclarator" && key === "init") {
    return true;
  }
  return false;
}

function sitesOf(root: Node): Site[] {
  const sites: Site[] = [];
  walk(root, (node, parent, key, index, grandparent) => {
    const loc = (node.loc as acorn.SourceLocation | undefined)?.start;
    const line = loc?.line ?? 0;
    const column = (loc?.column ?? 0) + 1;
    const add = (
      operator: string,
      description: string,
      apply: Site["apply"],
    ) => sites.push({ operator, line, column, description, index, apply });
    if (node.type === "BinaryExpression") {
      const op = node.operator as string;
      const flip = COMPARISON_FLIP[op];
      if (flip) {
        add("comparison", `${op} → ${flip}`, (n) => {
          n.operator = flip;
        });
      }
      const swap = ARITHMETIC_SWAP[op];
      if (swap && !isStringy(node.left) && !isStringy(node.right)) {
        add("arithmetic", `${op} → ${swap}`, (n) => {
          n.operator = swap;
        });
      }
    } else if (node.type === "AssignmentExpression") {
      const op = node.operator as string;
      const swap = ASSIGN_SWAP[op];
      if (swap && !isStringy(node.right)) {
        add("arithmetic", `${op} → ${swap}`, (n) => {
          n.operator = swap;
        });
      }
    } else if (node.type === "LogicalExpression") {
      const op = node.operator as string;
      const swap = LOGICAL_SWAP[op];
      if (swap) {
        add("logical", `${op} → ${swap}`, (n) => {
          n.operator = swap;
        });
      }
    } else if (node.type === "IfStatement") {
      add("negate_if", "if (c) → if (!(c))", (n) => {
        n.test = {
          type: "UnaryExpression",
          operator: "!",
          prefix: true,
          argument: n.test,
        } as unknown as Node;
      });
    } else if (node.type === "ReturnStatement" && parent) {
      // Early: the return is an if's branch, or a statement of a block
      // that is an if's branch.
      const early = parent.type === "IfStatement" ||
        (parent.type === "BlockStatement" &&
          grandparent?.type === "IfStatement");
      if (early) {
        add("drop_return", "return in if → ;", (_n, p, k) => {
          replaceChild(p, k, { type: "EmptyStatement" } as unknown as Node);
        });
      }
    } else if (numeric(node) && Number.isInteger(node.value)) {
      if (isBound(parent, key)) {
        const v = node.value;
        for (const d of [1, -1]) {
          add(
            "off_by_one",
            `${v} → ${v + d}`,
            (_n, p, k) => replaceChild(p, k, literal(v + d)),
          );
        }
      }
    }
  });
  return sites;
}

/**
 * Every distinct mutant of a JavaScript program, in source order; mutants
 * whose code equals the regenerated original (or an earlier mutant) are
 * dropped.
 *
 * @throws {SyntaxError} When acorn cannot parse the source.
 */
export function jsMutants(source: string): Mutant[] {
  let original: Node;
  try {
    original = parse(source);
  } catch (e) {
    throw new SyntaxError(
      `Cannot mutate a JavaScript program: it does not parse as ES2022 (${
        e instanceof Error ? e.message : String(e)
      }); fix the source`,
    );
  }
  const baseline = generate(original as never);
  const sites = sitesOf(original);
  sites.sort((a, b) => a.index - b.index);
  const seen = new Set<string>([baseline]);
  const all: Mutant[] = [];
  for (const site of sites) {
    const tree = parse(source);
    walk(tree, (node, parent, key, index) => {
      if (index === site.index) site.apply(node, parent, key);
    });
    const code = generate(tree as never);
    if (seen.has(code)) continue;
    seen.add(code);
    all.push({
      operator: site.operator,
      line: site.line,
      column: site.column,
      description:
        `${site.operator} ${site.description} at ${site.line}:${site.column}`,
      code,
      diff: lineDiff(baseline, code),
    });
  }
  return all;
}
