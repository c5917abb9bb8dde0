def total_hamming_distance(nums):
    n = len(nums)
    total = 0
    for bit in range(31):
        ones = 0
        for x in nums:
            ones += (x >> bit) & 1
        total += ones * (n - ones)
    return total
