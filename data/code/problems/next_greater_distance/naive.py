def next_greater_distance(nums: list[int]) -> list[int]:
    out = []
    for i in range(len(nums)):
        d = 0
        for j in range(i + 1, len(nums)):
            if nums[j] > nums[i]:
                d = j - i
                break
        out.append(d)
    return out
