def count_subsets_with_sum(nums, target):
    ways = [0] * (target + 1)
    ways[0] = 1
    for x in nums:
        for s in range(target, x - 1, -1):
            ways[s] += ways[s - x]
    return ways[target]
