def min_cover_intervals(intervals: list[list[int]], lo: int, hi: int) -> int:
    items = sorted(intervals)
    i = 0
    count = 0
    cur = lo
    while count == 0 or cur < hi:
        far = None
        while i < len(items) and items[i][0] <= cur:
            if far is None or items[i][1] > far:
                far = items[i][1]
            i += 1
        if far is None or far < cur or (count > 0 and far == cur):
            return -1
        count += 1
        cur = far
    return count
