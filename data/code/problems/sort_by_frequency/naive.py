def sort_by_frequency(nums: list[int]) -> list[int]:
    keyed = []
    for v in nums:
        count = 0
        for w in nums:
            if w == v:
                count += 1
        keyed.append((-count, v))
    keyed.sort()
    return [v for _, v in keyed]
