def squares_sorted(nums: list[int]) -> list[int]:
    n = len(nums)
    out = [0] * n
    lo, hi = 0, n - 1
    for pos in range(n - 1, -1, -1):
        a, b = nums[lo] * nums[lo], nums[hi] * nums[hi]
        if a > b:
            out[pos] = a
            lo += 1
        else:
            out[pos] = b
            hi -= 1
    return out
