def min_window_cover_len(s: str, t: str) -> int:
    if not t:
        return 0
    need = {}
    for ch in t:
        need[ch] = need.get(ch, 0) + 1
    best = 0
    for i in range(len(s)):
        have = {}
        missing = len(t)
        for j in range(i, len(s)):
            ch = s[j]
            if ch in need:
                have[ch] = have.get(ch, 0) + 1
                if have[ch] <= need[ch]:
                    missing -= 1
            if missing == 0:
                if best == 0 or j - i + 1 < best:
                    best = j - i + 1
                break
    return best
