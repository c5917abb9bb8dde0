def running_median(nums: list[int]) -> list[float]:
    seen = []
    out = []
    for x in nums:
        i = 0
        while i < len(seen) and seen[i] < x:
            i += 1
        seen.insert(i, x)
        m = len(seen) // 2
        if len(seen) % 2 == 1:
            out.append(seen[m])
        else:
            out.append((seen[m - 1] + seen[m]) / 2)
    return out
