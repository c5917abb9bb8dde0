def kth_pair_distance(nums: list[int], k: int) -> int:
    gaps = []
    for i in range(len(nums)):
        for j in range(i + 1, len(nums)):
            gaps.append(abs(nums[i] - nums[j]))
    gaps.sort()
    return gaps[k - 1]
