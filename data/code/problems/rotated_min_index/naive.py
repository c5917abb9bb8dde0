def rotated_min_index(nums: list[int]) -> int:
    best = -1
    for i in range(len(nums)):
        if best == -1 or nums[i] < nums[best]:
            best = i
    return best
