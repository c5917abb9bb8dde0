def coprime_pair_count(nums):
    if not nums:
        return 0
    top = max(nums)
    freq = [0] * (top + 1)
    for x in nums:
        freq[x] += 1
    # Moebius function by a sieve
    mu = [1] * (top + 1)
    composite = [False] * (top + 1)
    for p in range(2, top + 1):
        if composite[p]:
            continue
        for m in range(p, top + 1, p):
            composite[m] = True
            mu[m] = -mu[m]
        for m in range(p * p, top + 1, p * p):
            mu[m] = 0
    # pairs with gcd 1 = sum over d of mu(d) * pairs among multiples of d
    total = 0
    for d in range(1, top + 1):
        if mu[d] != 0:
            c = sum(freq[d::d])
            total += mu[d] * (c * (c - 1) // 2)
    return total
