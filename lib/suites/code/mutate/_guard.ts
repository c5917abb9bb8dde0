/**
 * Time guards for JavaScript mutants run in one batch: a call to a tick
 * function at the start of every loop body and every function body, so a
 * mutant that loops or recurses without end is stopped by the batch
 * harness (which throws from the tick once the mutant's CPU budget is
 * spent) instead of holding the whole batch until the sandbox kills it.
 *
 * @module
 */
import * as acorn from "acorn";
import { generate } from "astring";

type Node = acorn.Node & Record<string, unknown>;

/** The name of the tick function the harness passes to each mutant. */
export const TICK = "__mutantTick";

const LOOPS = new Set([
  "ForStatement",
  "ForInStatement",
  "ForOfStatement",
  "WhileStatement",
  "DoWhileStatement",
]);
const FUNCTIONS = new Set([
  "FunctionDeclaration",
  "FunctionExpression",
  "ArrowFunctionExpression",
]);

function tick(): Node {
  return {
    type: "ExpressionStatement",
    expression: {
      type: "CallExpression",
      callee: { type: "Identifier", name: TICK },
      arguments: [],
      optional: false,
    },
  } as unknown as Node;
}

function block(body: Node[]): Node {
  return { type: "BlockStatement", body } as unknown as Node;
}

function isNode(value: unknown): value is Node {
  return value !== null && typeof value === "object" &&
    typeof (value as { type?: unknown }).type === "string";
}

function visit(node: Node): void {
  for (const key of Object.keys(node)) {
    if (key === "loc") continue;
    const value = node[key];
    if (Array.isArray(value)) {
      for (const item of value) if (isNode(item)) visit(item);
    } else if (isNode(value)) visit(value);
  }
  if (LOOPS.has(node.type)) {
    const body = node.body as Node;
    node.body = block(
      body.type === "BlockStatement"
        ? [tick(), ...(body.body as Node[])]
        : [tick(), body],
    );
  } else if (FUNCTIONS.has(node.type)) {
    const body = node.body as Node;
    if (body.type === "BlockStatement") {
      (body.body as Node[]).unshift(tick());
    } else {
      // An expression-bodied arrow becomes `{ tick(); return expr; }`.
      node.expression = false;
      node.body = block([
        tick(),
        { type: "ReturnStatement", argument: body } as unknown as Node,
      ]);
    }
  }
}

/**
 * The program with a `__mutantTick()` call first in every loop and function
 * body (nothing else changes; the harness defines the tick).
 *
 * @throws {SyntaxError} When acorn cannot parse the source.
 */
export function guardJs(source: string): string {
  const tree = acorn.parse(source, {
    ecmaVersion: 2022,
    sourceType: "script",
  }) as unknown as Node;
  visit(tree);
  return generate(tree as never);
}

/**
 * The trusted JavaScript batch harness (sent to the sandbox as the
 * program): `runMutants(jobs, floorMs, factor, capMs, token)` takes jobs
 * `[entry, calls, sources]` (one problem each, its reference first among
 * the guarded sources), loads each source with `new Function` in strict
 * mode, calls the entry on a structured clone of every argument list and
 * returns per job one `[status, rows, cpuMs, why]` per source: status "ok"
 * (rows are `[ok, value or error]` per call), "load" (it does not define
 * the entry) or "timeout" (its CPU budget ran out: `factor` × the job's
 * reference CPU time, at least `floorMs`, at most `capMs`). Before each
 * source it prints `<token> <job> <index>` on its own line, so the parent
 * knows which mutant was running when a batch dies (out of memory, or a
 * hang no tick can see). Values that are not plain data become errors, so
 * the batch's answer can always be sent back.
 */
export const JS_BATCH = `
function runMutants(jobs, floorMs, factor, capMs, token) {
  const cpu = () => {
    const u = process.cpuUsage();
    return (u.user + u.system) / 1000;
  };
  let deadline = Infinity;
  let expired = false;
  let ticks = 0;
  const tick = () => {
    if (expired) throw new Error("the mutant ran out of time");
    if ((++ticks & 63) === 0 && cpu() > deadline) {
      expired = true;
      throw new Error("the mutant ran out of time");
    }
  };
  const plain = (v, depth, seen) => {
    if (depth > 100) return false;
    if (v === null || v === undefined) return true;
    const t = typeof v;
    if (t === "boolean" || t === "number" || t === "string" || t === "bigint") {
      return true;
    }
    if (t !== "object" || seen.includes(v)) return false;
    seen.push(v);
    let ok;
    const proto = Object.getPrototypeOf(v);
    if (Array.isArray(v) || proto === Set.prototype) {
      ok = [...v].every((x) => plain(x, depth + 1, seen));
    } else if (proto === Map.prototype) {
      ok = [...v].every(([k, x]) =>
        plain(k, depth + 1, seen) && plain(x, depth + 1, seen)
      );
    } else if (proto === Object.prototype || proto === null) {
      ok = Object.keys(v).every((k) => plain(v[k], depth + 1, seen));
    } else ok = false;
    seen.pop();
    return ok;
  };
  const text = (e) => {
    try {
      return e instanceof Error ? e.name + ": " + e.message : "thrown: " + e;
    } catch {
      return "thrown: (unprintable)";
    }
  };
  return jobs.map(([entry, calls, sources], j) => {
  const out = [];
  let budget = Infinity;
  for (let m = 0; m < sources.length; m++) {
    console.log("\\n" + token + " " + j + " " + m);
    let fn;
    try {
      fn = new Function(
        "${TICK}",
        '"use strict";\\n' + sources[m] + "\\n;return typeof " + entry +
          ' === "function" ? ' + entry + " : undefined;",
      )(tick);
    } catch (e) {
      out.push(["load", [], 0, text(e)]);
      continue;
    }
    if (typeof fn !== "function") {
      out.push(["load", [], 0, "no entry function " + entry]);
      continue;
    }
    expired = false;
    ticks = 0;
    const t0 = cpu();
    deadline = t0 + budget;
    const rows = [];
    for (const args of calls) {
      if (expired) break;
      try {
        const v = fn(...structuredClone(args));
        rows.push(plain(v, 0, []) ? [true, v] : [false, "not plain data"]);
      } catch (e) {
        rows.push([false, text(e)]);
      }
    }
    const used = cpu() - t0;
    if (m === 0) budget = Math.min(capMs, Math.max(floorMs, factor * used));
    out.push(expired ? ["timeout", [], used, ""] : ["ok", rows, used, ""]);
  }
  return out;
  });
}
`;
