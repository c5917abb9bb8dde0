def three_sum_gap(nums: list[int], target: int) -> int | None:
    a = sorted(nums)
    n = len(a)
    if n < 3:
        return None
    best = None
    for i in range(n - 2):
        lo, hi = i + 1, n - 1
        while lo < hi:
            s = a[i] + a[lo] + a[hi]
            gap = abs(s - target)
            if best is None or gap < best:
                best = gap
            if s < target:
                lo += 1
            elif s > target:
                hi -= 1
            else:
                return 0
    return best
