def min_rooms(meetings: list[list[int]]) -> int:
    best = 0
    for s, _ in meetings:
        count = 0
        for a, b in meetings:
            if a <= s < b:
                count += 1
        best = max(best, count)
    return best
