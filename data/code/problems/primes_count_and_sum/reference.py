def primes_count_and_sum(n):
    composite = bytearray(n + 1) if n >= 0 else bytearray()
    p = 2
    while p * p <= n:
        if not composite[p]:
            composite[p * p :: p] = b"\x01" * len(range(p * p, n + 1, p))
        p += 1
    count = 0
    total = 0
    for i in range(2, n + 1):
        if not composite[i]:
            count += 1
            total += i
    return [count, total]
