def longest_border(s):
    n = len(s)
    for length in range(n - 1, 0, -1):
        ok = True
        for i in range(length):
            if s[i] != s[n - length + i]:
                ok = False
                break
        if ok:
            return length
    return 0
