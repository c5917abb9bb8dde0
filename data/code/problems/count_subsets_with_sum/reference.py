def count_subsets_with_sum(nums, target):
    ways = [1] + [0] * target  # ways[s]: subsets of the items seen so far with sum s
    for x in nums:
        for s in range(target, x - 1, -1):
            ways[s] += ways[s - x]
    return ways[target]
