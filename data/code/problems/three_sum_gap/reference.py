def three_sum_gap(nums: list[int], target: int) -> int | None:
    a = sorted(nums)
    best = None
    for i in range(len(a)):
        lo, hi = i + 1, len(a) - 1
        while lo < hi:
            s = a[i] + a[lo] + a[hi]
            if best is None or abs(s - target) < best:
                best = abs(s - target)
            if s < target:
                lo += 1
            else:
                hi -= 1
    return best
