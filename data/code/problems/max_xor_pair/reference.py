def max_xor_pair(nums):
    best = 0
    mask = 0
    for bit in range(29, -1, -1):
        # decide the answer bit by bit from the top: can `best` get this bit?
        mask |= 1 << bit
        prefixes = {x & mask for x in nums}
        candidate = best | (1 << bit)
        for p in prefixes:
            if p ^ candidate in prefixes:
                best = candidate
                break
    return best
