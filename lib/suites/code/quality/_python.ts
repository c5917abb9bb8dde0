/**
 * Python quality measures: an analysis program using Python's own `ast`
 * and `tokenize`, run inside the Python sandbox. It parses the candidate's
 * source as data; it never executes it.
 *
 * @module
 */
import { type CallResult, runCode } from "../../../sandbox/mod.ts";
import type { QualityMeasures } from "./types.ts";
import { tickBatcher } from "./_batch.ts";

/** The analysis program; `analyse(src)` returns the measures as a dict. */
export const PYTHON_ANALYSER = `
import ast, builtins, io, tokenize

_BUILTINS = frozenset(n for n in dir(builtins) if not n.startswith("_"))
_DECISION = (ast.If, ast.For, ast.AsyncFor, ast.While, ast.IfExp, ast.ExceptHandler)
_NEST = (ast.If, ast.For, ast.AsyncFor, ast.While, ast.With, ast.AsyncWith, ast.Try, ast.Match)
if hasattr(ast, "TryStar"):
    _NEST = _NEST + (ast.TryStar,)
_FUNC = (ast.FunctionDef, ast.AsyncFunctionDef, ast.Lambda)
_MUTABLE = (ast.List, ast.Dict, ast.Set, ast.ListComp, ast.DictComp, ast.SetComp)


def _docstring_lines(tree):
    out = set()
    for node in ast.walk(tree):
        if isinstance(node, (ast.Module, ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
            body = node.body
            if body and isinstance(body[0], ast.Expr) and isinstance(body[0].value, ast.Constant) and isinstance(body[0].value.value, str):
                out.update(range(body[0].lineno, body[0].end_lineno + 1))
    return out


def _code_lines(src, tree):
    skip = {tokenize.COMMENT, tokenize.NL, tokenize.NEWLINE, tokenize.INDENT, tokenize.DEDENT, tokenize.ENCODING, tokenize.ENDMARKER}
    lines = set()
    for tok in tokenize.generate_tokens(io.StringIO(src).readline):
        if tok.type not in skip:
            lines.update(range(tok.start[0], tok.end[0] + 1))
    return len(lines - _docstring_lines(tree))


def _cyclomatic(tree):
    n = 1
    for node in ast.walk(tree):
        if isinstance(node, _DECISION):
            n += 1
        elif isinstance(node, ast.BoolOp):
            n += len(node.values) - 1
        elif isinstance(node, ast.comprehension):
            n += 1 + len(node.ifs)
        elif isinstance(node, ast.match_case):
            wildcard = isinstance(node.pattern, ast.MatchAs) and node.pattern.pattern is None and node.guard is None
            if not wildcard:
                n += 1
    return n


def _nesting(tree):
    best = 0

    def visit(node, depth, parent):
        nonlocal best
        d = depth
        if isinstance(node, _FUNC):
            d = 0
        elif isinstance(node, _NEST):
            elif_ = isinstance(node, ast.If) and isinstance(parent, ast.If) and len(parent.orelse) == 1 and parent.orelse[0] is node
            if not elif_:
                d = depth + 1
            best = max(best, d)
        for child in ast.iter_child_nodes(node):
            visit(child, d, node)

    visit(tree, 0, None)
    return best


def _bound_names(node):
    if isinstance(node, ast.Name):
        yield node.id
    elif isinstance(node, (ast.Tuple, ast.List)):
        for e in node.elts:
            yield from _bound_names(e)
    elif isinstance(node, ast.Starred):
        yield from _bound_names(node.value)


def _unused_locals(fn):
    nodes = list(ast.walk(fn))  # nested functions may read the names
    declared = set()
    for node in nodes:
        if isinstance(node, (ast.Global, ast.Nonlocal)):
            declared.update(node.names)
    loaded = {node.id for node in nodes if isinstance(node, ast.Name) and not isinstance(node.ctx, ast.Store)}
    loaded.update(node.target.id for node in nodes if isinstance(node, ast.AugAssign) and isinstance(node.target, ast.Name))
    assigned = []
    own = []
    stack = list(ast.iter_child_nodes(fn))
    while stack:
        node = stack.pop()
        if isinstance(node, _FUNC + (ast.ClassDef,)):
            continue
        own.append(node)
        stack.extend(ast.iter_child_nodes(node))
    own.sort(key=lambda n: (getattr(n, "lineno", 0), getattr(n, "col_offset", 0)))
    for node in own:
        targets = []
        if isinstance(node, ast.Assign):
            targets = node.targets
        elif isinstance(node, ast.AnnAssign) and node.value is not None:
            targets = [node.target]
        elif isinstance(node, ast.NamedExpr):
            targets = [node.target]
        for t in targets:
            for name in _bound_names(t):
                if name not in assigned:
                    assigned.append(name)
    return [n for n in assigned if n not in loaded and n not in declared and not n.startswith("_")]


def _shadowed(tree):
    names = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Name) and isinstance(node.ctx, ast.Store):
            names.add(node.id)
        elif isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
            names.add(node.name)
        elif isinstance(node, ast.arg):
            names.add(node.arg)
        elif isinstance(node, ast.alias):
            names.add((node.asname or node.name).split(".")[0])
    return sorted(names & _BUILTINS)


def _findings(tree):
    out = []
    for node in ast.walk(tree):
        if isinstance(node, ast.ExceptHandler) and node.type is None:
            out.append("bare-except")
        elif isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.Lambda)):
            defaults = list(node.args.defaults) + [d for d in node.args.kw_defaults if d is not None]
            for d in defaults:
                call = isinstance(d, ast.Call) and isinstance(d.func, ast.Name) and d.func.id in ("list", "dict", "set")
                if isinstance(d, _MUTABLE) or call:
                    out.append("mutable-default")
            if not isinstance(node, ast.Lambda):
                out.extend("unused-local:" + n for n in _unused_locals(node))
    out.extend("shadowed-builtin:" + n for n in _shadowed(tree))
    return out


def analyse(src):
    try:
        tree = ast.parse(src)
    except (SyntaxError, ValueError, RecursionError, MemoryError):
        lines = [l for l in src.splitlines() if l.strip() and not l.strip().startswith("#")]
        return {"lines": len(lines), "cyclomatic": 0, "nesting": 0, "lint_findings": None, "parse_ok": False, "findings": []}
    findings = _findings(tree)
    return {
        "lines": _code_lines(src, tree),
        "cyclomatic": _cyclomatic(tree),
        "nesting": _nesting(tree),
        "lint_findings": len(findings),
        "parse_ok": True,
        "findings": findings,
    }
`;

function fallback(code: string): QualityMeasures {
  const lines =
    code.split("\n").filter((l) => l.trim() !== "" && !l.trim().startsWith("#"))
      .length;
  return {
    lines,
    cyclomatic: 0,
    nesting: 0,
    lint_findings: null,
    parse_ok: false,
    findings: [],
  };
}

type Outcome = { measures: QualityMeasures; complete: boolean };

function decode(code: string, result: CallResult | undefined): Outcome {
  if (result === undefined || !result.ok) {
    return { measures: fallback(code), complete: false };
  }
  const v = result.value as Record<string, unknown>;
  const findings = Array.isArray(v.findings)
    ? v.findings.filter((f): f is string => typeof f === "string")
    : [];
  return {
    measures: {
      lines: Number(v.lines),
      cyclomatic: Number(v.cyclomatic),
      nesting: Number(v.nesting),
      lint_findings: typeof v.lint_findings === "number"
        ? v.lint_findings
        : null,
      parse_ok: v.parse_ok === true,
      findings,
    },
    complete: true,
  };
}

/**
 * The analyser only parses its input, so one worker may read many sources:
 * one interpreter start for a whole batch (64 at most).
 */
const analyse = tickBatcher<string, Outcome>(async (codes) => {
  const run = await runCode({
    language: "python",
    code: PYTHON_ANALYSER,
    entry: "analyse",
    calls: codes.map((code) => [code]),
    timeoutMs: 30_000 + 500 * codes.length,
  }).catch(() => null);
  return codes.map((code, i) =>
    decode(code, run?.status === "ok" ? run.results[i] : undefined)
  );
}, 64);

/**
 * Measures a Python program with the sandboxed analyser; requests made in
 * the same tick share one sandbox run. `complete` is false when the
 * analysis itself did not finish (timeout, memory), so the caller does not
 * cache a transient failure.
 */
export function measurePython(code: string): Promise<Outcome> {
  return analyse(code);
}
