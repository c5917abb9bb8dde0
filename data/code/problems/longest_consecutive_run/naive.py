def longest_consecutive_run(nums: list[int]) -> int:
    best = 0
    for x in nums:
        if x - 1 in nums:
            continue
        length = 1
        while x + length in nums:
            length += 1
        best = max(best, length)
    return best
