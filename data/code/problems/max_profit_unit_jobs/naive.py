def max_profit_unit_jobs(jobs):
    n = len(jobs)
    taken = [False] * (n + 1)  # hours 1..n; later hours are never needed
    total = 0
    for deadline, profit in sorted(jobs, key=lambda j: -j[1]):
        # put the job in the latest free hour before its deadline
        h = min(deadline, n)
        while h >= 1 and taken[h]:
            h -= 1
        if h >= 1:
            taken[h] = True
            total += profit
    return total
