def min_jumps_to_end(reach):
    n = len(reach)
    best = [-1] * n
    best[0] = 0
    for j in range(1, n):
        for i in range(j):
            if best[i] != -1 and i + reach[i] >= j and (best[j] == -1 or best[i] + 1 < best[j]):
                best[j] = best[i] + 1
    return best[n - 1]
