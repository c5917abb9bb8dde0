def longest_unique_substring(s: str) -> int:
    last = {}
    left = 0
    best = 0
    for i, ch in enumerate(s):
        if ch in last and last[ch] >= left:
            left = last[ch] + 1
        last[ch] = i
        if i - left + 1 > best:
            best = i - left + 1
    return best
