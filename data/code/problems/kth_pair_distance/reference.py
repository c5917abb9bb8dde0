def kth_pair_distance(nums: list[int], k: int) -> int:
    a = sorted(nums)
    n = len(a)

    def pairs_within(d: int) -> int:
        count = 0
        left = 0
        for right in range(n):
            while a[right] - a[left] > d:
                left += 1
            count += right - left
        return count

    lo, hi = 0, a[-1] - a[0]
    while lo < hi:
        mid = (lo + hi) // 2
        if pairs_within(mid) >= k:
            hi = mid
        else:
            lo = mid + 1
    return lo
