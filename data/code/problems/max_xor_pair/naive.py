def max_xor_pair(nums):
    best = 0
    for i in range(len(nums)):
        for j in range(i + 1, len(nums)):
            if nums[i] ^ nums[j] > best:
                best = nums[i] ^ nums[j]
    return best
