def kth_pair_distance(nums, k):
    # Every pairwise distance, then a quickselect for the k-th smallest:
    # the lists shrink about geometrically, so O(n^2) expected.
    gaps = [abs(a - b) for i, a in enumerate(nums) for b in nums[i + 1:]]
    while True:
        pivot = gaps[len(gaps) // 2]
        below = [g for g in gaps if g < pivot]
        if k <= len(below):
            gaps = below
            continue
        same = sum(1 for g in gaps if g == pivot)
        if k <= len(below) + same:
            return pivot
        k -= len(below) + same
        gaps = [g for g in gaps if g > pivot]
