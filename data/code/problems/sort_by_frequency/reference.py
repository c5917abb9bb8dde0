from collections import Counter


def sort_by_frequency(nums: list[int]) -> list[int]:
    counts = Counter(nums)
    out = []
    for v, c in sorted(counts.items(), key=lambda vc: (-vc[1], vc[0])):
        out.extend([v] * c)
    return out
