import heapq


def max_profit_unit_jobs(jobs):
    chosen = []  # min-heap of the profits of the jobs kept so far
    for deadline, profit in sorted(jobs):
        heapq.heappush(chosen, profit)
        if len(chosen) > deadline:
            heapq.heappop(chosen)  # drop the least profitable job
    return sum(chosen)
