def subarray_sum_count(nums: list[int], k: int) -> int:
    total = 0
    for i in range(len(nums)):
        s = 0
        for j in range(i, len(nums)):
            s += nums[j]
            if s == k:
                total += 1
    return total
