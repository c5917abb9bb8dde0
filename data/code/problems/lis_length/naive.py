def lis_length(nums):
    n = len(nums)
    best = [1] * n
    for i in range(n):
        for j in range(i):
            if nums[j] < nums[i] and best[j] + 1 > best[i]:
                best[i] = best[j] + 1
    return max(best) if n else 0
