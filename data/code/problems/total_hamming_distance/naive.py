def total_hamming_distance(nums):
    total = 0
    for i in range(len(nums)):
        for j in range(i + 1, len(nums)):
            total += bin(nums[i] ^ nums[j]).count("1")
    return total
