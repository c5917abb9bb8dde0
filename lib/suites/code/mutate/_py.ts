/**
 * Mutants of a Python program, made by Python's own `ast` inside the
 * Python sandbox (the mutator is trusted; it runs there because the parent
 * has no CPython).
 *
 * @module
 */
import type { Sandbox } from "../../../sandbox/mod.ts";
import { lineDiff, type Mutant } from "./_types.ts";

/**
 * The trusted mutator: `mutate(source)` returns `[base, mutants]`: the
 * source regenerated with `ast.unparse`, and one
 * `[operator, line, column, change, code]` per distinct mutant, in source
 * order, each with one node of the tree changed and the code regenerated
 * the same way.
 */
export const PY_MUTATOR = String.raw`
import ast

COMPARE = {ast.Lt: ast.LtE, ast.LtE: ast.Lt, ast.Gt: ast.GtE, ast.GtE: ast.Gt,
           ast.Eq: ast.NotEq, ast.NotEq: ast.Eq, ast.Is: ast.IsNot,
           ast.IsNot: ast.Is, ast.In: ast.NotIn, ast.NotIn: ast.In}
ARITH = {ast.Add: ast.Sub, ast.Sub: ast.Add, ast.Mult: ast.FloorDiv,
         ast.FloorDiv: ast.Mult, ast.Div: ast.Mult, ast.BitAnd: ast.BitOr,
         ast.BitOr: ast.BitAnd, ast.BitXor: ast.BitOr, ast.LShift: ast.RShift,
         ast.RShift: ast.LShift}
SYMBOL = {ast.Lt: "<", ast.LtE: "<=", ast.Gt: ">", ast.GtE: ">=", ast.Eq: "==",
          ast.NotEq: "!=", ast.Is: "is", ast.IsNot: "is not", ast.In: "in",
          ast.NotIn: "not in", ast.Add: "+", ast.Sub: "-", ast.Mult: "*",
          ast.FloorDiv: "//", ast.Div: "/", ast.BitAnd: "&", ast.BitOr: "|",
          ast.BitXor: "^", ast.LShift: "<<", ast.RShift: ">>",
          ast.And: "and", ast.Or: "or"}


def walk(tree):
    out = []

    def go(node, parent, field, pos, grand):
        out.append((node, parent, field, pos, grand))
        for name, value in ast.iter_fields(node):
            if name in ("annotation", "returns", "type_comment"):
                continue  # type annotations do not run
            if isinstance(value, list):
                for i, item in enumerate(value):
                    if isinstance(item, ast.AST):
                        go(item, node, name, i, parent)
            elif isinstance(value, ast.AST):
                go(value, node, name, None, parent)

    go(tree, None, None, None, None)
    return out


def stringy(node):
    return isinstance(node, ast.JoinedStr) or (
        isinstance(node, ast.Constant) and isinstance(node.value, str))


def is_bound(parent, field):
    if isinstance(parent, ast.Compare):
        return True
    if isinstance(parent, ast.BinOp) and isinstance(parent.op, (ast.Add, ast.Sub)):
        return True
    if isinstance(parent, ast.AugAssign) and isinstance(parent.op, (ast.Add, ast.Sub)):
        return field == "value"
    if isinstance(parent, ast.Call) and field == "args":
        return isinstance(parent.func, ast.Name) and parent.func.id == "range"
    if isinstance(parent, (ast.Assign, ast.Tuple)):
        return True
    return False


def sites(tree):
    found = []
    for index, (node, parent, field, pos, grand) in enumerate(walk(tree)):
        line = getattr(node, "lineno", 0)
        col = getattr(node, "col_offset", -1) + 1
        def add(op, change, k=None):
            found.append((index, k, op, line, col, change))
        if isinstance(node, ast.Compare):
            for k, op in enumerate(node.ops):
                if type(op) in COMPARE:
                    add("comparison", SYMBOL[type(op)] + " → " + SYMBOL[COMPARE[type(op)]], k)
        elif isinstance(node, (ast.BinOp, ast.AugAssign)):
            t = type(node.op)
            right = node.right if isinstance(node, ast.BinOp) else node.value
            left = node.left if isinstance(node, ast.BinOp) else None
            if t in ARITH and not stringy(right) and not stringy(left):
                eq = "" if isinstance(node, ast.BinOp) else "="
                add("arithmetic", SYMBOL[t] + eq + " → " + SYMBOL[ARITH[t]] + eq)
        elif isinstance(node, ast.BoolOp):
            other = ast.Or if isinstance(node.op, ast.And) else ast.And
            add("logical", SYMBOL[type(node.op)] + " → " + SYMBOL[other])
        elif isinstance(node, ast.If):
            add("negate_if", "if c → if not c")
        elif isinstance(node, ast.Return) and isinstance(parent, ast.If):
            add("drop_return", "return in if → pass")
        elif (isinstance(node, ast.Constant) and type(node.value) is int
              and is_bound(parent, field)):
            v = node.value
            add("off_by_one", str(v) + " → " + str(v + 1), 1)
            add("off_by_one", str(v) + " → " + str(v - 1), -1)
    return found


def apply(tree, index, k):
    node, parent, field, pos, grand = walk(tree)[index]
    if isinstance(node, ast.Compare):
        node.ops[k] = COMPARE[type(node.ops[k])]()
    elif isinstance(node, (ast.BinOp, ast.AugAssign)):
        node.op = ARITH[type(node.op)]()
    elif isinstance(node, ast.BoolOp):
        node.op = ast.Or() if isinstance(node.op, ast.And) else ast.And()
    elif isinstance(node, ast.If):
        node.test = ast.UnaryOp(op=ast.Not(), operand=node.test)
    elif isinstance(node, ast.Return):
        getattr(parent, field)[pos] = ast.Pass()
    elif isinstance(node, ast.Constant):
        node.value = node.value + k


def mutate(source):
    base = ast.unparse(ast.parse(source))
    return [base, mutants_of(source, base)]


def mutants_of(source, base):
    seen = {base}
    out = []
    for index, k, op, line, col, change in sites(ast.parse(source)):
        tree = ast.parse(source)
        apply(tree, index, k)
        code = ast.unparse(ast.fix_missing_locations(tree))
        if code in seen:
            continue
        seen.add(code)
        out.append([op, line, col, change, code])
    return out
`;

/**
 * The trusted batch harness: `run_mutants(jobs, floor_ms, factor, cap_ms,
 * token)` takes jobs `[entry, calls, sources]` (one problem each) and runs
 * each source (the job's reference first) in a fresh
 * namespace, with a tick call added by `ast` at the start of every loop and
 * function body, on deep copies of the arguments, and returns per job one
 * `[status, rows, cpu_ms, error]` per source: status "ok" (rows are
 * `[ok, value or error]` per call), "load" (it does not load) or "timeout"
 * (its CPU budget ran out: `factor` × the job's reference CPU time, at least
 * `floor_ms`, at most `cap_ms`; the tick raises a `BaseException` that the
 * program's own `except Exception` cannot swallow). Before each source it
 * prints `<token> <job> <index>` on its own line, so the parent knows which
 * mutant was running when a batch dies. Values that are not plain data
 * become errors, so the answer can always be sent back.
 */
export const PY_BATCH = String.raw`
import ast
import copy
import time

try:
    from js import process as _process

    def _cpu():
        u = _process.cpuUsage()
        return (u.user + u.system) / 1000
    _cpu()
except BaseException:
    def _cpu():
        return time.process_time() * 1000


class _OutOfTime(BaseException):
    pass


class _Guard(ast.NodeTransformer):
    def _guard(self, node):
        self.generic_visit(node)
        call = ast.Call(ast.Name("__mutant_tick__", ast.Load()), [], [])
        node.body.insert(0, ast.Expr(call))
        return node

    visit_For = visit_AsyncFor = visit_While = _guard
    visit_FunctionDef = visit_AsyncFunctionDef = _guard


def _plain(v, depth=0):
    if depth > 100:
        return False
    if v is None or isinstance(v, (bool, int, float, str)):
        return True
    if isinstance(v, (list, tuple, set, frozenset)):
        return all(_plain(x, depth + 1) for x in v)
    if isinstance(v, dict):
        return all(_plain(k, depth + 1) and _plain(x, depth + 1)
                   for k, x in v.items())
    return False


def _text(e):
    try:
        return type(e).__name__ + ": " + str(e)[:200]
    except BaseException:
        return type(e).__name__


def run_mutants(jobs, floor_ms, factor, cap_ms, token):
    return [run_job(j, job, floor_ms, factor, cap_ms, token)
            for j, job in enumerate(jobs)]


def run_job(j, job, floor_ms, factor, cap_ms, token):
    entry, calls, sources = job
    state = {"deadline": float("inf"), "expired": False, "ticks": 0}

    def tick():
        if state["expired"]:
            raise _OutOfTime()
        state["ticks"] += 1
        if state["ticks"] & 63 == 0 and _cpu() > state["deadline"]:
            state["expired"] = True
            raise _OutOfTime()

    out = []
    budget = float("inf")
    for m, source in enumerate(sources):
        print("\n" + token + " " + str(j) + " " + str(m), flush=True)
        namespace = {"__name__": "__mutant__", "__mutant_tick__": tick}
        try:
            tree = ast.fix_missing_locations(_Guard().visit(ast.parse(source)))
            exec(compile(tree, "<mutant>", "exec"), namespace)
            fn = namespace[entry]
        except BaseException as e:
            out.append(["load", [], 0, _text(e)])
            continue
        state["expired"] = False
        state["ticks"] = 0
        t0 = _cpu()
        state["deadline"] = t0 + budget
        rows = []
        for args in calls:
            if state["expired"]:
                break
            try:
                v = fn(*copy.deepcopy(args))
                rows.append([True, v] if _plain(v) else [False, "not plain data"])
            except BaseException as e:
                rows.append([False, _text(e)])
        used = _cpu() - t0
        if m == 0:
            budget = min(cap_ms, max(floor_ms, factor * used))
        out.append(["timeout", [], used, ""] if state["expired"]
                   else ["ok", rows, used, ""])
    return out
`;

/**
 * Every distinct mutant of each Python program, in source order, made
 * inside the sandbox (one request for all programs).
 *
 * @throws {SyntaxError} When the mutator fails on a source.
 */
export async function pyMutants(
  sandbox: Sandbox,
  sources: string[],
): Promise<Mutant[][]> {
  if (sources.length === 0) return [];
  const r = await sandbox.runCode({
    language: "python",
    code: PY_MUTATOR,
    entry: "mutate",
    calls: sources.map((s) => [s]),
    timeoutMs: 120_000,
  });
  return sources.map((_, i) => {
    const got = r.results[i];
    if (r.status !== "ok" || !got?.ok) {
      throw new SyntaxError(
        `Cannot mutate a Python program: the mutator failed on source ${i} (${
          r.error ?? (got && !got.ok ? got.error : r.status)
        }); check that the source parses with Python 3`,
      );
    }
    const [base, mutants] = got.value as [
      string,
      [string, number, number, string, string][],
    ];
    return mutants.map(([operator, line, column, change, code]) => ({
      operator,
      line,
      column,
      description: `${operator} ${change} at ${line}:${column}`,
      code,
      diff: lineDiff(base, code),
    }));
  });
}
