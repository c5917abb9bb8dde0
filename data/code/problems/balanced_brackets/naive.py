def balanced_brackets(s: str) -> bool:
    t = [ch for ch in s if ch in "()[]{}"]
    changed = True
    while changed:
        changed = False
        for i in range(len(t) - 1):
            if t[i] + t[i + 1] in ("()", "[]", "{}"):
                del t[i : i + 2]
                changed = True
                break
    return not t
