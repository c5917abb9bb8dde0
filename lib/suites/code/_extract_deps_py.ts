/**
 * A Python program's top-level statements as the dependency cut sees them,
 * read by Python's own `ast` module in a `python3` subprocess: the code is
 * only parsed there (`ast.parse`), never run. Python, not a JavaScript
 * library, parses it because its parser is the one the sandbox runs. One
 * process reads every program of a run, a line of JSON each way (starting
 * Python per reply cost about 60 ms; a read costs well under one), and
 * the caller awaits it, so nothing else in the process waits.
 *
 * @module
 */
import type { TopStatement } from "./_extract_deps.ts";

// For each line of stdin (a JSON string: the program), prints a line
// {"statements": [TopStatement…]} or {"error": why}.
const SCRIPT = String.raw`
import ast, json, sys
DEFS = (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)
def walk(node, into_lambda=True):
    stack = [node]
    while stack:
        yield (n := stack.pop())
        if into_lambda or not isinstance(n, ast.Lambda): stack.extend(reversed(list(ast.iter_child_nodes(n))))
def names(node, ctx):
    found = sorted((n.lineno, n.col_offset, n.id) for n in walk(node) if isinstance(n, ast.Name) and isinstance(n.ctx, ctx))
    return list(dict.fromkeys(f[2] for f in found))
def dotted(n):
    parts = []
    while isinstance(n, ast.Attribute): parts, n = [n.attr] + parts, n.value
    return ".".join([n.id] + parts) if isinstance(n, ast.Name) else None
def roots(node):  # what it assigns, deletes, or calls a method of as a statement
    out, stack = set(), []
    for n in walk(node):
        if isinstance(n, (ast.Assign, ast.Delete)): stack += n.targets
        elif isinstance(n, (ast.AugAssign, ast.AnnAssign)): stack.append(n.target)
        elif isinstance(n, ast.Expr) and isinstance(n.value, ast.Call) and isinstance(n.value.func, ast.Attribute): stack.append(n.value.func.value)
    while stack:
        t = stack.pop()
        if isinstance(t, (ast.Tuple, ast.List)): stack += t.elts
        elif isinstance(t, (ast.Attribute, ast.Subscript, ast.Starred)): stack.append(t.value)
        elif isinstance(t, ast.Name): out.add(t.id)
    return out
def facts(s):
    store = names(s, ast.Store)
    if isinstance(s, DEFS):
        glob = {g for n in walk(s) if isinstance(n, (ast.Global, ast.Nonlocal)) for g in n.names}
        local = (set(store) | {a.arg for a in walk(s) if isinstance(a, ast.arg)} | {n.name for n in walk(s) if isinstance(n, DEFS) and n is not s}) - glob
        # sys holds the interpreter's settings (recursion limit, digit limit) every function runs under.
        return dict(definition=True, inert=True, binds=[s.name], reads=[r for r in names(s, ast.Load) if r not in local] + ["sys"], writes=sorted((roots(s) - local) | (set(store) & glob)))
    if isinstance(s, (ast.Import, ast.ImportFrom)):
        binds = [a.asname or a.name.split(".")[0] for a in s.names]
        return dict(definition=False, inert=True, binds=binds, reads=[], writes=binds)
    value, targets = getattr(s, "value", None), getattr(s, "targets", [getattr(s, "target", None)])
    to_names = isinstance(s, (ast.Assign, ast.AnnAssign)) and all(isinstance(n, (ast.Name, ast.Tuple, ast.List, ast.expr_context)) for t in targets for n in walk(t))
    runs = value is not None and any(isinstance(n, (ast.Call, ast.Await, ast.Yield, ast.YieldFrom)) for n in walk(value, False))
    return dict(definition=to_names and isinstance(value, ast.Lambda), inert=to_names and not runs or isinstance(s, ast.Pass) or isinstance(s, ast.Expr) and isinstance(value, ast.Constant), binds=store, reads=names(s, ast.Load), writes=sorted(roots(s) | set(store)))
def label(s, program):  # the statement's name in the reason by its shape, or None
    if isinstance(s, ast.If) and "__name__" in names(s.test, ast.Load) and any(getattr(c, "value", None) == "__main__" for c in walk(s.test)): return "__main__ block"
    for n in walk(s):
        f = dotted(n.func) if isinstance(n, ast.Call) else None
        if f in ("input", "raw_input") or dotted(n) in ("sys.stdin", "fileinput") or f == "open" and n.args and getattr(n.args[0], "value", None) == 0: return "stdin read"
    callee = dotted(s.value.func) if isinstance(s, ast.Expr) and isinstance(s.value, ast.Call) else None
    if callee in ("print", "pprint", "pprint.pprint", "sys.stdout.write"): return "print call"
    if isinstance(s, ast.Assert): return "assert statement"
    if isinstance(s, (ast.For, ast.AsyncFor, ast.While)): return "test loop"
    if isinstance(s, (ast.Assign, ast.AnnAssign, ast.AugAssign)):
        f = next((dotted(n.func) for n in walk(s) if isinstance(n, ast.Call) and dotted(n.func) in program), None)
        return f and f"assignment from {f}()"
    return callee and (f"call of {callee}()" if callee in program else f"{callee}() call")
def main(src):
    try:
        tree = ast.parse(src)
    except SyntaxError as e:
        m = e.msg if not e.msg.endswith("was never closed") else "an unclosed " + chr(96) + e.msg[1] + chr(96) + " opened"
        return {"error": f"{m} on line {e.lineno}"}
    except (ValueError, RecursionError, MemoryError) as e:
        return {"error": f"{type(e).__name__}: {e}"}
    lines, starts = src.split("\n"), [0]
    for line in lines: starts.append(starts[-1] + len(line.encode("utf-16-le")) // 2 + 1)
    def offset(line, col):  # UTF-16 code units, as JavaScript counts
        return starts[line - 1] + len(lines[line - 1].encode()[:col].decode("utf-8", "ignore").encode("utf-16-le")) // 2
    known, out = [facts(s) for s in tree.body], []
    program = {b for f in known if f["definition"] for b in f["binds"]}
    for s, f in zip(tree.body, known):
        first = s.decorator_list[0] if getattr(s, "decorator_list", None) else None
        kind = "assignment" if isinstance(s, (ast.Assign, ast.AnnAssign, ast.AugAssign)) else type(s).__name__.lower() + " statement"
        out.append(dict(start=offset(first.lineno, first.col_offset - 1) if first else offset(s.lineno, s.col_offset), end=offset(s.end_lineno, s.end_col_offset), label=label(s, program), fallback=kind, **f))
    return {"statements": out}
for line in sys.stdin:
    try:
        out = main(json.loads(line))
    except Exception as e:
        out = {"error": f"{type(e).__name__}: {e}"}
    sys.stdout.write(json.dumps(out) + "\n")
    sys.stdout.flush()
`;

/** Reads Python programs' top-level statements, one program at a time. */
export interface PythonReader {
  /**
   * The program's top-level statements, or why they cannot be read (a
   * syntax error, no Python, no permission to run it); never rejects.
   */
  read(code: string): Promise<TopStatement[] | { error: string }>;
  /** Ends the Python process, if one is running. */
  close(): Promise<void>;
}

/**
 * A reader that keeps one `python3` parsing process for all its reads
 * (started on the first, started again after a failure), answering them
 * in order. Close it when done.
 *
 * @param python The Python that parses.
 * @returns The reader.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { pythonReader } from "./_extract_deps_py.ts";
 * const reader = pythonReader();
 * const [read, broken] = await Promise.all([
 *   reader.read("def f(x):\n    return x\nprint(f(2))\n"),
 *   reader.read("def f(x):\n    return [x\n"),
 * ]);
 * assert.deepEqual(Array.isArray(read) && read.map((s) => s.label), [null, "print call"]);
 * assert.deepEqual(broken, { error: "an unclosed `[` opened on line 2" });
 * await reader.close();
 * ```
 */
export function pythonReader(python = "/usr/bin/python3"): PythonReader {
  let child: Running | null = null;
  let queue: Promise<unknown> = Promise.resolve();
  const stop = async (kill: boolean) => {
    const running = child;
    child = null;
    await running?.end(kill);
  };
  const once = async (code: string) => {
    try {
      child ??= start(python);
      await child.stdin.write(ENCODER.encode(JSON.stringify(code) + "\n"));
      const line = await child.line();
      if (line === null) {
        const err = (await child.err.catch(() => "")).trim();
        await stop(true);
        return { error: `${python} failed: ${err || "it ended early"}` };
      }
      const read = JSON.parse(line);
      return "error" in read ? read : read.statements;
    } catch (error) {
      await stop(true);
      return { error: `cannot run ${python}: ${(error as Error).message}` };
    }
  };
  return {
    read(code) {
      const answer = queue.then(() => once(code));
      queue = answer;
      return answer;
    },
    async close() {
      await queue;
      await stop(false);
    },
  };
}

const ENCODER = new TextEncoder();

/** A running parser: its input, its next output line, its stderr. */
interface Running {
  stdin: WritableStreamDefaultWriter<Uint8Array>;
  line(): Promise<string | null>;
  err: Promise<string>;
  /** Ends it (closing its input, or killing it) and releases its pipes. */
  end(kill: boolean): Promise<void>;
}

function start(python: string): Running {
  const process = new Deno.Command(python, {
    args: ["-I", "-S", "-B", "-c", SCRIPT],
    stdin: "piped",
    stdout: "piped",
    stderr: "piped",
  }).spawn();
  const out = process.stdout.pipeThrough(new TextDecoderStream()).getReader();
  const err = new Response(process.stderr).text();
  // Line splitting by hand: each answer is one line of ASCII JSON, and
  // @std/streams' TextLineStream is on JSR, which is not reachable here.
  let buffered = "";
  const stdin = process.stdin.getWriter();
  return {
    stdin,
    err,
    async end(kill) {
      if (kill) {
        try {
          process.kill("SIGKILL");
        } catch { /* already gone */ }
      }
      await stdin.close().catch(() => {});
      await out.cancel().catch(() => {});
      await process.status;
      await err.catch(() => "");
    },
    async line() {
      for (;;) {
        const at = buffered.indexOf("\n");
        if (at >= 0) {
          const line = buffered.slice(0, at);
          buffered = buffered.slice(at + 1);
          return line;
        }
        const { value, done } = await out.read();
        if (done) return null;
        buffered += value;
      }
    },
  };
}
