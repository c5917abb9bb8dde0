def primes_count_and_sum(n):
    count = 0
    total = 0
    for k in range(2, n + 1):
        # trial division by every smaller number
        prime = True
        for d in range(2, k):
            if k % d == 0:
                prime = False
                break
        if prime:
            count += 1
            total += k
    return [count, total]
