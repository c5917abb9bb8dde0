def same_letters(a, b):
    counts = {}
    for ch in a:
        counts[ch] = counts.get(ch, 0) + 1
    for ch in b:
        c = counts.get(ch, 0)
        if c == 0:
            return False
        counts[ch] = c - 1
    return len(a) == len(b)
