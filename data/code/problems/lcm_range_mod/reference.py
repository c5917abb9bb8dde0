def lcm_range_mod(n):
    MOD = 1000000007
    composite = bytearray(n + 1)
    result = 1
    for p in range(2, n + 1):
        if composite[p]:
            continue
        composite[p * p :: p] = b"\x01" * len(range(p * p, n + 1, p))
        power = p  # the largest power of p that is <= n
        while power * p <= n:
            power *= p
        result = result * power % MOD
    return result
