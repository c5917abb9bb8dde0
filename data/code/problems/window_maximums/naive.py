def window_maximums(nums: list[int], k: int) -> list[int]:
    out = []
    for i in range(len(nums) - k + 1):
        best = nums[i]
        for j in range(i + 1, i + k):
            if nums[j] > best:
                best = nums[j]
        out.append(best)
    return out
