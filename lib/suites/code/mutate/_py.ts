/**
 * Mutants of a Python program, made by Python's own `ast` inside the
 * Python sandbox (the mutator is trusted; it runs there because the parent
 * has no CPython).
 *
 * @module
 */
import type { Sandbox } from "../../../sandbox/mod.ts";
import type { Mutant } from "./_types.ts";

/**
 * The trusted mutator: `mutate(source)` returns one
 * `[operator, line, column, change, code]` per distinct mutant, in source
 * order, each with one node of the tree changed and the code regenerated
 * with `ast.unparse`.
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
 * The trusted batch harness: `run_mutants(sources, entry, calls)` runs each
 * mutant in a fresh namespace on deep copies of the arguments and returns,
 * per mutant, `[[ok, value or error], ...]` per call, or null when the
 * mutant does not load.
 */
export const PY_BATCH = String.raw`
import copy


def run_mutants(sources, entry, calls):
    out = []
    for source in sources:
        namespace = {"__name__": "__mutant__"}
        try:
            exec(compile(source, "<mutant>", "exec"), namespace)
            fn = namespace[entry]
        except BaseException:
            out.append(None)
            continue
        rows = []
        for args in calls:
            try:
                rows.append([True, fn(*copy.deepcopy(args))])
            except BaseException as e:
                rows.append([False, type(e).__name__ + ": " + str(e)[:200]])
        out.append(rows)
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
    return (got.value as [string, number, number, string, string][]).map((
      [operator, line, column, change, code],
    ) => ({
      operator,
      line,
      column,
      description: `${operator} ${change} at ${line}:${column}`,
      code,
    }));
  });
}
