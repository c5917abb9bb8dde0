/**
 * A Python program's top-level statements as the dependency cut sees them,
 * read by Python's own `ast` module in a `python3` subprocess: the model's
 * code is only parsed there (`ast.parse`), never run, and reaches the
 * script as an argument. Written here because no JavaScript library parses
 * Python; Python's parser is the one that agrees with the sandbox.
 *
 * @module
 */
import type { TopStatement } from "./_extract_deps.ts";

/** The longest code passed on the command line (Linux caps one argument at 128 KiB). */
const MAX_CODE = 100_000;

// Prints {"statements": [TopStatement…]} or {"error": why} for argv[1].
const SCRIPT = String.raw`
import ast, json, sys
DEFS = (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)
def walk(node, into_lambda=True):
    stack = [node]
    while stack:
        n = stack.pop()
        yield n
        if into_lambda or not isinstance(n, ast.Lambda):
            stack.extend(reversed(list(ast.iter_child_nodes(n))))
def names(node, ctx):
    found = sorted((n.lineno, n.col_offset, n.id) for n in walk(node) if isinstance(n, ast.Name) and isinstance(n.ctx, ctx))
    return list(dict.fromkeys(f[2] for f in found))
def dotted(n):
    parts = []
    while isinstance(n, ast.Attribute):
        parts.insert(0, n.attr)
        n = n.value
    return ".".join([n.id] + parts) if isinstance(n, ast.Name) else None
def roots(node):
    out = set()
    for n in walk(node):
        if isinstance(n, (ast.Assign, ast.Delete)): stack = list(n.targets)
        elif isinstance(n, (ast.AugAssign, ast.AnnAssign)): stack = [n.target]
        elif isinstance(n, ast.Expr) and isinstance(n.value, ast.Call) and isinstance(n.value.func, ast.Attribute): stack = [n.value.func.value]
        else: continue
        while stack:
            t = stack.pop()
            if isinstance(t, (ast.Tuple, ast.List)): stack.extend(t.elts)
            elif isinstance(t, (ast.Attribute, ast.Subscript, ast.Starred)): stack.append(t.value)
            elif isinstance(t, ast.Name): out.add(t.id)
    return out
def facts(s):
    if isinstance(s, DEFS):
        glob = {g for n in walk(s) if isinstance(n, (ast.Global, ast.Nonlocal)) for g in n.names}
        local = (set(names(s, ast.Store)) | {a.arg for a in walk(s) if isinstance(a, ast.arg)} | {n.name for n in walk(s) if isinstance(n, DEFS) and n is not s}) - glob
        reads = [r for r in names(s, ast.Load) if r not in local]
        # The interpreter's settings (recursion limit, digit limit) in sys apply to every function.
        return dict(definition=True, inert=True, binds=[s.name], reads=reads + ["sys"], writes=sorted((roots(s) - local) | (set(names(s, ast.Store)) & glob)))
    if isinstance(s, (ast.Import, ast.ImportFrom)):
        binds = [a.asname or a.name.split(".")[0] for a in s.names]
        return dict(definition=False, inert=True, binds=binds, reads=[], writes=binds)
    value = getattr(s, "value", None)
    to_names = isinstance(s, (ast.Assign, ast.AnnAssign)) and all(isinstance(n, (ast.Name, ast.Tuple, ast.List)) for t in (s.targets if isinstance(s, ast.Assign) else [s.target]) for n in walk(t) if not isinstance(n, (ast.Load, ast.Store)))
    calls = value is not None and any(isinstance(n, (ast.Call, ast.Await, ast.Yield, ast.YieldFrom)) for n in walk(value, False))
    binds = names(s, ast.Store)
    return dict(definition=to_names and isinstance(value, ast.Lambda), inert=(to_names and not calls) or isinstance(s, ast.Pass) or isinstance(s, ast.Expr) and isinstance(value, ast.Constant),
                binds=binds, reads=names(s, ast.Load), writes=sorted(roots(s) | set(binds)))
def label(s, program):
    """The statement's name in the reason, by its shape; None for the generic ones."""
    if isinstance(s, ast.If) and "__name__" in names(s.test, ast.Load) and any(isinstance(c, ast.Constant) and c.value == "__main__" for c in walk(s.test)):
        return "__main__ block"
    for n in walk(s):
        f = dotted(n.func) if isinstance(n, ast.Call) else None
        if f in ("input", "raw_input") or dotted(n) in ("sys.stdin", "fileinput") or f == "open" and n.args and getattr(n.args[0], "value", None) == 0:
            return "stdin read"
    callee = dotted(s.value.func) if isinstance(s, ast.Expr) and isinstance(s.value, ast.Call) else None
    if callee in ("print", "pprint", "pprint.pprint", "sys.stdout.write"): return "print call"
    if isinstance(s, ast.Assert): return "assert statement"
    if isinstance(s, (ast.For, ast.AsyncFor, ast.While)): return "test loop"
    if isinstance(s, (ast.Assign, ast.AnnAssign, ast.AugAssign)):
        f = next((dotted(n.func) for n in walk(s) if isinstance(n, ast.Call) and dotted(n.func) in program), None)
        return f and f"assignment from {f}()"
    if callee is not None: return f"call of {callee}()" if callee in program else f"{callee}() call"
    return None
def main(src):
    try:
        tree = ast.parse(src)
    except SyntaxError as e:
        m = e.msg
        if m.endswith("was never closed") and m.startswith("'"): m = "an unclosed " + chr(96) + m[1] + chr(96) + " opened"
        return {"error": f"{m} on line {e.lineno}"}
    except (ValueError, RecursionError, MemoryError) as e:
        return {"error": f"{type(e).__name__}: {e}"}
    lines = src.split("\n")
    starts = [0]
    for line in lines: starts.append(starts[-1] + len(line.encode("utf-16-le")) // 2 + 1)
    def offset(line, col):
        return starts[line - 1] + len(lines[line - 1].encode()[:col].decode("utf-8", "ignore").encode("utf-16-le")) // 2
    known = [facts(s) for s in tree.body]
    program = {b for f in known if f["definition"] for b in f["binds"]}
    out = []
    for s, f in zip(tree.body, known):
        line, col = (s.decorator_list[0].lineno, s.decorator_list[0].col_offset - 1) if getattr(s, "decorator_list", None) else (s.lineno, s.col_offset)
        out.append(dict(start=offset(line, col), end=offset(s.end_lineno, s.end_col_offset), label=label(s, program), fallback="assignment" if isinstance(s, (ast.Assign, ast.AnnAssign, ast.AugAssign)) else f"{type(s).__name__.lower()} statement", **f))
    return {"statements": out}
print(json.dumps(main(sys.argv[1])))
`;

/** Options of `pythonStatements`. */
export interface PythonStatementsOptions {
  /** The Python that parses. @default "/usr/bin/python3" */
  python?: string;
}

/**
 * The program's top-level statements, or why they cannot be read (a
 * syntax error, no `python3`, no permission to run it); never throws.
 *
 * @param code The program (dedented, `\n` newlines).
 * @param options Which Python parses it.
 * @returns The statements, in order, or an error.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { pythonStatements } from "./_extract_deps_py.ts";
 * const read = pythonStatements("def f(x):\n    return x\nprint(f(2))\n");
 * assert.ok(!("error" in read));
 * assert.deepEqual(read.map((s) => s.label), [null, "print call"]);
 * const broken = pythonStatements("def f(x):\n    return [x\n");
 * assert.deepEqual(broken, { error: "an unclosed `[` opened on line 2" });
 * ```
 */
export function pythonStatements(
  code: string,
  { python = "/usr/bin/python3" }: PythonStatementsOptions = {},
): TopStatement[] | { error: string } {
  if (code.includes("\0")) return { error: "a NUL character in the code" };
  if (code.length > MAX_CODE) {
    return { error: `longer than ${MAX_CODE} characters` };
  }
  try {
    const out = new Deno.Command(python, {
      args: ["-I", "-S", "-B", "-c", SCRIPT, code],
      stdin: "null",
    }).outputSync();
    const text = new TextDecoder().decode(out.stdout);
    if (!out.success) {
      const why = new TextDecoder().decode(out.stderr).trim().split("\n").at(
        -1,
      );
      return { error: `${python} failed: ${why}` };
    }
    const read = JSON.parse(text) as { statements: TopStatement[] } | {
      error: string;
    };
    return "error" in read ? read : read.statements;
  } catch (error) {
    return {
      error: `cannot run ${python}: ${
        error instanceof Error ? error.message : String(error)
      }`,
    };
  }
}
