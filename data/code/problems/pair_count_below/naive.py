def pair_count_below(nums: list[int], limit: int) -> int:
    count = 0
    for i in range(len(nums)):
        for j in range(i + 1, len(nums)):
            if nums[i] + nums[j] < limit:
                count += 1
    return count
