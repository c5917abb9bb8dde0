def max_window_sum(nums: list[int], k: int) -> int | None:
    best = None
    for i in range(len(nums) - k + 1):
        s = 0
        for j in range(i, i + k):
            s += nums[j]
        if best is None or s > best:
            best = s
    return best
