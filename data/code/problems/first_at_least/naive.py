def first_at_least(nums: list[int], target: int) -> int:
    i = 0
    while i < len(nums) and nums[i] < target:
        i += 1
    return i
