def unpaired_value(nums):
    x = 0
    for v in nums:
        x ^= v
    return x
