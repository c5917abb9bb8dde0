def three_sum_gap(nums: list[int], target: int) -> int | None:
    n = len(nums)
    best = None
    for i in range(n):
        for j in range(i + 1, n):
            for k in range(j + 1, n):
                gap = abs(nums[i] + nums[j] + nums[k] - target)
                if best is None or gap < best:
                    best = gap
    return best
