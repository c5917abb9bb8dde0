def unpaired_value(nums):
    for v in nums:
        c = 0
        for w in nums:
            if w == v:
                c += 1
        if c % 2 == 1:
            return v
    return 0
