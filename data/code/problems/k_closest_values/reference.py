import heapq


def k_closest_values(nums: list[int], x: int, k: int) -> list[int]:
    return heapq.nsmallest(k, nums, key=lambda v: (abs(v - x), v))
