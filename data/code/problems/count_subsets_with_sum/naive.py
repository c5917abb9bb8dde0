def count_subsets_with_sum(nums, target):
    def go(i, remaining):
        if i == len(nums):
            return 1 if remaining == 0 else 0
        return go(i + 1, remaining) + go(i + 1, remaining - nums[i])
    return go(0, target)
