def k_closest_values(nums: list[int], x: int, k: int) -> list[int]:
    rest = list(nums)
    out = []
    while len(out) < k and rest:
        best = 0
        for i in range(1, len(rest)):
            a, b = rest[i], rest[best]
            if (abs(a - x), a) < (abs(b - x), b):
                best = i
        out.append(rest.pop(best))
    return out
