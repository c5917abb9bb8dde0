import heapq


def running_median(nums: list[int]) -> list[float]:
    low = []  # max-heap of the smaller half, stored negated
    high = []  # min-heap of the larger half
    out = []
    for x in nums:
        if low and x > -low[0]:
            heapq.heappush(high, x)
        else:
            heapq.heappush(low, -x)
        if len(low) > len(high) + 1:
            heapq.heappush(high, -heapq.heappop(low))
        elif len(high) > len(low):
            heapq.heappush(low, -heapq.heappop(high))
        if len(low) > len(high):
            out.append(-low[0])
        else:
            out.append((-low[0] + high[0]) / 2)
    return out
