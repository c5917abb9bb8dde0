def first_repeated_value(nums: list[int]) -> int | None:
    for j in range(len(nums)):
        for i in range(j):
            if nums[i] == nums[j]:
                return nums[j]
    return None
