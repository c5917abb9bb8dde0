def squares_sorted(nums: list[int]) -> list[int]:
    out = [x * x for x in nums]
    for i in range(1, len(out)):
        v = out[i]
        j = i - 1
        while j >= 0 and out[j] > v:
            out[j + 1] = out[j]
            j -= 1
        out[j + 1] = v
    return out
