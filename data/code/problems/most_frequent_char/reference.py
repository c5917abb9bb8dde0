def most_frequent_char(s):
    counts = {}
    for ch in s:
        counts[ch] = counts.get(ch, 0) + 1
    best, best_count = "", 0
    for ch, c in counts.items():  # dicts keep first-insertion order
        if c > best_count:
            best, best_count = ch, c
    return [best, best_count]
