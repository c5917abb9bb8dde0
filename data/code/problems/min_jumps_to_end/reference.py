def min_jumps_to_end(reach):
    n = len(reach)
    jumps = 0
    current_end = 0  # farthest cell reachable with `jumps` jumps
    farthest = 0  # farthest cell reachable with one more jump
    for i in range(n - 1):
        farthest = max(farthest, i + reach[i])
        if i == current_end:
            if farthest <= i:
                return -1
            jumps += 1
            current_end = farthest
    return jumps
