def pair_count_below(nums: list[int], limit: int) -> int:
    a = sorted(nums)
    lo, hi = 0, len(a) - 1
    count = 0
    while lo < hi:
        if a[lo] + a[hi] < limit:
            count += hi - lo
            lo += 1
        else:
            hi -= 1
    return count
